/**
 * suite/v4 routes with parameters (extensions part 4 › Suite, "Routes with parameters"): each
 * required parameter missing is refused; each typed parameter given a value of the wrong type is
 * refused; each enum (and pattern) is enforced. Everything is derived from the catalog; values
 * stay invalid after the coercion a WordPress-style server applies (support.ts). At SHOULD level,
 * the refusals name the offending parameter as the reference implementation does (400 with
 * `data.params`, wordpress-behaviour.md §2).
 *
 * The settings and module routes are checked in suite.settings.spec.ts and suite.modules.spec.ts.
 * Requests that could write are sent only when writes are allowed; should a server accept one,
 * the value it changed is written back where the route has a GET.
 */
import { catalog } from '../../schemas/catalog/index.ts';
import type { ArgSpec, EndpointSpec, RouteSpec } from '../../schemas/types.ts';
import { behaviour, type BehaviourContext } from '../../src/behaviour.ts';
import type { Method, Response } from '../../src/client.ts';
import {
  OUTSIDE_ENUM,
  SUITE,
  answered,
  brief,
  expectRefused,
  idPart,
  namesParam,
  show,
  validValue,
  withRestore,
  wrongTypeValue,
  type Carrier,
} from './support.ts';

/** Checked by their own files. */
const ELSEWHERE = new Set(['suite.index.read', 'suite.settings.update', 'suite.module.item.update', 'suite.module.all.active.update', 'suite.module.active.update']);

/** Path segments whose accepted values are not stated: harmless samples that name nothing real. */
function segment(t: BehaviourContext, route: RouteSpec, param: string): string {
  if (route.id === 'suite.module.key.check') return t.run.profile.toTargetNamespace('spamfilter/v1').split('/')[0]!;
  if (param === 'slug') return t.run.profile.toTargetModule('stats');
  if (param === 'plugin') return 'cmsc-none/cmsc-none';
  if (param === 'service') return 'google';
  return '1';
}

interface Case {
  kind: 'required' | 'type' | 'enum' | 'pattern';
  arg: string;
  /** The request's parameters: the required ones valid, the one under test missing or invalid. */
  params: (t: BehaviourContext) => Record<string, unknown>;
  what: string;
}

function sampleFor(t: BehaviourContext, name: string, arg: ArgSpec): unknown {
  if (arg.format === 'uri') return t.run.info.targetUrl;
  if (name === 'object_type') return 'post';
  if (name === 'name') return 'blogname';
  if (name === 'slug') return 'cmsc-none';
  return validValue(arg);
}

function casesOf(endpoint: EndpointSpec, carrier: Carrier): Case[] {
  const args = endpoint.args === 'not-shown' ? {} : endpoint.args;
  const required = Object.entries(args).filter(([, a]) => a.required === true && !('default' in a));
  const base = (t: BehaviourContext, except?: string) => Object.fromEntries(required.filter(([n]) => n !== except).map(([n, a]) => [n, sampleFor(t, n, a)]));
  const out: Case[] = [];
  for (const [name, arg] of Object.entries(args)) {
    if (arg.required === true && !('default' in arg)) out.push({ kind: 'required', arg: name, params: (t) => base(t, name), what: `without ${name}` });
    const wrong = wrongTypeValue(arg, carrier);
    if (wrong !== undefined) out.push({ kind: 'type', arg: name, params: (t) => ({ ...base(t, name), [name]: wrong }), what: `with ${name} = ${show(wrong)} (not a ${arg.type})` });
    if (arg.enum) out.push({ kind: 'enum', arg: name, params: (t) => ({ ...base(t, name), [name]: OUTSIDE_ENUM }), what: `with ${name} = ${show(OUTSIDE_ENUM)} (not one of ${arg.enum.join(', ')})` });
    // No character of the pattern at all: refused even where a pattern may match anywhere in the value (JSON Schema).
    if (arg.pattern && arg.type === 'string')
      out.push({ kind: 'pattern', arg: name, params: (t) => ({ ...base(t, name), [name]: '!?!' }), what: `with ${name} = "!?!" (${arg.note ?? arg.pattern})` });
  }
  return out;
}

/** Where the route has a GET, what it answered before: written back should a bad request be accepted. */
async function snapshot(t: BehaviourContext, route: RouteSpec, path: string, method: Method): Promise<(() => Promise<string | undefined>) | undefined> {
  if (method === 'GET' || !route.endpoints.some((e) => e.methods.includes('GET'))) return undefined;
  const before = await t.client.get(path);
  if (!answered(before)) return undefined;
  return async () => {
    const now = await t.client.get(path);
    if (answered(now) && JSON.stringify(now.body) === JSON.stringify(before.body)) return undefined;
    const write = route.endpoints.find((e) => (e.methods as string[]).includes(method))!;
    const names = write.args === 'not-shown' ? [] : Object.keys(write.args);
    // The GET answer is not shown; where it carries the written argument (or is its value), write that back.
    const body = before.body && typeof before.body === 'object' && !Array.isArray(before.body) && names.some((n) => n in before.body)
      ? Object.fromEntries(names.filter((n) => n in before.body).map((n) => [n, before.body[n]]))
      : names.length === 1 ? { [names[0]!]: before.body } : undefined;
    if (!body) return `${path} changed and its earlier answer ${show(before.body)} cannot be written back`;
    const res = await t.client.request(method, path, { body });
    return answered(res) ? undefined : `writing back ${path} answered ${brief(res)}`;
  };
}

async function send(t: BehaviourContext, method: Method, path: string, carrier: Carrier, params: Record<string, unknown>): Promise<Response> {
  return carrier === 'query' ? t.client.request(method, path, { query: params as Record<string, never> }) : t.client.request(method, path, { body: params });
}

const endpoints = catalog.routes
  .filter((r) => r.namespace === SUITE)
  .flatMap((route) => route.endpoints.map((endpoint) => ({ route, endpoint })))
  .filter(({ endpoint }) => !ELSEWHERE.has(endpoint.id));

for (const { route, endpoint } of endpoints) {
  const method = endpoint.methods[0]!;
  const carrier: Carrier = method === 'GET' || method === 'DELETE' ? 'query' : 'body';
  const cases = casesOf(endpoint, carrier);
  if (!cases.length) continue;
  const epId = endpoint.id.replace(/^suite\./, '');
  const concrete = (t: BehaviourContext) => Object.keys(route.params ?? {}).reduce((p, param) => p.replace(`<${param}>`, segment(t, route, param)), route.path);
  // Bad writes to a route that has a GET are written back if accepted: those run one at a time.
  const concurrent = method === 'GET' || !route.endpoints.some((e) => e.methods.includes('GET'));
  const start = (t: BehaviourContext) => {
    t.requireNamespace(SUITE);
    t.requireCredentials();
    if (method !== 'GET') t.requireWrites();
  };

  for (const c of cases) {
    behaviour(
      {
        id: `suite.params.${c.kind}.${epId}.${idPart(c.arg)}`,
        level: 'MUST',
        namespace: SUITE,
        route: route.path,
        title: `${method} ${route.path} ${c.what} is refused`,
        spec: endpoint.spec,
        covers: [`arg:${endpoint.id}.${c.arg}`],
      },
      async (t) => {
        start(t);
        const path = concrete(t);
        const restore = await snapshot(t, route, path, method);
        await withRestore(
          async () => {
            const params = c.params(t);
            const res = await send(t, method, path, carrier, params);
            if (!(res.status >= 400 && res.status < 500)) t.counterexample({ method, path, [carrier]: params });
            expectRefused(t, res, `${method} ${path} ${c.what}`);
          },
          restore ?? (async () => undefined),
        );
      },
      { concurrent },
    );
  }

  behaviour(
    {
      id: `suite.params.names-param.${epId}`,
      level: 'SHOULD',
      namespace: SUITE,
      route: route.path,
      title: `${method} ${route.path}: each refusal is a 400 naming the offending parameter in data.params (${cases.map((c) => `${c.arg} ${c.kind}`).join(', ')})`,
      spec: endpoint.spec,
      covers: cases.map((c) => `arg:${endpoint.id}.${c.arg}`),
    },
    async (t) => {
      start(t);
      const path = concrete(t);
      const restore = await snapshot(t, route, path, method);
      await withRestore(
        async () => {
          const problems: string[] = [];
          for (const c of cases) {
            const res = await send(t, method, path, carrier, c.params(t));
            if (res.status !== 400 || !namesParam(res, c.arg)) problems.push(`${c.what}: answered ${brief(res)}${res.status === 400 ? ` with data.params ${show(res.body?.data?.params)}` : ''}`);
          }
          if (problems.length) t.fail(`${method} ${path}: ${problems.join('; ')}`);
        },
        restore ?? (async () => undefined),
      );
    },
    { concurrent },
  );
}
