/**
 * GET /suite/v4/settings read once for the checks that do not need it fresh: suite.settings.read
 * owns "GET /settings answers an object of settings" (a prerequisite of every settings check:
 * when it fails, the rest skip naming it), suite.settings.value.<name> "GET /settings carries
 * <name> with a value of its type (and one of the allowed values)", each on that one read.
 */
import { catalog } from '../../../schemas/catalog/index.ts';
import type { SettingSpec } from '../../../schemas/types.ts';
import { hasType } from '../../../schemas/values.ts';
import { Unmet, prerequisite, type BehaviourContext, type Prerequisite } from '../../../src/sdk/behaviour.ts';
import type { Client, Response } from '../../../src/sdk/http.ts';
import { isObject } from '../../../src/sdk/discovery.ts';
import { ConformanceFailure } from '../../../src/sdk/http.ts';
import { SUITE, answered, brief, forbidden, idPart, show } from './support.ts';
import { SETTINGS, type Declare, type OneSetting } from './settings-route.ts';

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
  if (!hasType(s.type, v)) return `not ${/^[aeiou]/.test(String(s.type)) ? 'an' : 'a'} ${s.type}`;
  if (s.enum && !s.enum.includes(v as string)) return `not one of the allowed values ${s.enum.join(', ')}`;
  return undefined;
};

const VALUES = new Map(catalog.settings.map((s) => [s.name, snapshotValue(`suite.settings.value.${idPart(s.name)}`, (run) => run.profile.toTargetSetting(s.name), valueProblem(s))]));
/** "GET /settings carries <name> with a value of its type", owned by suite.settings.value.<name>. */
export const settingValue = (s: SettingSpec) => VALUES.get(s.name)!;

/** suite.settings.value.<name>. */
export function declareValueCheck(declare: Declare, { s, id, common, concurrent }: OneSetting): void {
  declare(
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
    { concurrent },
  );
}
