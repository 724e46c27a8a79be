/**
 * The offline half of bench/fault-deviations.ts: the baseline's exchanges recorded whole, each
 * fault's hooks replayed over them (which exchanges it touches), and the scope of its run (see the
 * comment at the top of bench/fault-deviations.ts for how and why).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Results } from '../results/results.ts';
import { getProfile } from '../schemas/profiles.ts';
import type { Fault, FaultRequest, FaultResponse } from '../faults/proxy.ts';
import { safeBody } from '../src/http/events.ts';
import { PKG_ROOT } from '../src/core/paths.ts';

const profile = getProfile('wordpress');

// ---------------------------------------------------------------- recorded exchanges

export interface Recorded {
  method: string;
  route: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  json?: unknown;
  status: number;
  resHeaders: Record<string, string>;
  text: string;
  resJson?: unknown;
}

export const keyOf = (method: string, route: string, query: URLSearchParams, body: string | undefined) => {
  const q = [...query].filter(([k]) => k !== 'rest_route').sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y));
  return `${method} ${route}?${new URLSearchParams(q).toString()} ${body ?? ''}`;
};

export function recorder(into: Recorded[]): Fault {
  return {
    id: 'bench.recorder',
    title: 'records every exchange',
    caughtBy: [],
    response(req, res) {
      into.push({
        method: req.method,
        route: req.route,
        query: req.query.toString(),
        headers: { ...req.headers },
        raw: req.raw.toString('utf8'),
        ...(req.json !== undefined ? { json: req.json } : {}),
        status: res.status,
        resHeaders: { ...res.headers },
        text: res.text,
      });
    },
  };
}

// ---------------------------------------------------------------- touch (offline replay)

export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const REPLAY_HOST = '127.0.0.1:9'; // a fault that sends requests itself (batch) reaches nothing

/** The exchanges a fault touches, with the answer it would give to the index (route /), to see what of the index it changes. */
export async function touches(fault: Fault, recorded: Recorded[]): Promise<Map<number, unknown>> {
  const out = new Map<number, unknown>();
  for (let i = 0; i < recorded.length; i++) {
    const r = recorded[i]!;
    const headers = { ...r.headers, host: REPLAY_HOST };
    const req: FaultRequest = {
      method: r.method,
      route: r.route,
      query: new URLSearchParams(r.query),
      headers,
      ...(r.json !== undefined ? { json: structuredClone(r.json) } : {}),
      raw: Buffer.from(r.raw),
      profile,
      authenticated: r.headers.authorization !== undefined,
    };
    try {
      if (fault.request) {
        const answer = await fault.request(req);
        if (answer) {
          out.set(i, answer.json);
          continue;
        }
        if (req.method !== r.method || req.route !== r.route || req.query.toString() !== r.query || !same(req.json, r.json) || !same({ ...req.headers, host: undefined }, { ...r.headers, host: undefined })) {
          out.set(i, undefined);
          continue;
        }
      }
      if (fault.response) {
        r.resJson ??= (() => {
          try {
            return r.text ? JSON.parse(r.text) : undefined;
          } catch {
            return undefined;
          }
        })();
        const res: FaultResponse = { status: r.status, headers: { ...r.resHeaders }, json: r.resJson === undefined ? undefined : structuredClone(r.resJson), text: r.text };
        await fault.response(req, res);
        if (res.status !== r.status || !same(res.headers, r.resHeaders) || !same(res.json, r.resJson) || res.text !== r.text) out.set(i, res.json);
      }
    } catch {
      out.set(i, undefined);
    }
  }
  return out;
}


// ---------------------------------------------------------------- baseline

export interface Baseline {
  results: Results;
  recorded: Recorded[];
  /** Exchange key → tags (behaviour IDs or helper tags) of the events that sent it. */
  senders: Map<string, Set<string>>;
}

// ---------------------------------------------------------------- scope

/** Namespace and first segment: /suite/v4/settings, /cms/v2/posts. */
export const family = (route: string) => route.split('/').slice(0, 4).join('/');
const CMS_ITEMS = /^\/cms\/v2\/(?!settings)[^/]+/;

export interface Plan {
  fault: Fault;
  touchedExchanges: number;
  touchedBehaviours: string[];
  /** Suite files of the scope; null: every behaviour. */
  files: Set<string> | null;
  why: string[];
}

/**
 * The suite files that read the index or the fresh-site snapshot beyond "is this namespace
 * advertised" (which can only make a behaviour skip): a file whose source, or a file it imports
 * from the suites (two levels), names them.
 */
export function indexReaders(files: string[]): Set<string> {
  const READS = /\b(?:t|run)\.index\b|info\.index\b|info\.freshSite\b|siteAddress\(/;
  const reads = (file: string, depth: number): boolean => {
    let src: string;
    try {
      src = readFileSync(join(PKG_ROOT, file), 'utf8');
    } catch {
      return false;
    }
    if (READS.test(src)) return true;
    if (depth === 0) return false;
    for (const m of src.matchAll(/from '(\.[^']+\.ts)'/g)) {
      const dep = relative(PKG_ROOT, resolve(dirname(join(PKG_ROOT, file)), m[1]!));
      if (dep.startsWith('suites/') && reads(dep, depth - 1)) return true;
    }
    return false;
  };
  return new Set(files.filter((f) => reads(f, 2)));
}

/** Files the index readers that use what the fault changes in the index: its families' files, or all readers for a top-level field. */
const GENERIC_READERS = /suites\/(discovery|core)\/|suite\.(routes|params)\.spec/;
export function setupScope(r: Recorded, answer: unknown, readers: Set<string>, filesByFamily: Map<string, Set<string>>, why: Set<string>): Set<string> {
  const out = new Set<string>();
  if (r.route !== '/') {
    // The fresh-site snapshot (GET /suite/v4/settings before the behaviours).
    for (const f of readers) if (filesByFamily.get(family(r.route))?.has(f) || /fresh/.test(f)) out.add(f);
    why.add(`touches the setup read of ${r.route}: adds the readers of the snapshot and of that route`);
    return out;
  }
  let before: any;
  try {
    before = JSON.parse(r.text);
  } catch {
    before = undefined;
  }
  const after: any = answer;
  if (!before || !after || typeof after !== 'object') {
    for (const f of readers) out.add(f);
    why.add('replaces the index: adds every file that reads it');
    return out;
  }
  const changedTop = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => k !== 'routes' && !same(before[k], after[k]));
  const routes = [...new Set([...Object.keys(before.routes ?? {}), ...Object.keys(after.routes ?? {})])].filter((k) => !same(before.routes?.[k], after.routes?.[k]));
  const families = new Set(routes.map((k) => family(profile.toSpecRoute(k))));
  for (const f of readers) {
    if (GENERIC_READERS.test(f) && changedTop.length) out.add(f);
    if (/suites\/discovery\//.test(f)) out.add(f);
    for (const fam of families) if (filesByFamily.get(fam)?.has(f)) out.add(f);
  }
  why.add(`changes the index (${[...changedTop, ...[...families].map((x) => `routes of ${x}`)].join(', ') || 'nothing visible'}): adds the files that read those parts`);
  return out;
}

export function planFor(fault: Fault, touched: Map<number, unknown>, base: Baseline, fileOf: Map<string, string>, filesByFamily: Map<string, Set<string>>, readers: Set<string>): Plan {
  const files = new Set<string>();
  const behaviours = new Set<string>();
  const why = new Set<string>();
  for (const [i, answer] of touched) {
    const r = base.recorded[i]!;
    const tags = base.senders.get(keyOf(r.method, r.route, new URLSearchParams(r.query), safeBody(r.raw))) ?? new Set(['unmatched']);
    let helper = false;
    for (const tag of tags) {
      const f = fileOf.get(tag);
      if (f) {
        files.add(f);
        behaviours.add(tag);
      } else if (tag === 'setup') {
        // The index and the fresh-site snapshot are read by the files that name them (indexReaders);
        // elsewhere the index only decides whether a namespace is advertised, which can only skip.
        for (const f of setupScope(r, answer, readers, filesByFamily, why)) files.add(f);
      } else helper = true;
      if (!f && tag !== 'setup') why.add(`touches ${tag} exchanges on ${family(r.route)}`);
    }
    const sharedWrite = !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && !CMS_ITEMS.test(r.route);
    if (sharedWrite) why.add(`touches writes to ${family(r.route)}`);
    if (helper || sharedWrite) for (const f of filesByFamily.get(family(r.route)) ?? []) files.add(f);
  }
  return { fault, touchedExchanges: touched.size, touchedBehaviours: [...behaviours].sort(), files, why: [...why] };
}

