/**
 * Faults of what real clients rely on (issue 42; the CLIENT behaviours, suites/clients/) that no
 * reading of the documents breaks, so no reference-server dialect shows them failing: each breaks
 * it here, and test/clients.test.ts runs the profile and the clients' own flows through it.
 */
import { noRoute } from './kit.ts';
import { isGet, itemsOf, ITEM, COLLECTION } from './cms/common.ts';
import type { Fault } from './proxy.ts';

export const clientFaults: Fault[] = [
  {
    id: 'client.post-without-id',
    title: 'answers posts without their id (in listings and read by id)',
    caughtBy: ['client.records.id'],
    response(req, res) {
      if (isGet(req) && /^\/cms\/v2\/posts(\/\d+)?$/.test(req.route) && res.status < 300) for (const item of itemsOf(res)) delete item.id;
    },
  },
  {
    id: 'client.missing-post-200',
    title: 'answers a post that does not exist with 200 (and the error body)',
    caughtBy: ['client.errors.status'],
    response(req, res) {
      if (isGet(req) && ITEM.test(req.route) && res.status === 404) res.status = 200;
    },
  },
  {
    id: 'client.rest-route-encoded-unrouted',
    title: 'finds no route for a percent-encoded rest_route (rest_route=%2Fcms%2Fv2%2Fposts)',
    caughtBy: ['client.addressing.rest-route-encoded'],
    request(req) {
      if (/[?&]rest_route=%2F/i.test(req.url ?? '') && (COLLECTION.test(req.route) || ITEM.test(req.route) || req.route.startsWith('/batch/'))) return noRoute();
    },
  },
];
