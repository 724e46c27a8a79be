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
import { catalog, endpointById } from '../../schemas/catalog/index.ts';
import { behaviour, type BehaviourContext, type Prerequisite } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/http/client.ts';
import {
  SETTINGS,
  SETTINGS_OBJECT,
  activeRoute,
  argItems,
  currentValue,
  moduleActive,
  MODULES_LOCK,
  readSettings,
  moduleLock,
  sameValue,
  settingLock,
  settingValue,
  snapshotValue,
  start,
  writeJoined,
  writeSetting,
} from './suite-settings.ts';
import {
  SUITE,
  answered,
  brief,
  cannotActivate,
  exclusive,
  expectAnswered,
  expectControl,
  expectRefused,
  idPart,
  moduleHints,
  refused,
  remoteEvidence,
  show,
  skipIfForbidden,
  withRestore,
} from './support.ts';
import { asBoolean } from '../../schemas/values.ts';
import { extDecl } from './declare.ts';
import { isObject } from '../../src/sdk/discovery.ts';

const allActive = endpointById('suite.module.all.active.update');
const oneActive = endpointById('suite.module.active.update');
const SECTION = allActive.endpoint.spec;
const ALL_ACTIVE = '/suite/v4/module/all/active';

/** Modules that the reference implementation activates without its external service, tried first. */
const PREFERRED = ['carousel', 'markdown', 'latex', 'shortcodes', 'widget-visibility', 'copy-post', 'tiled-gallery'].filter((s) =>
  catalog.modules.some((m) => m.slug === s),
);

const TOGGLES = new Map(
  catalog.modules.map((m) => [
    m.slug,
    snapshotValue(`suite.modules.value.${idPart(m.slug)}`, (run) => run.profile.toTargetModule(m.slug), (v) => (asBoolean(v) === undefined ? 'not a boolean' : undefined)),
  ]),
);
/** "GET /settings carries the toggle of <slug> as a boolean", owned by suite.modules.value.<slug>. */
export const moduleToggle = (slug: string): Prerequisite<unknown> => TOGGLES.get(slug)!;

/** The module's state, read fresh; a toggle that disappeared since the shared read is a failure of this check. */
async function moduleState(t: BehaviourContext, slug: string): Promise<boolean> {
  const v = await moduleActive(t, slug);
  if (v === undefined) t.fail(`GET ${SETTINGS} no longer answers module toggle ${t.run.profile.toTargetModule(slug)} as a boolean`);
  return v;
}

const setModule = (t: BehaviourContext, slug: string, active: boolean) => t.client.post(activeRoute(t, slug), { active });

/** Set `slug` back to `was` if it is no longer in that state. */
async function restoreModule(t: BehaviourContext, slug: string, was: boolean): Promise<string | undefined> {
  if ((await moduleActive(t, slug)) === was) return undefined;
  const res = await setModule(t, slug, was);
  return answered(res) ? undefined : `setting ${slug} back to ${was ? 'active' : 'inactive'} answered ${brief(res)}`;
}

/**
 * A refused activation: skip when the target shows it cannot activate the module here (GET
 * /module/all says it requires a connection the target reports missing, or the answer names the
 * missing service); otherwise the caller decides.
 */
async function skipIfActivationImpossible(t: BehaviourContext, slug: string, res: Response, what: string): Promise<void> {
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
async function pickModule(t: BehaviourContext, state?: boolean): Promise<string> {
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

/** Run `fn` on a module that is in `state` (set up if needed), and set it back afterwards. */
async function withModuleIn(t: BehaviourContext, state: boolean, fn: (slug: string) => Promise<void>): Promise<void> {
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

// --- one at a time --------------------------------------------------------------------------

/** The behaviours that choose a module to work on: declare them first, not concurrent. */
export function declareModuleSetupBehaviours(): void {
  for (const [key, body, why] of [
    ['requires-modules', { active: true }, 'without modules'],
    ['modules-type', { modules: { cmsc: 'carousel' }, active: true }, 'with modules that is not an array'],
  ] as const) {
    behaviour(
      extDecl(`suite.modules.all-active.${key}`, { namespace: SUITE, route: allActive.route.path, title: `POST /module/all/active ${why} is refused and changes no module`, spec: SECTION, covers: [`arg:${allActive.endpoint.id}.modules`] }),
      async (t) => {
        start(t);
        await t.need(SETTINGS_OBJECT);
        const slug = await pickModule(t);
        const before = await moduleState(t, slug);
        await withRestore(
          async () => {
            const res = await t.client.post(ALL_ACTIVE, body, { invalid: ['modules'] });
            expectRefused(t, res, `POST ${ALL_ACTIVE} ${show(body)}`);
            if ((await moduleState(t, slug)) !== before) t.fail(`POST ${ALL_ACTIVE} ${show(body)} was refused (${res.status}) but changed module ${slug}`);
            // Positive control: the nearest valid request, an empty list of modules (harmless: it
            // names no module, so nothing changes; a list naming a module set to its current
            // state is not harmless on the reference implementation, which ignores active: false
            // and activates it), accepted.
            const valid = { modules: [], active: true };
            const control = await t.client.post(ALL_ACTIVE, valid);
            expectControl(t, { what: `POST ${ALL_ACTIVE} ${show(valid)}`, res: control, refusals: [res] });
            if ((await moduleState(t, slug)) !== before) t.fail(`POST ${ALL_ACTIVE} ${show(valid)} answered ${control.status} but changed module ${slug}`);
          },
          () => restoreModule(t, slug, before),
        );
      },
    );
  }

  behaviour(
    extDecl('suite.modules.all-active.default-active', { namespace: SUITE, route: allActive.route.path, title: 'POST /module/all/active with modules and no active activates them (active defaults to true)', spec: SECTION, covers: [
      `arg:${allActive.endpoint.id}.active`,
    ] }),
    async (t) => {
      start(t);
      await t.need(SETTINGS_OBJECT);
      await withModuleIn(t, false, async (slug) => {
        const body = { modules: [t.run.profile.toTargetModule(slug)] };
        const res = await t.client.post(ALL_ACTIVE, body);
        await skipIfActivationImpossible(t, slug, res, `POST ${ALL_ACTIVE} ${show(body)}`);
        expectAnswered(t, res, `POST ${ALL_ACTIVE} ${show(body)}`);
        if (!(await moduleState(t, slug))) t.fail(`POST ${ALL_ACTIVE} ${show(body)} answered ${res.status} but ${slug} is still inactive`);
      });
    },
  );

  behaviour(
    extDecl('suite.modules.all-active.deactivate', { namespace: SUITE, route: allActive.route.path, title: 'POST /module/all/active with modules and active false deactivates them', spec: SECTION, covers: [
      `arg:${allActive.endpoint.id}.active`,
      `arg:${allActive.endpoint.id}.modules`,
    ] }),
    async (t) => {
      start(t);
      await t.need(SETTINGS_OBJECT);
      await withModuleIn(t, true, async (slug) => {
        const body = { modules: [t.run.profile.toTargetModule(slug)], active: false };
        const res = await t.client.post(ALL_ACTIVE, body);
        expectAnswered(t, res, `POST ${ALL_ACTIVE} ${show(body)}`);
        if (await moduleState(t, slug)) t.fail(`POST ${ALL_ACTIVE} ${show(body)} answered ${res.status} but ${slug} is still active`);
      });
    },
  );

  behaviour(
    extDecl('suite.modules.active.default', { namespace: SUITE, route: oneActive.route.path, title: 'POST /module/<slug>/active without active either is refused (required) or activates the module (default true), nothing else', spec: SECTION, covers: [`arg:${oneActive.endpoint.id}.active`] }),
    async (t) => {
      start(t);
      await t.need(SETTINGS_OBJECT);
      await withModuleIn(t, false, async (slug) => {
        const route = activeRoute(t, slug);
        // active is documented as required with a default: left out on purpose.
        const res = await t.client.post(route, undefined, { invalid: ['active'] });
        await skipIfActivationImpossible(t, slug, res, `POST ${route} (no body)`);
        const now = await moduleState(t, slug);
        if (answered(res)) {
          if (!now) t.fail(`POST ${route} without active answered ${res.status} but ${slug} is still inactive (active defaults to true)`);
          return;
        }
        expectRefused(t, res, `POST ${route} without active`);
        if (now) t.fail(`POST ${route} without active was refused (${brief(res)}) but activated ${slug}`);
        // A refusal (active required) is one of the two documented outcomes only when the route
        // takes the valid request: active true, accepted and activating the module.
        const control = await setModule(t, slug, true);
        expectControl(t, { what: `POST ${route} {active: true}`, res: control, refusals: [res] });
        if (!(await moduleState(t, slug))) t.fail(`POST ${route} {active: true} answered ${control.status} but ${slug} is still inactive`);
      });
    },
  );

  behaviour(
    extDecl('suite.modules.active.type', { namespace: SUITE, route: oneActive.route.path, title: 'POST /module/<slug>/active with an active that is not a boolean is refused and changes nothing', spec: SECTION, covers: [
      `arg:${oneActive.endpoint.id}.active`,
    ] }),
    async (t) => {
      start(t);
      await t.need(SETTINGS_OBJECT);
      await withModuleIn(t, false, async (slug) => {
        const route = activeRoute(t, slug);
        const refusals: Response[] = [];
        for (const active of ['yes', 2]) {
          const res = await t.client.post(route, { active }, { invalid: ['active'] });
          refusals.push(res);
          expectRefused(t, res, `POST ${route} {active: ${show(active)}}`);
        }
        if (await moduleState(t, slug)) t.fail(`the refused values activated ${slug}`);
        // Positive control: the nearest valid request, active true, accepted and activating the
        // module (set back afterwards).
        const control = await setModule(t, slug, true);
        expectControl(t, { what: `POST ${route} {active: true}`, res: control, refusals });
        if (!(await moduleState(t, slug))) t.fail(`POST ${route} {active: true} answered ${control.status} but ${slug} is still inactive`);
      });
    },
  );
}

// --- each module, concurrently ------------------------------------------------------------------

/** Per module: its toggle on GET /settings (on the shared read, no requests of its own), concurrent. */
export function declareModuleValues(): void {
  for (const m of catalog.modules) {
    behaviour(
      extDecl(`suite.modules.value.${idPart(m.slug)}`, { namespace: SUITE, route: SETTINGS, title: `GET /settings carries the module toggle ${m.slug} as a boolean`, spec: SECTION, covers: [
        m.id,
        'endpoint:suite.settings.read',
        `field:resource.suite.settings.${m.slug}`,
      ] }),
      async (t) => {
        t.requireNamespace(SUITE);
        t.requireCredentials();
        await t.need(SETTINGS_OBJECT);
        await t.need(moduleToggle(m.slug));
      },
      { concurrent: true },
    );
  }
}

/**
 * The module toggles as GET /settings last read them during the toggles (which run one at a time,
 * holding the modules' lock, after every other behaviour of this file), with no write since: the
 * next toggle starts from it instead of reading the same state again. Undefined once a write may
 * have changed it.
 */
let lastToggleRead: Record<string, unknown> | undefined;

/** A module's state read fresh (moduleState), remembered as the last read of the toggles. */
async function toggleState(t: BehaviourContext, slug: string): Promise<boolean> {
  const res = await readSettings(t);
  lastToggleRead = answered(res) && isObject(res.body) ? res.body : undefined;
  const v = asBoolean(lastToggleRead?.[t.run.profile.toTargetModule(slug)]);
  if (v === undefined) t.fail(`GET ${SETTINGS} no longer answers module toggle ${t.run.profile.toTargetModule(slug)} as a boolean`);
  return v;
}

/** A write of the toggles: what was last read no longer holds. */
function toggleWrite<T>(p: Promise<T>): Promise<T> {
  lastToggleRead = undefined;
  return p.finally(() => (lastToggleRead = undefined));
}

/**
 * Per module: its toggling, one module at a time. The reference implementation keeps the states
 * of all modules in one stored list, so two modules toggled at the same time may lose one of the
 * changes: declared after the concurrent behaviours of the file (which then have finished), not
 * concurrent, and holding the modules' lock.
 */
export function declareModuleToggles(): void {
  for (const m of catalog.modules) {
    behaviour(
      extDecl(`suite.modules.toggle.${idPart(m.slug)}`, { namespace: SUITE, route: oneActive.route.path, title: `module ${m.slug} toggles through POST /module/${m.slug}/active and back through POST /settings, read on GET /settings`, spec: SECTION, covers: [m.id, `endpoint:${oneActive.endpoint.id}`, `param:${oneActive.route.id}.slug`, 'endpoint:suite.settings.update'] }),
      async (t) => {
        start(t);
        await t.need(SETTINGS_OBJECT);
        await t.need(moduleToggle(m.slug));
        await exclusive([moduleLock(m.slug)], () => exclusive([MODULES_LOCK], async () => {
          const key = t.run.profile.toTargetModule(m.slug);
          const route = activeRoute(t, m.slug);
          // The previous toggle's last read, when nothing was written since (it is the state now).
          const known = asBoolean(lastToggleRead?.[key]);
          const original = known ?? (await toggleState(t, m.slug));
          /** Set once the module is read back in its original state (nothing to restore). */
          let settled = true;
          await withRestore(
            async () => {
              settled = false;
              const res = await toggleWrite(setModule(t, m.slug, !original));
              if (!original) await skipIfActivationImpossible(t, m.slug, res, `POST ${route} {active: true}`);
              expectAnswered(t, res, `POST ${route} {active: ${!original}}`);
              if ((await toggleState(t, m.slug)) !== !original)
                t.fail(`POST ${route} {active: ${!original}} answered ${res.status}; GET ${SETTINGS} still has ${key} = ${original}`);
              const back = await toggleWrite(t.client.post(SETTINGS, { [key]: original }));
              expectAnswered(t, back, `POST ${SETTINGS} {${key}: ${original}}`);
              if ((await toggleState(t, m.slug)) !== original)
                t.fail(`POST ${SETTINGS} {${key}: ${original}} answered ${back.status}; GET ${SETTINGS} still has ${key} = ${!original}`);
              settled = true;
            },
            async () => {
              if (settled) return undefined;
              // Read again, then set back where needed: either way the next toggle reads afresh.
              const problem = await restoreModule(t, m.slug, original);
              lastToggleRead = undefined;
              return problem;
            },
          );
        }));
      },
    );
  }
}

// --- a setting written through /module/<slug> -------------------------------------------------

const viaModule = catalog.settings.find((s) => s.type === 'boolean' && catalog.modules.some((m) => s.name.startsWith(`${m.slug.replace(/-/g, '_')}_`)))!;
const viaModuleSlug = catalog.modules.find((m) => viaModule.name.startsWith(`${m.slug.replace(/-/g, '_')}_`))!.slug;
const MODULE_WRITE = endpointById('suite.module.item.update');

/**
 * "The same set of settings is read and written through the module, settings and per-module
 * routes": a setting written through POST /module/<slug> reads back on GET /settings. The module
 * is activated first where it is not (the reference implementation refuses writes to an inactive
 * module's route, 409), and set back afterwards. Concurrent; holds the setting's and the module's locks.
 */
export function declareViaModule(): void {
  behaviour(
    {
      id: 'suite.settings.via-module',
      level: 'MUST',
      namespace: SUITE,
      route: MODULE_WRITE.route.path,
      title: `a setting written through POST /module/<slug> (${viaModule.name} through ${viaModuleSlug}, active) reads back on GET /settings`,
      spec: viaModule.spec,
      covers: [viaModule.id, `endpoint:${MODULE_WRITE.endpoint.id}`],
    },
    async (t) => {
      start(t);
      await t.need(SETTINGS_OBJECT);
      await t.need(settingValue(viaModule));
      await t.need(moduleToggle(viaModuleSlug));
      // Locks are always taken in one order, a module's (or a setting's) before the modules' lock.
      await exclusive([await settingLock(viaModule), moduleLock(viaModuleSlug)], () => exclusive([MODULES_LOCK], async () => {
        const key = t.run.profile.toTargetSetting(viaModule.name);
        const route = `/suite/v4/module/${t.run.profile.toTargetModule(viaModuleSlug)}`;
        const wasActive = await moduleState(t, viaModuleSlug);
        const original = await currentValue(t, viaModule);
        const value = !(asBoolean(original) ?? false);
        await withRestore(
          async () => {
            if (!wasActive) {
              const what = `setting up: POST ${activeRoute(t, viaModuleSlug)} {active: true}`;
              const res = await setModule(t, viaModuleSlug, true);
              await skipIfActivationImpossible(t, viaModuleSlug, res, what);
              if (!answered(res) || !(await moduleState(t, viaModuleSlug)))
                t.dependsOn(`suite.modules.toggle.${viaModuleSlug}`, `${what} answered ${brief(res)}: could not activate ${viaModuleSlug}`);
            }
            const res = await t.client.post(route, { [key]: value });
            expectAnswered(t, res, `POST ${route} {${key}: ${value}}`);
            const after = await currentValue(t, viaModule);
            if (!sameValue(viaModule, after, value)) t.fail(`wrote ${key} = ${value} through ${route} (answered ${res.status}); GET ${SETTINGS} reads back ${show(after)}`);
          },
          async () => {
            const problems: string[] = [];
            if (!sameValue(viaModule, await currentValue(t, viaModule), original)) {
              const res = await writeSetting(t, viaModule, original);
              if (!answered(res)) problems.push(`POST ${SETTINGS} {${key}: ${show(original)}} answered ${brief(res)}`);
            }
            const p = await restoreModule(t, viaModuleSlug, wasActive);
            if (p) problems.push(p);
            return problems.length ? problems.join('; ') : undefined;
          },
        );
      }));
    },
    { concurrent: true },
  );
}

const SETTINGS_WRITE = endpointById('suite.settings.update');
const toggleItems = (endpointId: string, slug: string): string[] => {
  const args = endpointById(endpointId).endpoint.args;
  const arg = args === 'not-shown' ? undefined : args[slug];
  return arg ? argItems(endpointId, slug, arg) : [];
};

/**
 * Per module: its toggle is a boolean arg of POST /settings and of POST /module/<slug> (part 2:
 * "Module toggles (boolean, ...)"; part 4: both routes take "any suite setting of part 2, all
 * optional"). A value that is not a boolean is refused by both and changes nothing; the toggle's
 * current value alone (every other arg omitted) is accepted by POST /settings and stored (it
 * changes nothing), and passes the validation of POST /module/<slug> (the reference
 * implementation refuses writes to an inactive module's route for another reason, 409).
 * Concurrent, holding the module's lock; nothing is activated.
 */
export function declareToggleTypes(): void {
  for (const m of catalog.modules) {
    behaviour(
      extDecl(`suite.modules.toggle-type.${idPart(m.slug)}`, {
        namespace: SUITE,
        route: SETTINGS,
        title: `module toggle ${m.slug}: a value that is not a boolean is refused by POST /settings and POST /module/${m.slug}, its current value alone is accepted`,
        spec: SECTION,
        covers: [...toggleItems(SETTINGS_WRITE.endpoint.id, m.slug), ...toggleItems(MODULE_WRITE.endpoint.id, m.slug), `field:resource.suite.settings.${m.slug}`],
      }),
      async (t) => {
        start(t);
        await t.need(SETTINGS_OBJECT);
        await t.need(moduleToggle(m.slug));
        await exclusive([moduleLock(m.slug)], async () => {
          const key = t.run.profile.toTargetModule(m.slug);
          const moduleRoute = `/suite/v4/module/${key}`;
          const original = await moduleState(t, m.slug);
          /** Set once the module is read back in its original state after the last write (nothing to restore). */
          let settled = true;
          await withRestore(
            async () => {
              settled = false;
              const refusals: Response[] = [];
              for (const route of [SETTINGS, moduleRoute]) {
                const res = await t.client.post(route, { [key]: 'yes' }, { invalid: [key] });
                refusals.push(res);
                if (!refused(res)) t.counterexample({ [key]: 'yes' });
                expectRefused(t, res, `POST ${route} {${key}: "yes"} (not a boolean)`);
              }
              if ((await moduleState(t, m.slug)) !== original) t.fail(`the refused values changed module ${m.slug}: it was ${original ? 'active' : 'inactive'}`);
              const what = `POST ${SETTINGS} {${key}: ${original}} (its current value)`;
              // Joined with the other checks' controls and restores of this moment (writeJoined):
              // accepted with more keys and the module read back unchanged, the control passed;
              // otherwise the write of its own, as before.
              const joined = await writeJoined(t, key, original);
              const passed = !!joined && !joined.alone && (await moduleActive(t, m.slug)) === original;
              const control = passed || joined?.alone ? joined!.res : await t.client.post(SETTINGS, { [key]: original });
              expectControl(t, { what, res: control, refusals: [refusals[0]!], see: `suite.modules.toggle.${idPart(m.slug)}` });
              if (!passed && (await moduleState(t, m.slug)) !== original) t.fail(`${what} answered ${control.status} but changed module ${m.slug}`);
              const viaModule = await t.client.post(moduleRoute, { [key]: original });
              expectControl(t, { what: `POST ${moduleRoute} {${key}: ${original}}`, res: viaModule, refusals: [refusals[1]!], kind: 'passes-validation' });
              if ((await moduleState(t, m.slug)) !== original) t.fail(`POST ${moduleRoute} {${key}: ${original}} answered ${viaModule.status} but changed module ${m.slug}`);
              settled = true;
            },
            async () => (settled ? undefined : restoreModule(t, m.slug, original)),
          );
        });
      },
      { concurrent: true },
    );
  }
}
