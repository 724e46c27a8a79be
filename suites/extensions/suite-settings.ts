/**
 * Behaviours of the suite/v4 settings (extensions part 2 › Suite module settings: "The same set
 * of settings is read and written through the module, settings and per-module routes", with a
 * type, a default and for some the allowed values).
 *
 * Each documented item is checked on its own, so that one deviation is one failure:
 * - `suite.settings.read` owns "GET /settings answers an object of settings" (a prerequisite of
 *   everything below: when it fails, the rest skip naming it);
 * - `suite.settings.value.<name>` owns "GET /settings carries <name> with a value of its type
 *   (and one of the allowed values)", checked on one shared read of GET /settings;
 * - `suite.settings.roundtrip.<name>` writes another value the target can accept and reads it back;
 * - `suite.settings.type.<name>` / `.enum.<name>`: a value of the wrong type / outside the allowed
 *   values is refused and not stored, and (positive control) the setting's current value written
 *   back is accepted, so that a route refusing everything never passes.
 * The last three need only their own setting's value check.
 *
 * Values written are those the target can accept: values the spec documents (booleans, allowed
 * values, the default), the target's own (its current value, the default and allowed values its
 * index advertises for POST /settings), or, where the spec leaves the valid set open and offers no
 * other value, a plausible one: a refusal of that one is not a failure (it skips, saying so).
 *
 * Settings the target stores only while the module that owns them is active (GET /module/all
 * names a module's settings in its `options`): when a valid write does not take and the owning
 * module is inactive, the module is activated (where the target says it can be) and the write is
 * tried again; otherwise the behaviour skips with the target's own evidence. Every value and
 * module changed is read first and set back afterwards, also when the check fails. Settings of
 * one module are stored together by the reference implementation, so they are written one at a
 * time (the module's lock).
 *
 * Declared from two files: suite.settings.spec.ts (every setting), and spamfilter.spec.ts for the
 * settings that share their storage with `spamfilter/v1/settings` (so that the two never run at
 * the same time: suite files run in parallel).
 */
import { catalog, endpointById } from '../../schemas/catalog/index.ts';
import type { ArgSpec, SettingSpec } from '../../schemas/types.ts';
import { Unmet, behaviour, declarationSite, prerequisite, type BehaviourContext, type BehaviourDecl, type BehaviourOptions, type Prerequisite } from '../../src/sdk/behaviour.ts';
import type { Client, RequestOptions, Response } from '../../src/http/client.ts';
import { advertisedEndpoint, deepEqual, findAdvertisedRoute, isObject } from '../../src/sdk/discovery.ts';
import { ConformanceFailure } from '../../src/core/errors.ts';
import {
  SUITE,
  answered,
  brief,
  cannotActivate,
  exclusive,
  expectControl,
  forbidden,
  idPart,
  isValidationError,
  moduleHints,
  refused,
  remoteEvidence,
  show,
  skipIfForbidden,
  withRestore,
} from './support.ts';
import { OUTSIDE_ENUM, asBoolean, hasType, wrongTypeValues } from '../../schemas/values.ts';

export const SETTINGS = '/suite/v4/settings';
const SECTION = catalog.settings[0]!.spec;
const WRITE = endpointById('suite.settings.update');

/** Settings stored together with a spam filter setting of the same name (spamfilter/v1/settings). */
export const sharesSpamfilterStorage = (s: SettingSpec): boolean => s.name.startsWith('spamfilter_');

export const start = (t: BehaviourContext) => {
  t.requireNamespace(SUITE);
  t.requireCredentials();
  t.requireWrites();
};

// ---------------------------------------------------------------- the shared read


let snapshot: Promise<Response> | undefined;
/** GET /settings, read once per worker for the checks that do not depend on reading it fresh. */
const readOnce = (client: Client) => (snapshot ??= client.get(SETTINGS));

/** "GET /settings answers an object of settings", owned by suite.settings.read. */
export const SETTINGS_OBJECT: Prerequisite<Record<string, unknown>> = prerequisite('suite.settings.read', async (client) => {
  const res = await readOnce(client);
  if (forbidden(res)) throw new Unmet(`the configured credentials may not GET ${SETTINGS} (${brief(res)}); which routes need which capability is not shown`, 'skipped');
  if (!answered(res)) throw new ConformanceFailure(`GET ${SETTINGS} answered ${brief(res)}, expected a 2xx answer`);
  if (!isObject(res.body)) throw new ConformanceFailure(`GET ${SETTINGS} answered ${show(res.body)}, not an object of settings`);
  return res.body;
});

/** One value of the shared read: present, and `check` says nothing against it. Owned by `owner`. */
export function snapshotValue(owner: string, key: (run: BehaviourContext['run']) => string, check: (v: unknown) => string | undefined): Prerequisite<unknown> {
  return prerequisite(owner, async (client, run) => {
    const res = await readOnce(client);
    if (!answered(res) || !isObject(res.body)) throw new Unmet('GET /suite/v4/settings did not answer an object of settings (see suite.settings.read)', 'skipped');
    const k = key(run as BehaviourContext['run']);
    if (!Object.prototype.hasOwnProperty.call(res.body, k)) throw new ConformanceFailure(`GET ${SETTINGS} has no ${k}`);
    const problem = check(res.body[k]);
    if (problem) throw new ConformanceFailure(`GET ${SETTINGS} answers ${k} = ${show(res.body[k])}, ${problem}`);
    return res.body[k];
  });
}

const valueProblem = (s: SettingSpec) => (v: unknown) => {
  if (!hasType(s.type, v)) return `not a ${s.type}`;
  if (s.enum && !s.enum.includes(v as string)) return `not one of the allowed values ${s.enum.join(', ')}`;
  return undefined;
};

const VALUES = new Map(catalog.settings.map((s) => [s.name, snapshotValue(`suite.settings.value.${idPart(s.name)}`, (run) => run.profile.toTargetSetting(s.name), valueProblem(s))]));
/** "GET /settings carries <name> with a value of its type", owned by suite.settings.value.<name>. */
export const settingValue = (s: SettingSpec) => VALUES.get(s.name)!;

// ---------------------------------------------------------------- reading and writing one setting

const targetKey = (t: BehaviourContext, s: SettingSpec) => t.run.profile.toTargetSetting(s.name);

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
function readsAs(t: BehaviourContext, s: SettingSpec, res: Response, value: unknown): boolean {
  const key = targetKey(t, s);
  return answered(res) && isObject(res.body) && Object.prototype.hasOwnProperty.call(res.body, key) && sameValue(s, res.body[key], value);
}


/**
 * The service identifiers of a `sharing_services` list: "visible: two service identifiers,
 * hidden: []" — the spec calls the content service identifiers without saying whether they come
 * as a list or as an object keyed by identifier (the reference implementation reads them back
 * keyed), so both read as the same identifiers.
 */
function serviceIds(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map(String).sort();
  if (isObject(v)) return Object.keys(v).sort();
  return undefined;
}

/**
 * Two values of a setting mean the same: booleans as 0/1/true/false (part 2), arrays of scalars in
 * any order, `sharing_services` by the identifiers in visible and hidden, an object setting with
 * named keys by those keys (the spec names the keys of the default, not "no other keys"), else
 * equal.
 */
export function sameValue(s: Pick<SettingSpec, 'type' | 'name' | 'keys'>, a: unknown, b: unknown): boolean {
  if (s.type === 'boolean') return asBoolean(a) !== undefined && asBoolean(a) === asBoolean(b);
  if (s.type === 'array' && Array.isArray(a) && Array.isArray(b) && a.every(isScalar) && b.every(isScalar))
    return a.length === b.length && [...a].map(String).sort().join('\u0000') === [...b].map(String).sort().join('\u0000');
  if (s.name === 'sharing_services' && isObject(a) && isObject(b))
    return ['visible', 'hidden'].every((k) => deepEqual(serviceIds(a[k]), serviceIds(b[k])) && serviceIds(a[k]) !== undefined);
  if (s.type === 'object' && s.keys && isObject(a) && isObject(b)) return s.keys.every((k) => deepEqual(a[k], b[k]));
  return deepEqual(a, b);
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** The form in which a value read from GET /settings is written back (sharing_services: lists of identifiers). */
function writable(s: SettingSpec, v: unknown): unknown {
  if (s.name === 'sharing_services' && isObject(v)) return { visible: serviceIds(v.visible) ?? [], hidden: serviceIds(v.hidden) ?? [] };
  return v;
}

/** What a setting was last read (or written and verified) to hold; undefined once a write may have changed it. */
interface Known {
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
async function settingCheck(t: BehaviourContext, s: SettingSpec, useVerified: boolean, check: (original: unknown, known: Known) => Promise<void>): Promise<void> {
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
async function restoreSetting(t: BehaviourContext, s: SettingSpec, original: unknown, known: Known): Promise<string | undefined> {
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

// ---------------------------------------------------------------- values the target can accept

interface Sample {
  value: unknown;
  /** Documented by the spec or the target's own; false for a plausible value of an open set. */
  documented: boolean;
}

/** What the target's index advertises for the setting on POST /settings (spec names). */
function advertised(t: BehaviourContext, s: SettingSpec): { enum?: unknown[]; default?: unknown } {
  const entry = findAdvertisedRoute(t.index, SETTINGS)?.entry;
  const arg = advertisedEndpoint(entry, 'POST')?.args?.[s.name];
  if (!isObject(arg)) return {};
  return { ...(Array.isArray(arg.enum) ? { enum: arg.enum } : {}), ...('default' in arg ? { default: arg.default } : {}) };
}

/** A plausible value of an open set: one the spec does not document, changing the current value. */
function plausible(s: SettingSpec, current: unknown): unknown[] {
  switch (s.type) {
    case 'string':
    case 'text':
      return ['cmscroundtrip', 'cmscroundtrip2'];
    case 'integer':
      return [typeof current === 'number' ? current + 1 : 11, 12];
    case 'array':
      // Post types where buttons are shown; role names; category identifiers (the spec's words).
      if (s.items?.type === 'string') return s.name === 'show' ? [['post', 'page'], ['page']] : [['administrator', 'editor'], ['editor']];
      return [[1], []];
    case 'object': {
      const keys = s.keys ?? [];
      const base = isObject(current) ? current : {};
      if (s.name === 'advanced_seo_title_formats')
        return [{ ...Object.fromEntries(keys.map((k) => [k, base[k] ?? []])), [keys[0]!]: [{ type: 'string', value: 'cmsc' }] }];
      return [Object.fromEntries(keys.map((k, i) => [k, i === 0 ? (base[k] === 'cmsc text' ? '' : 'cmsc text') : (base[k] ?? '')]))];
    }
    default:
      return [];
  }
}

/**
 * Values to write, most trustworthy first: a boolean's other value; the spec's allowed values and
 * default; the target's advertised allowed values and default; for sharing_services the target's
 * own service identifiers rearranged; then plausible values of an open set.
 */
export function samples(t: BehaviourContext, s: SettingSpec, current: unknown): Sample[] {
  const out: Sample[] = [];
  const add = (value: unknown, documented: boolean) => {
    if (value === undefined || !hasType(s.type, value) || sameValue(s, value, current) || out.some((o) => sameValue(s, o.value, value))) return;
    out.push({ value, documented });
  };
  if (s.type === 'boolean') add(!(asBoolean(current) ?? false), true);
  if ('default' in s) add(structuredClone(s.default), true);
  for (const v of s.enum ?? []) add(v, true);
  const adv = advertised(t, s);
  if (!s.enum) for (const v of adv.enum ?? []) add(v, true);
  if ('default' in adv && (s.name !== 'sharing_services' || isObject(adv.default))) add(adv.default, true);
  if (s.name === 'sharing_services' && isObject(current)) {
    const visible = serviceIds(current.visible) ?? [];
    const hidden = serviceIds(current.hidden) ?? [];
    if (visible.length > 1) add({ visible: visible.slice(1), hidden: [...hidden, visible[0]!] }, true);
    else if (hidden.length) add({ visible: [...visible, hidden[0]!], hidden: hidden.slice(1) }, true);
  }
  // A plausible value only where the current one can be written back: an empty list may be taken
  // as "no change" (the reference implementation ignores an empty list of newsletter
  // categories), so a list written into an empty one could not be undone.
  if (!(Array.isArray(current) && current.length === 0)) for (const v of plausible(s, current)) add(v, false);
  return out;
}

// ---------------------------------------------------------------- the owning module

/** The lock of a setting: its module's when the target names one (settings of a module are stored together), else its own. */
export async function settingLock(s: SettingSpec): Promise<string> {
  const owner = (await moduleHints()).owners.get(s.name);
  return owner ? moduleLock(owner) : `setting:${s.name}`;
}

export const moduleLock = (slug: string) => `module:${slug}`;
/** Held while any module is activated or deactivated (their states are stored together). */
export const MODULES_LOCK = 'modules';
export const activeRoute = (t: BehaviourContext, slug: string) => `/suite/v4/module/${t.run.profile.toTargetModule(slug)}/active`;

/** A module's state on GET /settings (its toggle), read fresh; undefined when the toggle is not there as a boolean. */
export async function moduleActive(t: BehaviourContext, slug: string): Promise<boolean | undefined> {
  const res = await readSettings(t);
  if (!answered(res) || !isObject(res.body)) return undefined;
  return asBoolean(res.body[t.run.profile.toTargetModule(slug)]);
}

/** GET /settings answered an object that lacks the module's toggle. */
async function settingsLackToggle(t: BehaviourContext, slug: string): Promise<boolean> {
  const res = await readSettings(t);
  return answered(res) && isObject(res.body) && !(t.run.profile.toTargetModule(slug) in res.body);
}

type Outcome = { ok: true } | { ok: false; res: Response; problem: string };

/**
 * Run `attempt` (a write and its check). When it does not take for a reason other than a
 * parameter error, and GET /module/all names an inactive module that owns the setting: skip with
 * the target's evidence when that module cannot be activated here; else activate it, try again,
 * and (through `restore`, then deactivation) set everything back. Returns the last outcome.
 */
export async function withOwnerActive(
  t: BehaviourContext,
  s: SettingSpec,
  attempt: () => Promise<Outcome>,
  restore: () => Promise<string | undefined>,
  known?: Known,
): Promise<Outcome> {
  const first = await attempt();
  if (first.ok || isValidationError(first.res, [targetKey(t, s)]) || forbidden(first.res)) return first;
  const hints = await moduleHints();
  const owner = hints.owners.get(s.name);
  // Which module owns the setting (and whether it is active) cannot be told when GET /module/all
  // fails: the write may not take for an inactive module; that route's read check owns the failure.
  if (!owner && !hints.answered) t.dependsOn('suite.read.module.all', `${first.problem}; ${hints.detail}, so whether the setting belongs to a module that is not active cannot be told`);
  if (!owner) return first;
  // The modules' states are stored together (the reference implementation keeps one list of
  // active modules): activations never run at the same time.
  return exclusive([MODULES_LOCK], async () => {
    const active = await moduleActive(t, owner);
    // GET /settings answered without the toggle of the module the setting belongs to: whether the
    // module is active (and the write could take) cannot be told; its toggle check owns that.
    if (active === undefined && (await settingsLackToggle(t, owner)))
      t.dependsOn(`suite.modules.value.${owner}`, `${first.problem}; the setting belongs to module ${owner}, whose toggle GET ${SETTINGS} does not carry, so whether it is active cannot be told`);
    if (active !== false) return first;
    const why = await cannotActivate(owner);
    if (why) t.skip(`${first.problem}; the setting belongs to module ${owner} (GET /suite/v4/module/all), which is not active and cannot be activated here: ${why}`);
    return withRestore(
      async () => {
        const res = await t.client.post(activeRoute(t, owner), { active: true });
        if (!answered(res) || (await moduleActive(t, owner)) !== true)
          t.dependsOn(`suite.modules.toggle.${owner}`, `${first.problem}; the setting belongs to module ${owner}, which is not active, and activating it answered ${brief(res)}`);
        return attempt();
      },
      async () => {
        const problems = [await restore()];
        if ((await moduleActive(t, owner)) !== false) {
          const res = await t.client.post(activeRoute(t, owner), { active: false });
          if (!answered(res)) problems.push(`setting ${owner} back to inactive answered ${brief(res)}`);
          // Deactivating a module may change its settings: read the setting again before trusting it.
          if (known) known.value = undefined;
        }
        return problems.filter(Boolean).join('; ') || undefined;
      },
    );
  });
}

// ---------------------------------------------------------------- the behaviours

export interface DeclareOptions {
  concurrent: boolean;
}

/** The per-setting behaviours of every setting that `filter` selects. */
export function declareSettingBehaviours(filter: (s: SettingSpec) => boolean, opts: DeclareOptions): void {
  const ids = new Set<string>();
  // Declared kind by kind (every setting's value check, then every round trip, every type check,
  // enum check, module-route check), not setting by setting: the checks of one setting wait for
  // each other (its lock), so setting by setting most of the file's concurrent slots held checks
  // waiting for one lock; kind by kind they hold checks of different settings, whose reads of
  // GET /settings are then shared (SettingsReads) and whose writes can meet (SettingsWrites).
  const phases: (() => void)[][] = [[], [], [], [], []];
  const declareIn = (phase: number, decl: BehaviourDecl, fn: (t: BehaviourContext) => unknown, options: BehaviourOptions = {}) => {
    const location = declarationSite(declareIn);
    phases[phase]!.push(() => behaviour(decl, fn, { ...options, ...(location ? { location } : {}) }));
  };
  for (const s of catalog.settings.filter(filter)) {
    const id = idPart(s.name);
    if (ids.has(id)) throw new Error(`two settings map to the behaviour ID part ${id}`);
    ids.add(id);
    const common = { level: 'MUST' as const, namespace: SUITE, route: SETTINGS, spec: SECTION };
    // Each of these reads the setting back from GET /settings and fails when it does not read as
    // written (or as it was): they validate the field of the answer, so they cover it too.
    const writes = [s.id, `endpoint:${WRITE.endpoint.id}`, `arg:${WRITE.endpoint.id}.${s.name}`, `field:resource.suite.settings.${s.name}`];

    declareIn(0, 
      {
        ...common,
        id: `suite.settings.value.${id}`,
        title: `GET /settings carries ${s.name} with a value of its type (${s.type}${s.enum ? `, one of ${s.enum.join(', ')}` : ''})`,
        covers: [s.id, 'endpoint:suite.settings.read', `field:resource.suite.settings.${s.name}`],
      },
      async (t) => {
        t.requireNamespace(SUITE);
        t.requireCredentials();
        await t.need(SETTINGS_OBJECT);
        await t.need(settingValue(s));
      },
      { concurrent: opts.concurrent },
    );

    declareIn(1, 
      { ...common, id: `suite.settings.roundtrip.${id}`, title: `a valid ${s.type} written to ${s.name} through POST /settings reads back on GET /settings`, covers: writes },
      async (t) => {
        start(t);
        await t.need(SETTINGS_OBJECT);
        await t.need(settingValue(s));
        await exclusive([await settingLock(s)], () => settingCheck(t, s, opts.concurrent, (original, known) => roundtrip(t, s, original, known)));
      },
      { concurrent: opts.concurrent },
    );

    const wrong = wrongTypeValues(s.type);
    if (wrong.length)
      declareIn(2, 
        { ...common, id: `suite.settings.type.${id}`, title: `${s.name}: a value that is not a ${s.type} is refused and not stored`, covers: writes },
        async (t) => {
          start(t);
          await t.need(SETTINGS_OBJECT);
          await t.need(settingValue(s));
          await exclusive([await settingLock(s)], () =>
            settingCheck(t, s, opts.concurrent, (original, known) => refusedAndNotStored(t, s, wrong, `not a ${s.type}`, original, known)),
          );
        },
        { concurrent: opts.concurrent },
      );

    if (s.enum)
      declareIn(3, 
        { ...common, id: `suite.settings.enum.${id}`, title: `${s.name}: a value outside ${s.enum.join(', ')} is refused and not stored`, covers: writes },
        async (t) => {
          start(t);
          await t.need(SETTINGS_OBJECT);
          await t.need(settingValue(s));
          await exclusive([await settingLock(s)], () =>
            settingCheck(t, s, opts.concurrent, (original, known) => refusedAndNotStored(t, s, [OUTSIDE_ENUM], 'outside the allowed values', original, known)),
          );
        },
        { concurrent: opts.concurrent },
      );

    // The same setting written through its module's route (part 4: POST /module/<slug> takes
    // "any suite setting of part 2, all optional"): the wrong type (and a value outside the
    // allowed ones) is refused and not stored, and the current value alone (every other setting
    // omitted: none is required) passes validation (accepted and stored, or refused for another
    // reason: the module is not active).
    const moduleArg = MODULE_WRITE_ARGS[s.name];
    const bad = [...wrong, ...(s.enum ? [OUTSIDE_ENUM] : [])];
    if (moduleArg && bad.length)
      declareIn(4, 
        {
          ...common,
          id: `suite.settings.module-route.${id}`,
          route: MODULE_WRITE.route.path,
          spec: MODULE_WRITE.endpoint.spec,
          title: `${s.name} through POST /module/<slug> of its module: a value that is not a ${s.type}${s.enum ? ` or outside ${s.enum.join(', ')}` : ''} is refused and not stored, its current value alone passes validation`,
          covers: [`endpoint:${MODULE_WRITE.endpoint.id}:POST`, ...argItems(MODULE_WRITE.endpoint.id, s.name, moduleArg)],
        },
        async (t) => {
          start(t);
          await t.need(SETTINGS_OBJECT);
          await t.need(settingValue(s));
          // The module whose options hold the setting (GET /module/all, where the target says);
          // else any documented module: the route takes "any suite setting of part 2".
          const owner = (await moduleHints()).owners.get(s.name) ?? catalog.modules[0]!.slug;
          const route = `/suite/v4/module/${t.run.profile.toTargetModule(owner)}`;
          const via: Via = { route, write: (v, opts) => t.client.post(route, { [targetKey(t, s)]: v }, opts), see: `suite.settings.roundtrip.${id}`, passesValidation: true };
          await exclusive([await settingLock(s)], () =>
            settingCheck(t, s, opts.concurrent, (original, known) => refusedAndNotStored(t, s, bad, `not a ${s.type}${s.enum ? ' or outside the allowed values' : ''}`, original, known, via)),
          );
        },
        { concurrent: opts.concurrent },
      );
  }
  for (const phase of phases) for (const declare of phase) declare();
}

const MODULE_WRITE = endpointById('suite.module.item.update');
const MODULE_WRITE_ARGS: Record<string, ArgSpec> = MODULE_WRITE.endpoint.args === 'not-shown' ? {} : MODULE_WRITE.endpoint.args;

/**
 * The arg-attribute items of an arg that a write-and-refuse check exercises: every stated
 * attribute but the default (a default of site state is observed only on a fresh site).
 */
export function argItems(endpointId: string, name: string, arg: ArgSpec): string[] {
  return Object.keys(arg)
    .filter((k) => k !== 'note' && k !== 'default')
    .map((k) => `arg:${endpointId}.${name}#${k}`);
}

async function roundtrip(t: BehaviourContext, s: SettingSpec, original: unknown, known: Known): Promise<void> {
  const key = targetKey(t, s);
  const sample = samples(t, s, original)[0];
  if (!sample)
    t.skip(
      `the spec leaves the valid values of ${s.name} open and documents none other than its current value ${show(original)}; ` +
        'another value written into an empty list could not be undone on a target that takes an empty list as "no change", so none is written',
    );
  const what = `POST ${SETTINGS} {${key}: ${show(sample.value)}}`;
  const restore = () => restoreSetting(t, s, original, known);
  await withRestore(async () => {
    const out = await withOwnerActive(
      t,
      s,
      async (): Promise<Outcome> => {
        known.value = undefined;
        const res = await writeSetting(t, s, sample.value);
        if (!answered(res)) return { ok: false, res, problem: `${what} answered ${brief(res)}` };
        const after = await currentValue(t, s);
        known.value = { v: after };
        if (!sameValue(s, after, sample.value)) return { ok: false, res, problem: `${what} answered ${res.status}, but GET ${SETTINGS} reads back ${show(after)}` };
        return { ok: true };
      },
      restore,
      known,
    );
    if (out.ok) return;
    skipIfForbidden(t, out.res, `write ${key}`);
    const remote = remoteEvidence(out.res);
    if (remote) t.skip(`${out.problem}: the answer names a service the target is missing`);
    if (!sample.documented && refused(out.res))
      t.skip(
        `${out.problem}. The spec leaves the valid values of ${s.name} open and documents none other than its current value ${show(original)}; ` +
          'the target refused this plausible one, which is not a failure',
      );
    if (isValidationError(out.res, [key])) t.fail(`${out.problem}: a value the ${sample.documented ? 'spec documents (or the target advertises) as valid' : "setting's type allows"} was refused as invalid`);
    t.fail(out.problem);
  }, restore);
}

/** The route a setting is written through: POST /settings, or POST /module/<slug> of its module. */
interface Via {
  route: string;
  /** `opts.invalid` names the setting when the value is sent wrong on purpose. */
  write: (value: unknown, opts?: Pick<RequestOptions, 'invalid'>) => Promise<Response>;
  /** Where the failure of the valid request itself is reported. */
  see: string;
  /**
   * The positive control only has to pass the route's validation (accepted and stored, or refused
   * for another reason than its parameters): the module route of a module that is not active,
   * which the reference implementation refuses with 409 inactive, is not activated for it.
   */
  passesValidation?: boolean;
}

const viaSettings = (t: BehaviourContext, s: SettingSpec): Via => ({
  route: SETTINGS,
  write: (v, opts) => writeSetting(t, s, v, opts),
  see: `suite.settings.roundtrip.${idPart(s.name)}`,
});

async function refusedAndNotStored(t: BehaviourContext, s: SettingSpec, values: unknown[], why: string, original: unknown, known: Known, via: Via = viaSettings(t, s)): Promise<void> {
  const key = targetKey(t, s);
  const restore = () => restoreSetting(t, s, original, known);
  await withRestore(async () => {
    const refusals: Response[] = [];
    known.value = undefined;
    for (const v of values) {
      const res = await via.write(v, { invalid: [key] });
      refusals.push(res);
      if (via.passesValidation && refused(res) && !isValidationError(res, [key])) {
        t.counterexample({ [key]: v });
        t.fail(`POST ${via.route} {${key}: ${show(v)}} (${why}): answered ${brief(res)}, not a refusal of the value: it passed the route's validation`);
      }
      if (refused(res)) continue;
      t.counterexample({ [key]: v });
      if (answered(res)) t.fail(`POST ${via.route} {${key}: ${show(v)}} (${why}): accepted (${res.status}), expected it to be refused`);
      t.fail(`POST ${via.route} {${key}: ${show(v)}} (${why}): answered ${brief(res)}, expected a 4xx refusal (a 5xx is a server failure, not a refusal)`);
    }
    const after = await currentValue(t, s);
    known.value = { v: after };
    if (!sameValue(s, after, original)) t.fail(`the refused values changed ${key}: it was ${show(original)}, GET ${SETTINGS} now reads ${show(after)}`);
    // Positive control: the nearest valid request, accepted and stored. First the current value
    // written back (harmless: it changes nothing); where the target refuses that for another
    // reason than its value (the reference implementation refuses some writes that change
    // nothing), the value the round trip writes, set back afterwards.
    let control: Response | undefined;
    let what = '';
    const attempt = (value: unknown, label: string, join = false) => async (): Promise<Outcome> => {
      what = `POST ${via.route} {${key}: ${show(value)}} (${label})`;
      known.value = undefined;
      // The current value written back through POST /settings is joined with the other checks'
      // controls and restores of this moment (SettingsWrites). Accepted with more keys and read
      // back as written: the control passed. Otherwise the write of its own, as before (the
      // setting still holds the value written, whatever a refused joined POST did).
      const joined = join ? await joinedWrites.write(t, key, value) : undefined;
      if (joined && !joined.alone) {
        const stored = await readSettings(t);
        if (readsAs(t, s, stored, value)) {
          control = joined.res;
          known.value = { v: (stored.body as Record<string, unknown>)[key] };
          return { ok: true };
        }
      }
      control = joined?.alone ? joined.res : await via.write(value);
      if (!answered(control)) return { ok: false, res: control, problem: `${what} answered ${brief(control)}` };
      const stored = await currentValue(t, s);
      known.value = { v: stored };
      return sameValue(s, stored, value) ? { ok: true } : { ok: false, res: control, problem: `${what} was accepted, but GET ${SETTINGS} then reads ${show(stored)}` };
    };
    if (via.passesValidation) {
      const out = await attempt(writable(s, original), 'the current value')();
      expectControl(t, { what, res: control!, refusals, kind: 'passes-validation', see: via.see });
      if (control!.status >= 500) t.fail(`${what} answered ${brief(control!)}: a server failure`);
      if (!out.ok && answered(control!)) t.fail(out.problem);
      return;
    }
    // Where the current value written back is refused for another reason than its value, the
    // round trip's value is tried before the setting's module is looked at: Jetpack answers 400
    // some_updated when a write changes nothing, and a write of enable_odyssey_stats stores the
    // second it was made (update_new_stats_status: odyssey_stats_changed_at = time()), so the same
    // value written back within the second of the round trip's restore changes nothing, one
    // second later it does. The verdict must not depend on the clock.
    const current = attempt(writable(s, original), 'the current value', via.route === SETTINGS);
    const other = samples(t, s, original).find((x) => x.documented);
    const positive = async (): Promise<Outcome> => {
      const first = await current();
      if (first.ok || !refused(first.res) || isValidationError(first.res, [key]) || forbidden(first.res) || !other) return first;
      return attempt(other.value, 'a valid value')();
    };
    const out = await withOwnerActive(t, s, positive, restore, known);
    expectControl(t, { what, res: control!, refusals, kind: 'accepted', see: via.see });
    if (!out.ok) t.fail(out.problem);
  }, restore);
}
