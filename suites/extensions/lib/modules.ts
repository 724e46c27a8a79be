/**
 * Behaviours of the suite/v4 module toggles (extensions part 2 › Suite module settings: "Module
 * toggles (boolean, default false, one per module slug)"; part 4 › Suite: `/module/all/active`
 * requires `modules` (array) and defaults `active` to true; `/module/<slug>/active` takes `active`
 * (boolean, required, default true)).
 *
 * Each module is checked on its own: `suite.modules.value.<slug>` owns "GET /settings carries the
 * toggle of <slug> as a boolean" (on the shared read of GET /settings), and the toggle behaviour
 * of that module, and the behaviours that work on it, need only that. A module the target does not
 * have is one failure (plus its toggle skipping), never a failure of every other module's checks.
 *
 * A module is activated only where the target says it can be: GET /module/all (the reference
 * implementation's) reports `requires_connection`; a module that needs the suite's external
 * service is not activated on a target that reports it is not connected (the check skips with that
 * evidence). Every module changed is set back afterwards, also when a check fails.
 *
 * Declared from suite.settings.spec.ts: toggles are settings too (GET/POST /settings), and one
 * behaviour needs a module and a setting at once, so they share that file and its locks. The
 * behaviours that pick a module to work on run one at a time, before everything else; the
 * per-module toggles run concurrently, each holding its module's lock.
 */
import { catalog, endpointById } from '../../../schemas/catalog/index.ts';
import { asBoolean } from '../../../schemas/values.ts';
import type { BehaviourContext, Prerequisite } from '../../../src/sdk/behaviour.ts';
import type { Response } from '../../../src/sdk/http.ts';
import { answered, brief, idPart, remoteEvidence, skipIfForbidden } from './support.ts';
import { exclusive, withRestore } from './restore.ts';
import { cannotActivate, moduleHints } from './suite-service.ts';
import { SETTINGS, start } from './settings-route.ts';
import { MODULES_LOCK, activeRoute, moduleActive } from './setting-owner.ts';
import { SETTINGS_OBJECT, snapshotValue } from './settings-read.ts';


export const allActive = endpointById('suite.module.all.active.update');
export const oneActive = endpointById('suite.module.active.update');
export const SECTION = allActive.endpoint.spec;
export const ALL_ACTIVE = '/suite/v4/module/all/active';

/** Modules that the reference implementation activates without its external service, tried first. */
export const PREFERRED = ['carousel', 'markdown', 'latex', 'shortcodes', 'widget-visibility', 'copy-post', 'tiled-gallery'].filter((s) =>
  catalog.modules.some((m) => m.slug === s),
);

export const TOGGLES = new Map(
  catalog.modules.map((m) => [
    m.slug,
    snapshotValue(`suite.modules.value.${idPart(m.slug)}`, (run) => run.profile.toTargetModule(m.slug), (v) => (asBoolean(v) === undefined ? 'not a boolean' : undefined)),
  ]),
);
/** "GET /settings carries the toggle of <slug> as a boolean", owned by suite.modules.value.<slug>. */
export const moduleToggle = (slug: string): Prerequisite<unknown> => TOGGLES.get(slug)!;

/** The module's state, read fresh; a toggle that disappeared since the shared read is a failure of this check. */
export async function moduleState(t: BehaviourContext, slug: string): Promise<boolean> {
  const v = await moduleActive(t, slug);
  if (v === undefined) t.fail(`GET ${SETTINGS} no longer answers module toggle ${t.run.profile.toTargetModule(slug)} as a boolean`);
  return v;
}

export const setModule = (t: BehaviourContext, slug: string, active: boolean) => t.client.post(activeRoute(t, slug), { active });

/** Set `slug` back to `was` if it is no longer in that state. */
export async function restoreModule(t: BehaviourContext, slug: string, was: boolean): Promise<string | undefined> {
  if ((await moduleActive(t, slug)) === was) return undefined;
  const res = await setModule(t, slug, was);
  return answered(res) ? undefined : `setting ${slug} back to ${was ? 'active' : 'inactive'} answered ${brief(res)}`;
}

/**
 * A refused activation: skip when the target shows it cannot activate the module here (GET
 * /module/all says it requires a connection the target reports missing, or the answer names the
 * missing service); otherwise the caller decides.
 */
export async function skipIfActivationImpossible(t: BehaviourContext, slug: string, res: Response, what: string): Promise<void> {
  if (answered(res)) return;
  skipIfForbidden(t, res, what);
  const remote = remoteEvidence(res);
  if (remote) t.skip(`${what} answered ${remote}: the answer names a service the target is missing`);
  const why = await cannotActivate(slug);
  if (why) t.skip(`${what} answered ${brief(res)}; ${why}`);
}

/**
 * A module to work on: a documented one whose toggle GET /settings carries, preferring modules
 * that the target says can be activated here. Skips (naming the module's own check) when even the
 * first choice has no toggle.
 */
export async function pickModule(t: BehaviourContext, state?: boolean): Promise<string> {
  const h = await moduleHints();
  const snapshot = await t.need(SETTINGS_OBJECT);
  const has = (slug: string) => asBoolean(snapshot[t.run.profile.toTargetModule(slug)]) !== undefined;
  const candidates = [...PREFERRED, ...catalog.modules.map((m) => m.slug).filter((s) => !PREFERRED.includes(s))].filter(has);
  const activatable = async (slug: string) => h.modules.get(slug)?.requiresConnection !== true || (await cannotActivate(slug)) === undefined;
  const ordered: string[] = [];
  for (const slug of candidates) if (await activatable(slug)) ordered.push(slug);
  const inState = state === undefined ? undefined : ordered.find((s) => asBoolean(snapshot[t.run.profile.toTargetModule(s)]) === state);
  const slug = inState ?? ordered[0] ?? PREFERRED[0]!;
  await t.need(moduleToggle(slug));
  return slug;
}

/** A write check run on a module that is in `state` (set up if needed), set back afterwards. */
export async function withModuleIn(t: BehaviourContext, state: boolean, fn: (slug: string) => Promise<void>): Promise<void> {
  start(t);
  await t.need(SETTINGS_OBJECT);
  const slug = await pickModule(t, state);
  await exclusive([MODULES_LOCK], async () => {
    const before = await moduleState(t, slug);
    await withRestore(
      async () => {
        if (before !== state) {
          const what = `setting up: POST ${activeRoute(t, slug)} {active: ${state}}`;
          const res = await setModule(t, slug, state);
          if (state) await skipIfActivationImpossible(t, slug, res, what);
          if (!answered(res) || (await moduleState(t, slug)) !== state)
            t.dependsOn(`suite.modules.toggle.${slug}`, `${what} answered ${brief(res)}: could not ${state ? 'activate' : 'deactivate'} ${slug}`);
        }
        await fn(slug);
      },
      () => restoreModule(t, slug, before),
    );
  });
}
