/**
 * The model-based behaviours of a post type: `cms.<type>.model` (MUST: what part 3 and part 4
 * state) and `cms.<type>.model.should` (SHOULD: what WordPress does where the spec is silent).
 *
 * `--runs` random sequences of commands (./model-commands.ts), drawn from `--seed` (the MUST
 * behaviour's ID salts it), run against the target and checked after every command against the
 * model (./model.ts). A failing sequence is shrunk to the shortest that still fails (fast-check
 * `fc.commands`) and reported as a numbered list of requests with a curl script.
 *
 * Both levels are checked on the same sequences, run once: the MUST behaviour records the first
 * SHOULD deviation it meets and goes on; the SHOULD behaviour then replays that one sequence
 * (fast-check's run path) and shrinks it under the SHOULD checks. So a run costs `--runs`
 * sequences per type, plus shrinking when something fails. When the MUST behaviour fails, the
 * SHOULD one skips, depending on it.
 *
 * Everything created is tagged (run tag in title and slug), tracked by the file's fixtures (so
 * an interrupted run deletes it too) and deleted for good when the behaviour ends.
 */
import fc from 'fast-check';
import { checkProperty } from '../../../generators/property.ts';
import { behaviour, fixtures, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import { forceDelete } from '../../../src/sdk/fixtures.ts';
import { SPEC_STATES, type PostType } from './collections.ts';
import { expectIncludeHonoured, idsOf } from './items.ts';
import { FINALLY, finish, MAX_ITEMS, SeqModel, sequenceArb, type Sequence } from './model-commands.ts';
import { ALL_STATUSES } from './model.ts';
import { SeqReal, type SessionEnv, type Step } from './model-real.ts';
import { curlScript, numberedRequests } from './model-report.ts';
import { cmsDecl } from './declare.ts';
import { textFields } from '../../../src/sdk/http.ts';

/** Commands per sequence, at most (fewer run when a command does not apply). */
export const MAX_COMMANDS = 10;
/** Sequences tried while shrinking a failure (each is a handful of requests). */
const SHRINK_BUDGET = 80;

interface Deviation {
  /** Index of the run (fast-check path) that met it. */
  run: number;
  message: string;
  steps: Step[];
  ids: Map<number, number>;
  /** Whether the sequences held batches (the preflight found the batch route usable). */
  batch: boolean;
}

type SessionResult = { kind: 'passed'; should?: Deviation } | { kind: 'thrown'; error: Error };

/** One search per post type and worker: started by the MUST behaviour (or by the SHOULD one when it runs alone). */
const sessions = new Map<string, Promise<SessionResult>>();

export const modelIds = (type: PostType) => ({ must: `cms.${type.name}.model`, should: `cms.${type.name}.model.should` });

function sessionEnv(t: BehaviourContext, type: PostType, onShould: (m: string) => void): SessionEnv {
  return { t, type, tag: fixtures().tag, label: type.noun, onShould, created: new Map(), sequences: 0 };
}

/** Delete for good what the session created and did not delete: batches of 25, then one by one. */
async function cleanup(t: BehaviourContext, env: SessionEnv): Promise<void> {
  const left = [...env.created.values()].filter((e) => !e.deleted);
  const client = t.client.fork('fixtures');
  for (let i = 0; i < left.length; i += 25) {
    const chunk = left.slice(i, i + 25);
    const res = await client
      .post('/batch/v1', { requests: chunk.map((e) => ({ method: 'DELETE', path: `${t.run.profile.toTargetRoute(e.route)}?force=true` })) })
      .catch(() => undefined);
    const answers = res?.body?.responses;
    chunk.forEach((e, k) => {
      const a = Array.isArray(answers) ? answers[k] : undefined;
      if (a && ((a.status >= 200 && a.status < 300) || a.status === 404 || a.status === 410)) e.deleted = true;
    });
  }
  for (const e of left.filter((x) => !x.deleted)) {
    await forceDelete(client, e.route).then(
      () => (e.deleted = true),
      () => undefined,
    );
  }
}

/** The sequences of a search as they ran: the last one, and the last that failed (its steps are the report). */
interface Runs {
  last?: SeqReal;
  failed?: SeqReal;
}

/** What the property checks: one sequence, run against the target and the model. */
function sequenceCheck(env: SessionEnv, runs: Runs) {
  return async ([first, cmds]: Sequence) => {
    const model = new SeqModel();
    const real = new SeqReal(env);
    runs.last = real;
    try {
      await fc.asyncModelRun(() => ({ model, real }), [first, ...cmds]);
      await finish(model, real);
    } catch (err) {
      runs.failed = real;
      throw err;
    }
  };
}

/** The report of the shrunk sequence: the replay's steps, or the last failing run's when the replay passed. */
function shrunk(t: BehaviourContext, type: PostType, id: string, runs: Runs, f: { message: string; reproduced: boolean; numRuns?: number; numShrinks: number; seed: number }): never {
  const real = f.reproduced ? runs.last! : (runs.failed ?? runs.last!);
  const n = real.steps.filter((s) => s.requests.length && !s.what.startsWith(FINALLY)).length;
  const tried = f.numRuns !== undefined ? `${plural(f.numRuns, 'sequence')} and ` : '';
  reportFailure(t, type, id, real.steps, real.ids, `${f.message} — shortest failing sequence: ${plural(n, 'command')} (after ${tried}${plural(f.numShrinks, 'shrink')}; --seed ${f.seed})`);
}

function reportFailure(t: BehaviourContext, type: PostType, id: string, steps: Step[], ids: Map<number, number>, head: string): never {
  const list = numberedRequests(steps, (ref) => `#${ref} = ${type.noun} ${ids.get(ref) ?? '?'}`);
  const seed = t.run.info.config.seed;
  const creates = new Set<string>();
  for (const s of steps) for (const r of s.requests) for (const d of r.defines ?? []) if (d.token.startsWith('ZZI')) creates.add(type.paths.item.replace('<id>', d.token));
  const script = curlScript(steps, {
    behaviourId: id,
    seed,
    baseUrl: t.client.baseUrl,
    toTargetRoute: (r) => t.run.profile.toTargetRoute(r),
    collection: type.collection,
    statuses: ALL_STATUSES,
    cleanup: [...creates],
  });
  const commands = steps.filter((s) => s.requests.length && !s.what.startsWith(FINALLY)).map((s) => `${s.n}. ${s.what}`);
  t.counterexample(commands);
  t.fail(`${head}\n\nThe requests (#1, #2 ... are the ${type.noun}s the sequence created):\n${list.join('\n')}\n\nReproduce with curl (sh):\n${script}`, { script });
}

/** A sequence as the property records it before the report (serialisable). */
const commandsOf = ([first, cmds]: Sequence) => [String(first), ...[...cmds].map(String)];

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/**
 * Run `--runs` sequences with the MUST checks; a MUST failure is shrunk and reported through
 * `t` (t.fail), the first SHOULD deviation is returned.
 */
async function searchMust(t: BehaviourContext, type: PostType, quiet: boolean): Promise<Deviation | undefined> {
  const ids = modelIds(type);
  let first: Deviation | undefined;
  let run = -1;
  const runs: Runs = {};
  const env = sessionEnv(t, type, (message) => {
    if (!first && !runs.failed && runs.last) first = { run, message, steps: runs.last.steps, ids: runs.last.ids, batch };
  });
  const tt: BehaviourContext = quiet ? { ...t, counterexample: () => {} } : t;
  const batch = await preflight(t, type);
  try {
    await checkProperty(
      tt,
      sequenceArb(type, MAX_COMMANDS, { batch }),
      async (cmds, ctx) => {
        if (!ctx.replay && !runs.failed) run++;
        await sequenceCheck(env, runs)(cmds);
      },
      { seedSalt: ids.must, shrinkBudget: SHRINK_BUDGET, describe: commandsOf, report: (_, f) => shrunk(tt, type, ids.must, runs, f) },
    );
  } finally {
    await cleanup(t, env);
  }
  return first;
}

/**
 * Before any sequence: an item can be created at all (else the behaviour skips, depending on the
 * behaviour that checks creating one: one deviation, one failure), and the batch route takes a
 * write (else batches are left out of the sequences: the batch behaviours report it).
 */
async function preflight(t: BehaviourContext, type: PostType): Promise<boolean> {
  // Published, and verified when made (src/sdk/fixtures.ts): a create that does not store the status
  // it is sent makes this behaviour skip, depending on cms.<type>.write.statuses (which fails).
  const item = await t.create(type.collection, { title: 'model preflight', status: 'publish' });
  // The sequences find their items through include (in every status): that filter's behaviour owns it.
  const listed = await t.client.get(type.collection, { query: { include: [item.id], status: ['any'], per_page: 100 } });
  if (listed.status === 200 && Array.isArray(listed.body)) expectIncludeHonoured(t, type, [item.id], idsOf(listed.body), `GET ${type.collection}?include=${item.id}&status=any`);
  const res = await t.client.post('/batch/v1', { requests: [{ method: 'POST', path: t.run.profile.toTargetRoute(type.item(item.id)), body: textFields({ excerpt: 'model preflight' }) }] });
  const ok = (s: unknown) => typeof s === 'number' && s >= 200 && s <= 299;
  // The answer shape is not stated: a 2xx, and no per-item error when the answer has WordPress's shape.
  const items = res.body?.responses;
  return ok(res.status) && (!Array.isArray(items) || ok(items[0]?.status));
}

/** Replay the sequence that met a SHOULD deviation, shrink it under the SHOULD checks, report it. */
async function shrinkShould(t: BehaviourContext, type: PostType, dev: Deviation, batch: boolean): Promise<void> {
  const ids = modelIds(type);
  const runs: Runs = {};
  const env = sessionEnv(t, type, (message) => {
    throw Object.assign(new Error(message), { name: 'ConformanceFailure' });
  });
  try {
    await checkProperty(t, sequenceArb(type, MAX_COMMANDS, { batch }), sequenceCheck(env, runs), {
      seedSalt: ids.must,
      path: String(dev.run),
      shrinkBudget: SHRINK_BUDGET,
      describe: commandsOf,
      report: (_, f) => shrunk(t, type, ids.should, runs, { ...f, numRuns: undefined }),
    });
  } finally {
    await cleanup(t, env);
  }
  // The sequence passed when replayed (a target that answers differently from one time to the next): report it as met.
  reportFailure(t, type, ids.should, dev.steps, dev.ids, `${dev.message} (met once; the sequence passed when replayed)`);
}

/** The endpoints a model sequence exercises. */
const modelCovers = (type: PostType) => [
  `endpoint:cms.${type.name}.collection.create`,
  `endpoint:cms.${type.name}.collection.list`,
  `endpoint:cms.${type.name}.item.read`,
  `endpoint:cms.${type.name}.item.update`,
  `endpoint:cms.${type.name}.item.delete`,
  `endpoint:cms.${type.name}.revisions.collection.list`,
  `endpoint:cms.${type.name}.revisions.item.read`,
  `endpoint:cms.${type.name}.revisions.item.delete`,
  `endpoint:cms.${type.name}.autosaves.collection.list`,
  `endpoint:cms.${type.name}.autosaves.collection.create`,
  `endpoint:cms.${type.name}.autosaves.item.read`,
  'endpoint:batch.v1.create',
];

/**
 * The MUST behaviour of a post type. Declared before the SHOULD ones (the MUST behaviours of
 * both types run concurrently; each SHOULD behaviour reads what its MUST one found).
 */
export function defineModelMust(type: PostType): void {
  const ids = modelIds(type);
  behaviour(
    cmsDecl(type, 'model', { level: 'MUST', title: `random sequences of ${type.noun} writes (create, update, trash, force delete, autosave, revision delete, batch) and list filters keep the target consistent with part 3: statuses accepted on write, trash versus force=true, revisions without trash, filters over the current state, batch items applied as single requests`, route: type.paths.item, spec: SPEC_STATES, covers: modelCovers(type) }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      let resolve!: (r: SessionResult) => void;
      const session = new Promise<SessionResult>((r) => (resolve = r));
      sessions.set(type.name, session);
      try {
        const should = await searchMust(t, type, false);
        resolve({ kind: 'passed', should });
      } catch (err) {
        resolve({ kind: 'thrown', error: err as Error });
        throw err;
      }
    },
    { concurrent: true },
  );
}

/** The SHOULD behaviour of a post type: the first deviation the MUST behaviour met, shrunk. */
export function defineModelShould(type: PostType): void {
  const ids = modelIds(type);
  behaviour(
    cmsDecl(type, 'model.should', { level: 'SHOULD', title: `the same sequences behave as WordPress where the spec is silent: unsent fields kept, a second trash answered 410, a revision per update that changes the content, one autosave per parent, batch items applied in order, ${MAX_ITEMS} items at most`, route: type.paths.item, spec: SPEC_STATES, covers: modelCovers(type) }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      let session = sessions.get(type.name);
      if (!session) {
        // The MUST behaviour did not run in this run (--only): search here, without reporting a MUST failure.
        session = searchMust(t, type, true).then(
          (should): SessionResult => ({ kind: 'passed', should }),
          (error: Error): SessionResult => ({ kind: 'thrown', error }),
        );
        sessions.set(type.name, session);
      }
      const result = await session;
      if (result.kind === 'thrown') {
        const e = result.error;
        // No item could be made at all: skip, naming the behaviour that checks creating one (as the MUST behaviour does).
        if (e?.name === 'FixtureError' || (e as { code?: string })?.code === 'VITEST_PENDING') throw e;
        const first = String(e?.message ?? e).split('\n')[0];
        t.skip(`depends on ${ids.must}, which ${e?.name === 'ConformanceFailure' ? 'failed' : 'could not be checked'}: ${first}`);
      }
      if (result.should) await shrinkShould(t, type, result.should, result.should.batch);
    },
  );
}
