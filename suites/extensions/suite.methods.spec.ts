/**
 * suite/v4 write routes by every documented method (extensions part 4 › Suite: "POST, PUT,
 * PATCH" rows, and the POST/DELETE-only routes): each method reaches the route and answers the
 * same request the same way.
 *
 * The request is one that changes nothing: an empty body. Where the endpoint has required
 * arguments the route must refuse it naming exactly those (which also shows that they are
 * required); where it has none it must not refuse it as invalid. A method that answers 404
 * rest_no_route does not exist on the target and fails; a refusal naming anything but the
 * documented required arguments fails (a route that refuses everything never passes). A permission
 * refusal, or an answer that names the suite's external service, skips with that evidence.
 *
 * Also the stated default of `range` of GET /module/<slug>/data (default day), observable without
 * writing (lib/suite-defaults.ts).
 */
import { catalog } from '../../schemas/catalog/index.ts';
import type { ArgSpec, EndpointSpec } from '../../schemas/types.ts';
import { behaviour } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/sdk/http.ts';
import { declareReadDefault } from './lib/suite-defaults.ts';
import { SUITE, answered, brief, isNoRoute, isValidationError, namedParams, remoteEvidence, sameRefusal, skipIfForbidden } from './lib/support.ts';
import { concrete, skipIfRemoteUnavailable } from './lib/suite-service.ts';
import { exclusive, routeLock } from './lib/restore.ts';

/** Exercised by the settings and module behaviours (suite.settings.spec.ts), with their own values. */
const ELSEWHERE = new Set(['suite.settings.update', 'suite.module.item.update', 'suite.module.active.update']);

const requiredArgs = (e: EndpointSpec): string[] =>
  e.args === 'not-shown' ? [] : Object.entries(e.args).filter(([, a]: [string, ArgSpec]) => a.required === true && !('default' in a)).map(([n]) => n);

const code = (r: Response) => (r.body && typeof r.body === 'object' && !Array.isArray(r.body) ? String(r.body.code ?? '') : '');

for (const route of catalog.routes.filter((r) => r.namespace === SUITE)) {
  for (const e of route.endpoints) {
    const methods = e.methods.filter((m) => m !== 'GET');
    if (!methods.length || ELSEWHERE.has(e.id)) continue;
    const required = requiredArgs(e);
    behaviour(
      {
        id: `suite.methods.${e.id.replace(/^suite\./, '')}`,
        level: 'MUST',
        namespace: SUITE,
        route: route.path,
        title: `${methods.join(', ')} ${route.path} with an empty body: every method reaches the route and answers alike${required.length ? ` (refused, naming the required ${required.join(', ')})` : ' (not refused as invalid)'}`,
        spec: e.spec,
        covers: [...methods.map((m) => `endpoint:${e.id}:${m}`), ...required.map((n) => `arg:${e.id}.${n}#required`), ...Object.keys(route.params ?? {}).map((p) => `param:${route.id}.${p}`)],
      },
      async (t) => {
        t.requireNamespace(SUITE);
        t.requireCredentials();
        t.requireWrites();
        const path = concrete(t, route);
        const answers: { method: string; res: Response }[] = [];
        // The documented required arguments are left out on purpose (the request has none).
        const omitted = e.args === 'not-shown' ? [] : Object.entries(e.args).filter(([, a]) => a.required === true).map(([n]) => n);
        const marked = omitted.length ? { invalid: omitted } : {};
        const send = async () => {
          for (const method of methods) answers.push({ method, res: await t.client.request(method, path, method === 'DELETE' ? marked : { body: {}, ...marked }) });
        };
        // A route with a GET: its state is written and read back by other files' checks (restore.ts), held meanwhile.
        if (route.endpoints.some((x) => x.methods.includes('GET'))) await exclusive([routeLock(route.path)], send);
        else await send();
        const what = (a: { method: string }) => `${a.method} ${path} {}`;
        const missing = answers.filter((a) => isNoRoute(a.res));
        if (missing.length) t.fail(`${missing.map((a) => `${what(a)} answered ${brief(a.res)}`).join('; ')}: the documented method does not exist on the target`);
        for (const a of answers) skipIfForbidden(t, a.res, what(a));
        for (const a of answers) {
          const named = namedParams(a.res, required);
          if (isValidationError(a.res, required)) {
            if (!required.length) t.fail(`${what(a)} was refused as invalid (${brief(a.res)}): the route has no required arguments, so a request that omits them all is valid`);
            const wrong = named.filter((n) => !required.includes(n));
            if (!named.length || wrong.length || required.some((n) => !named.includes(n)))
              t.fail(`${what(a)} was refused (${brief(a.res)}), naming ${named.join(', ') || 'nothing'}; expected a refusal naming the missing required ${required.join(', ')}`);
            continue;
          }
          if (required.length) {
            const remote = remoteEvidence(a.res);
            if (remote) t.skip(`${what(a)} answered ${remote}: the answer names the suite's external service, which this target is missing`);
            t.fail(`${what(a)} answered ${brief(a.res)}: a request without the required ${required.join(', ')} must be refused naming ${required.length > 1 ? 'them' : 'it'}`);
          }
          await skipIfRemoteUnavailable(t, route.id, a.res, what(a));
          if (a.res.status >= 500) t.fail(`${what(a)} answered ${brief(a.res)}: a server failure`);
        }
        const [first, ...rest] = answers;
        const unlike = rest.filter((a) => !(answered(a.res) && answered(first!.res)) && !(sameRefusal(a.res, first!.res) && code(a.res) === code(first!.res)));
        if (unlike.length)
          t.fail(`${unlike.map((a) => `${what(a)} answered ${brief(a.res)}`).join('; ')}, unlike ${what(first!)} (${brief(first!.res)}): the spec lists the methods for the same endpoint`);
      },
      { concurrent: true },
    );
  }
}

// The stated default of GET /module/<slug>/data's range, observable by reading (lib/suite-defaults.ts; api_key's is declared by spamfilter.spec.ts).
declareReadDefault('range', { concurrent: true });
