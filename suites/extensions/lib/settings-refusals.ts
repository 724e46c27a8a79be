/**
 * suite.settings.type.<name>, .enum.<name> and .module-route.<name>: a value of the wrong type, or
 * outside the allowed values, written through POST /settings (or POST /module/<slug> of the
 * setting's module) is refused and not stored, and the nearest valid write (the positive control)
 * is accepted, so that a route refusing everything never passes.
 */
import { catalog } from '../../../schemas/catalog/index.ts';
import type { SettingSpec } from '../../../schemas/types.ts';
import { OUTSIDE_ENUM, wrongTypeValues } from '../../../schemas/values.ts';
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { RequestOptions, Response } from '../../../src/sdk/http.ts';
import { answered, brief, expectControl, forbidden, idPart, isValidationError, refused, show } from './support.ts';
import { exclusive, withRestore } from './restore.ts';
import { moduleHints } from './suite-service.ts';
import { MODULE_WRITE, MODULE_WRITE_ARGS, SETTINGS, argItems, start, targetKey, type Declare, type OneSetting } from './settings-route.ts';
import { sameValue, samples, writable } from './setting-values.ts';
import { currentValue, readSettings, readsAs, restoreSetting, settingCheck, writeJoined, writeSetting, type Known } from './settings-io.ts';
import { settingLock, withOwnerActive, type Outcome } from './setting-owner.ts';
import { SETTINGS_OBJECT, settingValue } from './settings-read.ts';

/** suite.settings.type.<name> (phase `typeIn`), .enum.<name> (`enumIn`) and .module-route.<name> (`moduleIn`). */
export function declareRefusals(typeIn: Declare, enumIn: Declare, moduleIn: Declare, { s, id, common, writes, concurrent }: OneSetting): void {
  const wrong = wrongTypeValues(s.type);
  if (wrong.length)
    typeIn(
      { ...common, id: `suite.settings.type.${id}`, title: `${s.name}: a value that is not a ${s.type} is refused and not stored`, covers: writes },
      async (t) => {
        start(t);
        await t.need(SETTINGS_OBJECT);
        await t.need(settingValue(s));
        await exclusive([await settingLock(s)], () =>
          settingCheck(t, s, concurrent, (original, known) => refusedAndNotStored(t, s, wrong, `not a ${s.type}`, original, known)),
        );
      },
      { concurrent },
    );

  if (s.enum)
    enumIn(
      { ...common, id: `suite.settings.enum.${id}`, title: `${s.name}: a value outside ${s.enum.join(', ')} is refused and not stored`, covers: writes },
      async (t) => {
        start(t);
        await t.need(SETTINGS_OBJECT);
        await t.need(settingValue(s));
        await exclusive([await settingLock(s)], () =>
          settingCheck(t, s, concurrent, (original, known) => refusedAndNotStored(t, s, [OUTSIDE_ENUM], 'outside the allowed values', original, known)),
        );
      },
      { concurrent },
    );

  // The same setting written through its module's route (part 4: POST /module/<slug> takes
  // "any suite setting of part 2, all optional"): the wrong type (and a value outside the
  // allowed ones) is refused and not stored, and the current value alone (every other setting
  // omitted: none is required) passes validation (accepted and stored, or refused for another
  // reason: the module is not active).
  const moduleArg = MODULE_WRITE_ARGS[s.name];
  const bad = [...wrong, ...(s.enum ? [OUTSIDE_ENUM] : [])];
  if (moduleArg && bad.length)
    moduleIn(
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
          settingCheck(t, s, concurrent, (original, known) => refusedAndNotStored(t, s, bad, `not a ${s.type}${s.enum ? ' or outside the allowed values' : ''}`, original, known, via)),
        );
      },
      { concurrent },
    );
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
      const joined = join ? await writeJoined(t, key, value) : undefined;
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
