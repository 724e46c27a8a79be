/**
 * What a target advertises in its site index, in spec names, reduced to what can be compared:
 * namespaces, routes, each endpoint's methods, allow_batch and its args with their machine-readable
 * attributes (descriptions dropped). Stored in results.json (`advertised`) so that two runs can be
 * compared from their results files alone; `diffAdvertised` gives the differences (rendered as
 * diff lines by reporters/compare.ts).
 */

import type { Advertised, AdvertisedEndpoint, ArgSignature } from './results.ts';
import { routeParams, routeShape } from '../schemas/route-keys.ts';

export type { Advertised, AdvertisedEndpoint, ArgSignature };

const ATTRIBUTES = ['type', 'required', 'default', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'format', 'pattern'] as const;

const isRecord = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function argSignature(arg: unknown): ArgSignature {
  if (!isRecord(arg)) return JSON.stringify(arg) ?? 'undefined';
  const parts: string[] = [];
  for (const a of ATTRIBUTES) {
    if (!(a in arg)) continue;
    const v = arg[a];
    parts.push(`${a}=${a === 'type' && Array.isArray(v) ? v.join('|') : typeof v === 'string' && a !== 'default' ? v : JSON.stringify(v)}`);
  }
  if (isRecord(arg.items)) parts.push(`items=(${argSignature(arg.items)})`);
  if (isRecord(arg.properties)) parts.push(`properties=${Object.keys(arg.properties).sort().join(',')}`);
  for (const k of ['oneOf', 'anyOf'] as const) if (Array.isArray(arg[k])) parts.push(`${k}=${arg[k].length}`);
  return parts.join('; ');
}

/** Digest of a site index already translated to spec names (see normalizeIndex). */
export function digestIndex(index: unknown): Advertised {
  const out: Advertised = { namespaces: [], routes: {} };
  if (!isRecord(index)) return out;
  if (Array.isArray(index.namespaces)) out.namespaces = index.namespaces.filter((n: unknown): n is string => typeof n === 'string').sort();
  if (!isRecord(index.routes)) return out;
  for (const key of Object.keys(index.routes).sort()) {
    const route: any = index.routes[key];
    const endpoints: Record<string, AdvertisedEndpoint> = {};
    for (const e of (Array.isArray(route?.endpoints) ? route.endpoints : []) as unknown[]) {
      if (!isRecord(e)) continue;
      const methods = (Array.isArray(e.methods) ? e.methods : []).map(String).join(',');
      const args: Record<string, ArgSignature> = {};
      if (isRecord(e.args)) for (const name of Object.keys(e.args).sort()) args[name] = argSignature(e.args[name]);
      endpoints[methods] = { args, ...(isRecord(e.allow_batch) && e.allow_batch.v1 === true ? { allowBatch: true } : {}) };
    }
    out.routes[key] = endpoints;
  }
  return out;
}

export interface ArgChange {
  name: string;
  /** Signature on A; absent when only B advertises the arg. */
  a?: ArgSignature;
  b?: ArgSignature;
}

export interface EndpointChange {
  methods: string;
  change: 'only-a' | 'only-b' | 'changed';
  args: ArgChange[];
  allowBatch?: { a: boolean; b: boolean };
}

export interface RouteChange {
  route: string;
  change: 'only-a' | 'only-b' | 'changed';
  /** For only-a / only-b: the route's endpoints (methods and arg count); for changed: what differs. */
  endpoints: EndpointChange[];
}

export interface AdvertisedDiff {
  namespaces: { onlyA: string[]; onlyB: string[] };
  routes: RouteChange[];
  /** Count of arg-level differences (added, removed or changed args) over all routes. */
  argChanges: number;
}

/**
 * Keys of B's routes that name the same route as a key of A in the other notation of core part 1
 * (`/cms/v2/posts/(?P<id>[\d]+)` and `/cms/v2/posts/<id>`): A's key → B's. Two regexes of one shape
 * with different patterns stay two routes (what the segment accepts differs).
 */
function sameRouteOtherNotation(a: Advertised, b: Advertised): Map<string, string> {
  const spec = (key: string) => routeParams(key).some((p) => p.notation === 'spec');
  const onlyB = new Map<string, string>();
  for (const key of Object.keys(b.routes)) if (!(key in a.routes)) onlyB.set(routeShape(key), onlyB.get(routeShape(key)) ?? key);
  const out = new Map<string, string>();
  for (const key of Object.keys(a.routes)) {
    if (key in b.routes) continue;
    const other = onlyB.get(routeShape(key));
    if (other !== undefined && (spec(key) || spec(other))) {
      out.set(key, other);
      onlyB.delete(routeShape(key));
    }
  }
  return out;
}

export function diffAdvertised(a: Advertised, b: Advertised): AdvertisedDiff {
  const routes: RouteChange[] = [];
  let argChanges = 0;
  // A route keyed in the spec's notation on one side and as a regex on the other is one route,
  // named by A's key.
  const paired = sameRouteOtherNotation(a, b);
  const pairedB = new Set(paired.values());
  const keys = [...new Set([...Object.keys(a.routes), ...Object.keys(b.routes).filter((k) => !pairedB.has(k))])].sort();
  for (const route of keys) {
    const ra = a.routes[route];
    const rb = b.routes[paired.get(route) ?? route];
    if (!ra || !rb) {
      const only = (ra ?? rb)!;
      routes.push({
        route,
        change: ra ? 'only-a' : 'only-b',
        endpoints: Object.entries(only).map(([methods, e]) => ({
          methods,
          change: ra ? 'only-a' : 'only-b',
          args: Object.entries(e.args).map(([name, sig]) => (ra ? { name, a: sig } : { name, b: sig })),
        })),
      });
      continue;
    }
    const endpoints: EndpointChange[] = [];
    for (const methods of [...new Set([...Object.keys(ra), ...Object.keys(rb)])]) {
      const ea = ra[methods];
      const eb = rb[methods];
      if (!ea || !eb) {
        const only = (ea ?? eb)!;
        endpoints.push({ methods, change: ea ? 'only-a' : 'only-b', args: Object.entries(only.args).map(([name, sig]) => (ea ? { name, a: sig } : { name, b: sig })) });
        argChanges += Object.keys(only.args).length;
        continue;
      }
      const args: ArgChange[] = [];
      for (const name of [...new Set([...Object.keys(ea.args), ...Object.keys(eb.args)])].sort()) {
        const sa = ea.args[name];
        const sb = eb.args[name];
        if (sa === sb) continue;
        args.push({ name, ...(sa !== undefined ? { a: sa } : {}), ...(sb !== undefined ? { b: sb } : {}) });
      }
      const batchA = ea.allowBatch === true;
      const batchB = eb.allowBatch === true;
      if (args.length || batchA !== batchB) {
        argChanges += args.length;
        endpoints.push({ methods, change: 'changed', args, ...(batchA !== batchB ? { allowBatch: { a: batchA, b: batchB } } : {}) });
      }
    }
    if (endpoints.length) routes.push({ route, change: 'changed', endpoints });
  }
  return {
    namespaces: { onlyA: a.namespaces.filter((n) => !b.namespaces.includes(n)), onlyB: b.namespaces.filter((n) => !a.namespaces.includes(n)) },
    routes,
    argChanges,
  };
}
