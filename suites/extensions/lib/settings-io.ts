/**
 * Reading and writing one suite/v4 setting, for the checks that change it: GET /settings read
 * fresh and POST /settings (each shared between the checks asking at the same moment), the value a
 * check starts from, and the original set back afterwards, verified. The read the value checks
 * share is settings-read.ts.
 */
import type { SettingSpec } from '../../../schemas/types.ts';
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { RequestOptions, Response } from '../../../src/sdk/http.ts';
import { isObject } from '../../../src/sdk/discovery.ts';
import { answered, brief, show } from './support.ts';
import { SETTINGS, targetKey } from './settings-route.ts';
import { sameValue, writable } from './setting-values.ts';

/**
 * One request at a time for the checks of this file that ask at the same moment: the askers that
 * come while one is on its way are sent together (`send`) once it is back.
 */
abstract class Coalesced<W extends { t: BehaviourContext; reject: (e: unknown) => void }> {
  private busy = false;
  private waiting: W[] = [];

  protected ask(w: W): void {
    this.waiting.push(w);
    if (!this.busy) this.later();
  }

  /**
   * Send once the checks woken at this moment have asked (they resume together when a shared read
   * or write comes back): on the next turn of the event loop, not at the first one's call.
   */
  protected later(): void {
    this.busy = true;
    setImmediate(() => {
      const batch = this.waiting.splice(0);
      this.busy = batch.length > 0;
      if (batch.length) this.send(batch as [W, ...W[]]).finally(() => this.later());
    });
  }

  /** Send one request for the batch and answer (or reject) every asker. */
  protected abstract send(batch: [W, ...W[]]): Promise<unknown>;
}

/**
 * GET /settings read fresh, for a check that needs the settings as they are now (after its own
 * writes). One such read at a time in this suite file: the checks that ask while one is on its way
 * wait, and the next read is sent for all of them once it is back. That read is sent after every
 * one of them asked, so each sees a state that includes its own writes; and each holds the lock of
 * what it reads (its setting's module, or the modules' lock), so no other check of this file
 * changes it meanwhile. The same answer, read-only, goes to each of them; the request is counted
 * (and logged) once, under the check that sent it, and the others keep the exchange as their
 * evidence. About a third of the run's GET /settings against the 7.1 site were reads made at the
 * same moment as another check's.
 */
interface ReadAsker {
  t: BehaviourContext;
  resolve: (r: Response) => void;
  reject: (e: unknown) => void;
}
class SettingsReads extends Coalesced<ReadAsker> {
  read(t: BehaviourContext): Promise<Response> {
    return new Promise((resolve, reject) => this.ask({ t, resolve, reject }));
  }

  protected send(batch: [ReadAsker, ...ReadAsker[]]) {
    const [first, ...rest] = batch;
    return first.t.client.get(SETTINGS).then(
      (res) => {
        first.resolve(res);
        for (const w of rest) {
          w.t.client.log.push(res.exchange);
          w.resolve(res);
        }
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
      },
    );
  }
}
const reads = new SettingsReads();
/** GET /settings, read fresh (see SettingsReads). */
export const readSettings = (t: BehaviourContext): Promise<Response> => reads.read(t);

/** The setting's current value, read fresh (GET /settings, 2xx, an object carrying it). */
export async function currentValue(t: BehaviourContext, s: SettingSpec): Promise<unknown> {
  const res = await readSettings(t);
  if (!answered(res) || !isObject(res.body)) t.fail(`GET ${SETTINGS} answered ${brief(res)}, not an object of settings`);
  const key = targetKey(t, s);
  if (!Object.prototype.hasOwnProperty.call(res.body, key)) t.fail(`GET ${SETTINGS} no longer carries ${key}`);
  return res.body[key];
}

export async function writeSetting(t: BehaviourContext, s: SettingSpec, value: unknown, opts: Pick<RequestOptions, 'invalid'> = {}) {
  return t.client.post(SETTINGS, { [targetKey(t, s)]: value }, opts);
}

/**
 * Writes of valid values that the checks of this file make at the same moment, sent as one POST
 * /settings with all their keys: the positive controls of the refusal checks (a setting's current
 * value written back) and the restores (a setting's original value written back). Like
 * SettingsReads, one such write at a time; the writes asked for meanwhile are sent together once
 * it is back. Each asker holds its setting's lock, so the keys differ and no other check of this
 * file writes them meanwhile.
 *
 * Optimistic, with the single write as the fallback, so that every verdict is the one a write of
 * its own would give: a POST of one key is that write; a joined POST answers each asker only when
 * it is accepted (2xx), and the asker then reads its key back and, when it does not read as
 * written, makes its own write after all. When a joined POST is not accepted (Jetpack answers one
 * 400 some_updated for a POST of which some keys were stored), every asker makes its own write:
 * the values are the ones each setting held or is being set back to, so a key the refused POST
 * stored anyway is found so by the asker's own read, and the refusals of another setting's value
 * never become this one's. Refused values are never sent this way (they are sent alone).
 * The joined request is counted and logged once, under the check that sent it; the others keep
 * the exchange as their evidence.
 */
interface WriteAsker {
  t: BehaviourContext;
  key: string;
  value: unknown;
  resolve: (r: Joined | undefined) => void;
  reject: (e: unknown) => void;
}
class SettingsWrites extends Coalesced<WriteAsker> {
  /** The answer of the POST that carried the value, or undefined when a joined POST was not accepted. */
  write(t: BehaviourContext, key: string, value: unknown): Promise<Joined | undefined> {
    return new Promise((resolve, reject) => this.ask({ t, key, value, resolve, reject }));
  }

  protected send(batch: [WriteAsker, ...WriteAsker[]]) {
    const [first, ...rest] = batch;
    return first.t.client.post(SETTINGS, Object.fromEntries(batch.map((w) => [w.key, w.value]))).then(
      (res) => {
        if (rest.length && !answered(res)) {
          for (const w of batch) w.resolve(undefined);
          return;
        }
        first.resolve({ res, alone: !rest.length });
        for (const w of rest) {
          w.t.client.log.push(res.exchange);
          w.resolve({ res, alone: false });
        }
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
      },
    );
  }
}
/** A POST that carried a value: its answer, and whether the value was its only key. */
export interface Joined {
  res: Response;
  alone: boolean;
}
const joinedWrites = new SettingsWrites();
/** Write `key` = `value` (a valid value: the current or original one) joined with the other checks' writes of this moment (SettingsWrites). */
export const writeJoined = (t: BehaviourContext, key: string, value: unknown): Promise<Joined | undefined> => joinedWrites.write(t, key, value);

/** GET /settings answered an object in which `s` reads as `value`. */
export function readsAs(t: BehaviourContext, s: SettingSpec, res: Response, value: unknown): boolean {
  const key = targetKey(t, s);
  return answered(res) && isObject(res.body) && Object.prototype.hasOwnProperty.call(res.body, key) && sameValue(s, res.body[key], value);
}

/** What a setting was last read (or written and verified) to hold; undefined once a write may have changed it. */
export interface Known {
  value?: { v: unknown };
}

/**
 * The value each setting was last read to hold by a behaviour of this file that held its lock
 * to the end (the next behaviour of the same setting, queued on the same lock, starts from it
 * instead of reading it again). Only where every writer of the setting holds that lock: the
 * concurrent settings of suite.settings.spec.ts (spamfilter_* ones are also written through the
 * spam filter's route, so they are always read).
 */
const verified = new Map<string, { v: unknown }>();

/** The setting's value at the start of a check: the verified one if any, else read fresh. */
async function startValue(t: BehaviourContext, s: SettingSpec, useVerified: boolean): Promise<unknown> {
  const known = useVerified ? verified.get(s.name) : undefined;
  verified.delete(s.name);
  return known ? known.v : currentValue(t, s);
}

/** Run a check of one setting; afterwards, what it left verified is the next check's start. */
export async function settingCheck(t: BehaviourContext, s: SettingSpec, useVerified: boolean, check: (original: unknown, known: Known) => Promise<void>): Promise<void> {
  const original = await startValue(t, s, useVerified);
  const known: Known = { value: { v: original } };
  try {
    await check(original, known);
  } finally {
    if (useVerified && known.value) verified.set(s.name, known.value);
  }
}

/**
 * Write `original` back, unless `known` says the setting holds it (else it is read first), and
 * verify it, so that a run never leaves a setting changed without saying so. Returns a problem,
 * or undefined.
 */
export async function restoreSetting(t: BehaviourContext, s: SettingSpec, original: unknown, known: Known): Promise<string | undefined> {
  const key = targetKey(t, s);
  let now = known.value;
  if (!now) {
    const res = await readSettings(t);
    if (answered(res) && isObject(res.body)) now = { v: res.body[key] };
  }
  if (now && sameValue(s, now.v, original)) return undefined;
  const what = `POST ${SETTINGS} {${key}: ${show(writable(s, original))}}`;
  known.value = undefined;
  // Joined with the other checks' restores and controls of this moment (SettingsWrites); where
  // that POST carried more keys and this one does not read back as restored (or it was refused,
  // maybe after storing this one: read first), the write of its own as before.
  const joined = await joinedWrites.write(t, key, writable(s, original));
  if (joined && !joined.alone) {
    if (readsAs(t, s, await readSettings(t), original)) return (known.value = { v: original }), undefined;
  } else if (!joined) {
    if (readsAs(t, s, await readSettings(t), original)) return (known.value = { v: original }), undefined;
  }
  const res = joined?.alone ? joined.res : await writeSetting(t, s, writable(s, original));
  if (!answered(res)) return `${what} answered ${brief(res)}`;
  const after = await readSettings(t);
  if (!answered(after) || !isObject(after.body) || !sameValue(s, after.body[key], original))
    return `${what} answered ${res.status}, but GET ${SETTINGS} then reads ${answered(after) && isObject(after.body) ? show(after.body[key]) : brief(after)}`;
  known.value = { v: original };
  return undefined;
}
