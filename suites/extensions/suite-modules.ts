/**
 * Behaviours of the suite/v4 module toggles (extensions part 2 › Suite module settings: "Module toggles (boolean,
 * default false, one per module slug)"; part 4 › Suite: `/module/all/active` requires `modules`
 * (array) and defaults `active` to true; `/module/<slug>/active` takes `active` (boolean,
 * required, default true)). Module state is read on GET /settings, where each toggle is a
 * setting; every module changed is set back afterwards, also when a check fails.
 *
 * Declared from suite.settings.spec.ts: toggles are settings too (GET/POST /settings), and one
 * behaviour needs a module and a setting at once, so they share that file and its locks. The
 * behaviours that pick a module to work on run one at a time, before everything else; the
 * per-module toggles run concurrently, each holding its module's lock.
 */
import { catalog, endpointById } from '../../schemas/catalog/index.ts';
import { behaviour, type BehaviourContext } from '../../src/behaviour.ts';
import type { Response } from '../../src/client.ts';
import { SETTINGS, currentValue, readSettings, settingLock, writeSetting } from './suite-settings.ts';
import {
  SUITE,
  answered,
  asBoolean,
  brief,
  exclusive,
  expectAnswered,
  expectRefused,
  idPart,
  isValidationError,
  refused,
  sameValue,
  show,
  skipIfForbidden,
  suiteConnection,
  withRestore,
} from './support.ts';

const allActive = endpointById('suite.module.all.active.update');
const oneActive = endpointById('suite.module.active.update');
const SECTION = allActive.endpoint.spec;
const ALL_ACTIVE = '/suite/v4/module/all/active';
const activeRoute = (t: BehaviourContext, slug: string) => `/suite/v4/module/${t.run.profile.toTargetModule(slug)}/active`;

/** Modules that the reference implementation activates without a connection to its external service, tried first. */
const PREFERRED = ['carousel', 'markdown', 'latex', 'shortcodes', 'widget-visibility', 'copy-post', 'tiled-gallery'].filter((s) =>
  catalog.modules.some((m) => m.slug === s),
);

async function moduleStates(t: BehaviourContext): Promise<Map<string, boolean>> {
  const all = await readSettings(t);
  const out = new Map<string, boolean>();
  for (const m of catalog.modules) {
    const key = t.run.profile.toTargetModule(m.slug);
    const v = asBoolean(all[key]);
    if (v === undefined) t.fail(`GET ${SETTINGS} answers module toggle ${key} = ${show(all[key])}, not a boolean`);
    out.set(m.slug, v);
  }
  return out;
}

async function moduleState(t: BehaviourContext, slug: string): Promise<boolean> {
  return (await moduleStates(t)).get(slug)!;
}

const setModule = (t: BehaviourContext, slug: string, active: boolean) => t.client.post(activeRoute(t, slug), { active });

/** Set back every module whose state differs from `before`. */
async function restoreModules(t: BehaviourContext, before: Map<string, boolean>): Promise<string | undefined> {
  const now = await moduleStates(t);
  const problems: string[] = [];
  for (const [slug, was] of before) {
    if (now.get(slug) === was) continue;
    const res = await setModule(t, slug, was);
    if (!answered(res)) problems.push(`setting ${slug} back to ${was} answered ${brief(res)}`);
  }
  return problems.length ? problems.join('; ') : undefined;
}

/**
 * A refused activation that is not a parameter error, on a target not connected to the suite's
 * external service: modules may need that service to activate (reference implementation), so skip.
 */
async function skipIfActivationNeedsService(t: BehaviourContext, res: Response, what: string): Promise<void> {
  skipIfForbidden(t, res, what);
  if (!refused(res) || isValidationError(res)) return;
  const c = await suiteConnection();
  if (!c.connected)
    t.skip(`${what} answered ${brief(res)}; the target is not connected to the suite's external service (${c.detail}), which activating modules may need`);
}

/** Run `fn` on a module that is in `state` (set up if needed), and set every module back afterwards. */
async function withModuleIn(t: BehaviourContext, state: boolean, fn: (slug: string) => Promise<void>): Promise<void> {
  const before = await moduleStates(t);
  const ready = PREFERRED.find((s) => before.get(s) === state);
  const slug = ready ?? PREFERRED[0]!;
  await withRestore(
    async () => {
      if (!ready) {
        const res = await setModule(t, slug, state);
        await skipIfActivationNeedsService(t, res, `setting up: POST ${activeRoute(t, slug)} {active: ${state}}`);
        if (!answered(res) || (await moduleState(t, slug)) !== state)
          t.skip(`setting up: could not ${state ? 'activate' : 'deactivate'} ${slug} (${brief(res)}); see suite.modules.toggle.${slug}`);
      }
      await fn(slug);
    },
    () => restoreModules(t, before),
  );
}

const decl = (id: string, title: string, route: string, covers: string[]) => ({ id, level: 'MUST' as const, namespace: SUITE, route, title, spec: SECTION, covers });
const start = (t: BehaviourContext) => {
  t.requireNamespace(SUITE);
  t.requireCredentials();
  t.requireWrites();
};

export const moduleLock = (slug: string) => `module:${slug}`;

// --- one at a time --------------------------------------------------------------------------

/** The behaviours that choose a module to work on and compare every module's state: declare them first, not concurrent. */
export function declareModuleSetupBehaviours(): void {
  for (const [key, body, why] of [
    ['requires-modules', { active: true }, 'without modules'],
    ['modules-type', { modules: { cmsc: 'carousel' }, active: true }, 'with modules that is not an array'],
  ] as const) {
    behaviour(
      decl(`suite.modules.all-active.${key}`, `POST /module/all/active ${why} is refused and changes no module`, allActive.route.path, [`arg:${allActive.endpoint.id}.modules`]),
      async (t) => {
        start(t);
        const before = await moduleStates(t);
        await withRestore(
          async () => {
            const res = await t.client.post(ALL_ACTIVE, body);
            expectRefused(t, res, `POST ${ALL_ACTIVE} ${show(body)}`);
            const after = await moduleStates(t);
            const changed = [...before].filter(([s, v]) => after.get(s) !== v).map(([s]) => s);
            if (changed.length) t.fail(`POST ${ALL_ACTIVE} ${show(body)} was refused (${res.status}) but changed ${changed.join(', ')}`);
          },
          () => restoreModules(t, before),
        );
      },
    );
  }

  behaviour(
    decl('suite.modules.all-active.default-active', 'POST /module/all/active with modules and no active activates them (active defaults to true)', allActive.route.path, [
      `arg:${allActive.endpoint.id}.active`,
    ]),
    async (t) => {
      start(t);
      await withModuleIn(t, false, async (slug) => {
        const body = { modules: [t.run.profile.toTargetModule(slug)] };
        const res = await t.client.post(ALL_ACTIVE, body);
        await skipIfActivationNeedsService(t, res, `POST ${ALL_ACTIVE} ${show(body)}`);
        expectAnswered(t, res, `POST ${ALL_ACTIVE} ${show(body)}`);
        if (!(await moduleState(t, slug))) t.fail(`POST ${ALL_ACTIVE} ${show(body)} answered ${res.status} but ${slug} is still inactive`);
      });
    },
  );

  behaviour(
    decl('suite.modules.all-active.deactivate', 'POST /module/all/active with modules and active false deactivates them', allActive.route.path, [
      `arg:${allActive.endpoint.id}.active`,
      `arg:${allActive.endpoint.id}.modules`,
    ]),
    async (t) => {
      start(t);
      await withModuleIn(t, true, async (slug) => {
        const body = { modules: [t.run.profile.toTargetModule(slug)], active: false };
        const res = await t.client.post(ALL_ACTIVE, body);
        expectAnswered(t, res, `POST ${ALL_ACTIVE} ${show(body)}`);
        if (await moduleState(t, slug)) t.fail(`POST ${ALL_ACTIVE} ${show(body)} answered ${res.status} but ${slug} is still active`);
      });
    },
  );

  behaviour(
    decl(
      'suite.modules.active.default',
      'POST /module/<slug>/active without active either is refused (required) or activates the module (default true), nothing else',
      oneActive.route.path,
      [`arg:${oneActive.endpoint.id}.active`],
    ),
    async (t) => {
      start(t);
      await withModuleIn(t, false, async (slug) => {
        const route = activeRoute(t, slug);
        const res = await t.client.post(route);
        await skipIfActivationNeedsService(t, res, `POST ${route} (no body)`);
        const now = await moduleState(t, slug);
        if (refused(res)) {
          if (now) t.fail(`POST ${route} without active was refused (${brief(res)}) but activated ${slug}`);
          return;
        }
        if (!answered(res)) t.fail(`POST ${route} without active answered ${brief(res)}: neither a refusal nor an activation`);
        if (!now) t.fail(`POST ${route} without active answered ${res.status} but ${slug} is still inactive (active defaults to true)`);
      });
    },
  );

  behaviour(
    decl('suite.modules.active.type', 'POST /module/<slug>/active with an active that is not a boolean is refused and changes nothing', oneActive.route.path, [
      `arg:${oneActive.endpoint.id}.active`,
    ]),
    async (t) => {
      start(t);
      await withModuleIn(t, false, async (slug) => {
        const route = activeRoute(t, slug);
        for (const active of ['yes', 2]) {
          const res = await t.client.post(route, { active });
          expectRefused(t, res, `POST ${route} {active: ${show(active)}}`);
        }
        if (await moduleState(t, slug)) t.fail(`the refused values activated ${slug}`);
      });
    },
  );
}

// --- each module toggle, concurrently ---------------------------------------------------------

/** One behaviour per module toggle, concurrent, each holding its module's lock. */
export function declareModuleToggles(): void {
  for (const m of catalog.modules) {
    behaviour(
      decl(
        `suite.modules.toggle.${idPart(m.slug)}`,
        `module ${m.slug} toggles through POST /module/${m.slug}/active and back through POST /settings, read on GET /settings`,
        oneActive.route.path,
        [m.id, `endpoint:${oneActive.endpoint.id}`, 'endpoint:suite.settings.update'],
      ),
      (t) => exclusive([moduleLock(m.slug)], async () => {
        start(t);
        const key = t.run.profile.toTargetModule(m.slug);
        const route = activeRoute(t, m.slug);
        const original = await moduleState(t, m.slug);
        await withRestore(
          async () => {
            const res = await setModule(t, m.slug, !original);
            if (!original) await skipIfActivationNeedsService(t, res, `POST ${route} {active: true}`);
            expectAnswered(t, res, `POST ${route} {active: ${!original}}`);
            if ((await moduleState(t, m.slug)) !== !original)
              t.fail(`POST ${route} {active: ${!original}} answered ${res.status}; GET ${SETTINGS} still has ${key} = ${original}`);
            const back = await t.client.post(SETTINGS, { [key]: original });
            expectAnswered(t, back, `POST ${SETTINGS} {${key}: ${original}}`);
            if ((await moduleState(t, m.slug)) !== original)
              t.fail(`POST ${SETTINGS} {${key}: ${original}} answered ${back.status}; GET ${SETTINGS} still has ${key} = ${!original}`);
          },
          async () => {
            if ((await moduleState(t, m.slug)) === original) return undefined;
            const res = await setModule(t, m.slug, original);
            return answered(res) ? undefined : `setting ${m.slug} back to ${original} answered ${brief(res)}`;
          },
        );
      }),
      { concurrent: true },
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
    (t) =>
      exclusive([settingLock(viaModule.name), moduleLock(viaModuleSlug)], async () => {
        start(t);
        const key = t.run.profile.toTargetSetting(viaModule.name);
        const route = `/suite/v4/module/${t.run.profile.toTargetModule(viaModuleSlug)}`;
        const wasActive = await moduleState(t, viaModuleSlug);
        const original = await currentValue(t, viaModule);
        const value = !(asBoolean(original) ?? false);
        await withRestore(
          async () => {
            if (!wasActive) {
              const res = await setModule(t, viaModuleSlug, true);
              await skipIfActivationNeedsService(t, res, `setting up: POST ${activeRoute(t, viaModuleSlug)} {active: true}`);
              if (!answered(res) || !(await moduleState(t, viaModuleSlug)))
                t.skip(`setting up: could not activate ${viaModuleSlug} (${brief(res)}); see suite.modules.toggle.${viaModuleSlug}`);
            }
            const res = await t.client.post(route, { [key]: value });
            expectAnswered(t, res, `POST ${route} {${key}: ${value}}`);
            const after = await currentValue(t, viaModule);
            if (!sameValue('boolean', after, value)) t.fail(`wrote ${key} = ${value} through ${route} (answered ${res.status}); GET ${SETTINGS} reads back ${show(after)}`);
          },
          async () => {
            const problems: string[] = [];
            if (!sameValue('boolean', await currentValue(t, viaModule), original)) {
              const res = await writeSetting(t, viaModule, original);
              if (!answered(res)) problems.push(`POST ${SETTINGS} {${key}: ${show(original)}} answered ${brief(res)}`);
            }
            if ((await moduleState(t, viaModuleSlug)) !== wasActive) {
              const res = await setModule(t, viaModuleSlug, wasActive);
              if (!answered(res)) problems.push(`setting ${viaModuleSlug} back to ${wasActive} answered ${brief(res)}`);
            }
            return problems.length ? problems.join('; ') : undefined;
          },
        );
      }),
    { concurrent: true },
  );
}
