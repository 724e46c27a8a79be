/**
 * spamfilter/v1 statistics (extensions part 2 › Spam filter statistics): the interval as query
 * parameter and as path segment, its allowed values and its default. Read-only: concurrent.
 */
import { endpointById, routeById } from '../../../schemas/catalog/index.ts';
import { behaviour, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Response } from '../../../src/sdk/http.ts';
import { deepEqual } from '../../../src/sdk/discovery.ts';
import { SPAMFILTER, answered, brief, expectAnswered, expectControl, refused, show, skipIfForbidden } from './support.ts';
import { extDecl } from './declare.ts';


const STATS = '/spamfilter/v1/stats';
const statsRead = endpointById('spamfilter.stats.read');
const intervalArg = (statsRead.endpoint.args as Record<string, { enum?: readonly string[]; default?: unknown }>).interval!;
const INTERVALS = intervalArg.enum as readonly string[];
const INTERVAL_DEFAULT = intervalArg.default as string;
const pathRoute = routeById('spamfilter.stats.interval');
/** Values outside the documented intervals: a one-character value (a route pattern matching one character takes it), a near miss, a word. */
const BAD_INTERVALS = ['x', '7-days', 'forever'];

/** Collect answers; fail naming every request whose answer is not as expected. */
async function expectEach(t: BehaviourContext, cases: { what: string; send: () => Promise<Response> }[], want: 'answered' | 'refused'): Promise<Response[]> {
  const results = await Promise.all(cases.map(async (c) => ({ what: c.what, res: await c.send() })));
  for (const r of results) if (want === 'answered' || answered(r.res)) skipIfForbidden(t, r.res, r.what);
  const wrong = results.filter((r) => (want === 'answered' ? !answered(r.res) : !refused(r.res)));
  if (wrong.length) {
    t.counterexample(wrong.map((r) => r.what));
    t.fail(
      `${wrong.map((r) => `${r.what} answered ${brief(r.res)}`).join('; ')}: expected ${want === 'answered' ? 'a 2xx answer' : 'a 4xx refusal'}`,
    );
  }
  return results.map((r) => r.res);
}

/**
 * Undocumented values are refused, and (positive control) the documented `control` is answered:
 * a route refusing everything, or missing, says nothing about the enum and fails.
 */
async function expectRefusedWithControl(t: BehaviourContext, cases: { what: string; send: () => Promise<Response> }[], control: { what: string; send: () => Promise<Response>; see: string }) {
  const refusals = await expectEach(t, cases, 'refused');
  expectControl(t, { what: control.what, res: await control.send(), refusals, kind: 'accepted', see: control.see });
}

export function declareStatsBehaviours(): void {
  behaviour(
    extDecl('spamfilter.stats.query', { namespace: SPAMFILTER, route: STATS, title: `GET /stats answers for interval ${INTERVALS.join(', ')} and without interval`, spec: statsRead.endpoint.spec, covers: [
      `endpoint:${statsRead.endpoint.id}:GET`,
      `arg:${statsRead.endpoint.id}.interval`,
    ] }),
    async (t) => {
      t.requireNamespace(SPAMFILTER);
      t.requireCredentials();
      await expectEach(
        t,
        [undefined, ...INTERVALS].map((v) => ({
          what: `GET ${STATS}${v === undefined ? '' : `?interval=${v}`}`,
          send: () => t.client.get(STATS, { query: { interval: v } }),
        })),
        'answered',
      );
    },
    { concurrent: true },
  );

  behaviour(
    extDecl('spamfilter.stats.query-enum', { namespace: SPAMFILTER, route: STATS, title: `GET /stats refuses an interval other than ${INTERVALS.join(', ')}`, spec: statsRead.endpoint.spec, covers: [`arg:${statsRead.endpoint.id}.interval`] }),
    async (t) => {
      t.requireNamespace(SPAMFILTER);
      t.requireCredentials();
      await expectRefusedWithControl(
        t,
        BAD_INTERVALS.map((v) => ({ what: `GET ${STATS}?interval=${v}`, send: () => t.client.get(STATS, { query: { interval: v }, invalid: ['interval'] }) })),
        { what: `GET ${STATS}?interval=${INTERVAL_DEFAULT}`, send: () => t.client.get(STATS, { query: { interval: INTERVAL_DEFAULT } }), see: 'spamfilter.stats.query' },
      );
    },
    { concurrent: true },
  );

  behaviour(
    extDecl('spamfilter.stats.path', { namespace: SPAMFILTER, route: pathRoute.path, title: `GET /stats/<interval> answers for ${INTERVALS.join(', ')}`, spec: statsRead.endpoint.spec, covers: [`route:${pathRoute.id}`, `param:${pathRoute.id}.interval`] }),
    async (t) => {
      t.requireNamespace(SPAMFILTER);
      t.requireCredentials();
      await expectEach(t, INTERVALS.map((v) => ({ what: `GET ${STATS}/${v}`, send: () => t.client.get(`${STATS}/${v}`) })), 'answered');
    },
    { concurrent: true },
  );

  behaviour(
    extDecl('spamfilter.stats.path-enum', { namespace: SPAMFILTER, route: pathRoute.path, title: `GET /stats/<interval> refuses an interval other than ${INTERVALS.join(', ')}`, spec: statsRead.endpoint.spec, covers: [
      `param:${pathRoute.id}.interval`,
    ] }),
    async (t) => {
      t.requireNamespace(SPAMFILTER);
      t.requireCredentials();
      await expectRefusedWithControl(
        t,
        BAD_INTERVALS.map((v) => ({ what: `GET ${STATS}/${v}`, send: () => t.client.get(`${STATS}/${v}`, { invalid: ['interval'] }) })),
        { what: `GET ${STATS}/${INTERVAL_DEFAULT}`, send: () => t.client.get(`${STATS}/${INTERVAL_DEFAULT}`), see: 'spamfilter.stats.path' },
      );
    },
    { concurrent: true },
  );

  behaviour(
    extDecl('spamfilter.stats.default', { namespace: SPAMFILTER, route: STATS, title: `GET /stats without interval answers as interval=${INTERVAL_DEFAULT} (the default)`, spec: statsRead.endpoint.spec, covers: [
      `arg:${statsRead.endpoint.id}.interval`,
    ] }),
    async (t) => {
      t.requireNamespace(SPAMFILTER);
      t.requireCredentials();
      const none = await t.client.get(STATS);
      expectAnswered(t, none, `GET ${STATS}`);
      const each = await Promise.all(INTERVALS.map(async (v) => ({ v, res: await t.client.get(STATS, { query: { interval: v } }) })));
      for (const e of each) expectAnswered(t, e.res, `GET ${STATS}?interval=${e.v}`);
      if (each.every((e) => deepEqual(e.res.body, each[0]!.res.body)))
        t.skip(
          `the statistics are the same for every interval (${show(each[0]!.res.body)}): they come from the spam-filter service, and ` +
            'without distinct statistics from it the default interval is not observable',
        );
      const dflt = each.find((e) => e.v === INTERVAL_DEFAULT)!;
      if (!deepEqual(none.body, dflt.res.body)) {
        const like = each.find((e) => deepEqual(e.res.body, none.body));
        t.fail(`GET ${STATS} answered ${show(none.body)}, unlike ?interval=${INTERVAL_DEFAULT} (${show(dflt.res.body)})${like ? `; it matches ?interval=${like.v}` : ''}`);
      }
    },
    { concurrent: true },
  );
}
