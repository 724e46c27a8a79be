/**
 * The module that owns a setting (GET /module/all names a module's settings in its `options`): the
 * locks that keep a module's settings and the modules' states from being written at once, and
 * withOwnerActive, which activates the owning module where a valid write does not take.
 */
import type { SettingSpec } from '../../../schemas/types.ts';
import { asBoolean } from '../../../schemas/values.ts';
import { runContext, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Response } from '../../../src/sdk/http.ts';
import { isObject } from '../../../src/sdk/discovery.ts';
import { SUITE, answered, brief, forbidden, isValidationError } from './support.ts';
import { exclusive, withRestore } from './restore.ts';
import { cannotActivate, moduleHints } from './suite-service.ts';
import { SETTINGS, targetKey } from './settings-route.ts';
import { readSettings, type Known } from './settings-io.ts';

/**
 * The lock of a setting (by its spec name): its module's when the target names one (settings of a
 * module are stored together), else its own. Held across suite files (restore.ts exclusive): the
 * spam filter's settings are the suite settings of the same name. Where the target does not
 * advertise the suite, no module owns anything (and GET /module/all is not sent).
 */
export async function settingLock(s: SettingSpec | string): Promise<string> {
  const name = typeof s === 'string' ? s : s.name;
  const suite = ((runContext().index?.namespaces ?? []) as string[]).includes(SUITE);
  const owner = suite ? (await moduleHints()).owners.get(name) : undefined;
  return owner ? moduleLock(owner) : `setting:${name}`;
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

export type Outcome = { ok: true } | { ok: false; res: Response; problem: string };

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
