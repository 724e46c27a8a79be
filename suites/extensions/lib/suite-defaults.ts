/**
 * The suite/v4 defaults stated for arguments and observable without writing (extensions part 4 ›
 * Suite): `range` of GET /module/<slug>/data (default day) and `api_key` of POST
 * /module/<service>/key/check (default empty): the request without the argument answers as with
 * its default.
 *
 * Declared from two files: suite.methods.spec.ts (range), and spamfilter.spec.ts (api_key, not at
 * the same time as the spam filter's key writes: the answer without api_key may depend on the
 * stored key, which spamfilter.key.* change and set back while suite files run in parallel).
 */
import { routeById } from '../../../schemas/catalog/index.ts';
import { behaviour } from '../../../src/sdk/behaviour.ts';
import { deepEqual } from '../../../src/sdk/discovery.ts';
import { SUITE, answered, brief, expectAnswered, isNoRoute, isValidationError, skipIfForbidden } from './support.ts';
import { concrete, skipIfRemoteUnavailable } from './suite-service.ts';
import { KEY_LOCK } from './restore.ts';
import { acrossFiles } from '../../../src/sdk/worker-state.ts';

const READ_DEFAULTS = {
  range: { route: routeById('suite.module.data'), method: 'GET', arg: 'range', value: 'day', lock: undefined },
  'api-key': { route: routeById('suite.module.key.check'), method: 'POST', arg: 'api_key', value: '', lock: KEY_LOCK },
} as const;

/** `suite.defaults.<id>`: without the argument the route answers as with its stated default. */
export function declareReadDefault(id: keyof typeof READ_DEFAULTS, opts: { concurrent: boolean }): void {
  const { route, method, arg, value, lock } = READ_DEFAULTS[id];
  const e = route.endpoints.find((x) => x.methods.includes(method))!;
  behaviour(
    {
      id: `suite.defaults.${id}`,
      level: 'MUST',
      namespace: SUITE,
      route: route.path,
      title: `${method} ${route.path} without ${arg} answers as with ${arg} = ${JSON.stringify(value)} (its default)`,
      spec: e.spec,
      covers: [`endpoint:${e.id}:${method}`, `arg:${e.id}.${arg}#default`, `arg:${e.id}.${arg}#type`, `arg:${e.id}.${arg}#required`, ...Object.keys(route.params ?? {}).map((p) => `param:${route.id}.${p}`)],
    },
    async (t) => {
      t.requireNamespace(SUITE);
      t.requireCredentials();
      const path = concrete(t, route);
      const send = (withArg: boolean) =>
        method === 'GET' ? t.client.get(path, withArg ? { query: { [arg]: value } } : {}) : t.client.post(path, withArg ? { [arg]: value } : {});
      // The two answers compared may depend on state another file changes meanwhile (the stored key): held across files.
      const both = async () => [await send(false), await send(true)] as const;
      const [without, withDefault] = lock ? await acrossFiles(t.run.info.runId, lock, both) : await both();
      for (const [res, w] of [
        [without, `${method} ${path} without ${arg}`],
        [withDefault, `${method} ${path} with ${arg} = ${JSON.stringify(value)}`],
      ] as const) {
        if (isNoRoute(res)) t.fail(`${w} answered ${brief(res)}: the documented route does not exist on the target`);
        skipIfForbidden(t, res, w);
        if (!answered(res) && !isValidationError(res)) await skipIfRemoteUnavailable(t, route.id, res, w);
        expectAnswered(t, res, w);
      }
      if (!deepEqual(without.body, withDefault.body))
        t.fail(`${method} ${path} without ${arg} answered ${JSON.stringify(without.body).slice(0, 200)}, but with ${arg} = ${JSON.stringify(value)} ${JSON.stringify(withDefault.body).slice(0, 200)}: ${JSON.stringify(value)} is not its default`);
    },
    { concurrent: opts.concurrent },
  );
}
