/**
 * Per module: suite.modules.value.<slug> (GET /settings carries its toggle as a boolean, on the
 * shared read), suite.modules.toggle.<slug> (it toggles through POST /module/<slug>/active and back
 * through POST /settings, one module at a time), suite.modules.toggle-type.<slug> (a value that is
 * not a boolean is refused by POST /settings and POST /module/<slug>).
 */
import { catalog, endpointById } from '../../../schemas/catalog/index.ts';
import { asBoolean } from '../../../schemas/values.ts';
import { behaviour, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Response } from '../../../src/sdk/http.ts';
import { isObject } from '../../../src/sdk/discovery.ts';
import { SUITE, answered, expectAnswered, expectControl, expectRefused, idPart, refused } from './support.ts';
import { exclusive, withRestore } from './restore.ts';
import { extDecl } from './declare.ts';
import { MODULE_WRITE, SETTINGS, argItems, start } from './settings-route.ts';
import { readSettings, writeJoined } from './settings-io.ts';
import { MODULES_LOCK, activeRoute, moduleActive, moduleLock } from './setting-owner.ts';
import { SETTINGS_OBJECT } from './settings-read.ts';
import { SECTION, moduleState, moduleToggle, oneActive, restoreModule, setModule, skipIfActivationImpossible } from './modules.ts';


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
