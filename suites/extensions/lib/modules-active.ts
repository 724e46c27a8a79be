/**
 * suite.modules.all-active.* and suite.modules.active.*: POST /module/all/active requires
 * `modules` (array) and defaults `active` to true; POST /module/<slug>/active takes `active`
 * (boolean, required, default true). Each works on a module it picks and sets back; declared first
 * in suite.settings.spec.ts and not concurrent (they change which modules are active).
 */
import { behaviour } from '../../../src/sdk/behaviour.ts';
import type { Response } from '../../../src/sdk/http.ts';
import { SUITE, answered, brief, expectAnswered, expectControl, expectRefused, show } from './support.ts';
import { exclusive, withRestore } from './restore.ts';
import { extDecl } from './declare.ts';
import { start } from './settings-route.ts';
import { MODULES_LOCK, activeRoute } from './setting-owner.ts';
import { SETTINGS_OBJECT } from './settings-read.ts';
import { ALL_ACTIVE, SECTION, allActive, moduleState, oneActive, pickModule, restoreModule, setModule, skipIfActivationImpossible, withModuleIn } from './modules.ts';


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
        // The modules' states, held (here and across suite files) from the state read first to its restore.
        await exclusive([MODULES_LOCK], async () => {
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
        });
      },
    );
  }

  behaviour(
    extDecl('suite.modules.all-active.default-active', { namespace: SUITE, route: allActive.route.path, title: 'POST /module/all/active with modules and no active activates them (active defaults to true)', spec: SECTION, covers: [
      `arg:${allActive.endpoint.id}.active`,
    ] }),
    async (t) =>
      withModuleIn(t, false, async (slug) => {
        const body = { modules: [t.run.profile.toTargetModule(slug)] };
        const res = await t.client.post(ALL_ACTIVE, body);
        await skipIfActivationImpossible(t, slug, res, `POST ${ALL_ACTIVE} ${show(body)}`);
        expectAnswered(t, res, `POST ${ALL_ACTIVE} ${show(body)}`);
        if (!(await moduleState(t, slug))) t.fail(`POST ${ALL_ACTIVE} ${show(body)} answered ${res.status} but ${slug} is still inactive`);
      }),
  );

  behaviour(
    extDecl('suite.modules.all-active.deactivate', { namespace: SUITE, route: allActive.route.path, title: 'POST /module/all/active with modules and active false deactivates them', spec: SECTION, covers: [
      `arg:${allActive.endpoint.id}.active`,
      `arg:${allActive.endpoint.id}.modules`,
    ] }),
    async (t) =>
      withModuleIn(t, true, async (slug) => {
        const body = { modules: [t.run.profile.toTargetModule(slug)], active: false };
        const res = await t.client.post(ALL_ACTIVE, body);
        expectAnswered(t, res, `POST ${ALL_ACTIVE} ${show(body)}`);
        if (await moduleState(t, slug)) t.fail(`POST ${ALL_ACTIVE} ${show(body)} answered ${res.status} but ${slug} is still active`);
      }),
  );

  behaviour(
    extDecl('suite.modules.active.default', { namespace: SUITE, route: oneActive.route.path, title: 'POST /module/<slug>/active without active either is refused (required) or activates the module (default true), nothing else', spec: SECTION, covers: [`arg:${oneActive.endpoint.id}.active`] }),
    async (t) =>
      withModuleIn(t, false, async (slug) => {
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
      }),
  );

  behaviour(
    extDecl('suite.modules.active.type', { namespace: SUITE, route: oneActive.route.path, title: 'POST /module/<slug>/active with an active that is not a boolean is refused and changes nothing', spec: SECTION, covers: [
      `arg:${oneActive.endpoint.id}.active`,
    ] }),
    async (t) =>
      withModuleIn(t, false, async (slug) => {
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
      }),
  );
}
