/**
 * suite.settings.roundtrip.<name>: another value the target can accept, written through POST
 * /settings, reads back on GET /settings; the original value is set back afterwards. A setting
 * with allowed values has every one of them written and read back (settings-every-value.ts).
 */
import type { SettingSpec } from '../../../schemas/types.ts';
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import { answered, brief, isValidationError, refused, remoteEvidence, show, skipIfForbidden } from './support.ts';
import { exclusive, withRestore } from './restore.ts';
import { SETTINGS, start, targetKey, type Declare, type OneSetting } from './settings-route.ts';
import { sameValue, samples } from './setting-values.ts';
import { currentValue, restoreSetting, settingCheck, writeSetting, type Known } from './settings-io.ts';
import { settingLock, withOwnerActive, type Outcome } from './setting-owner.ts';
import { SETTINGS_OBJECT, settingValue } from './settings-read.ts';
import { valuesToWrite, writeEach } from './settings-every-value.ts';

/** suite.settings.roundtrip.<name>. */
export function declareRoundtrip(declare: Declare, { s, id, common, writes, concurrent }: OneSetting): void {
  declare(
    {
      ...common,
      id: `suite.settings.roundtrip.${id}`,
      title: s.enum
        ? `every allowed value of ${s.name} (${s.enum.join(', ')}) written through POST /settings reads back on GET /settings`
        : `a valid ${s.type} written to ${s.name} through POST /settings reads back on GET /settings`,
      covers: writes,
    },
    async (t) => {
      start(t);
      await t.need(SETTINGS_OBJECT);
      await t.need(settingValue(s));
      const via = { route: SETTINGS, write: (v: unknown) => writeSetting(t, s, v) };
      await exclusive([await settingLock(s)], () =>
        settingCheck(t, s, concurrent, (original, known) => (s.enum ? writeEach(t, s, valuesToWrite(s, original), via, original, known) : roundtrip(t, s, original, known))),
      );
    },
    { concurrent },
  );
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
