/**
 * Client readiness (issue 42): will the real clients of the interface work against the target?
 *
 * The clients below talk to the interface in its WordPress spelling, and rely on things the
 * documents never state (paging headers, error bodies, `_embed` …) and, in a few places, on the
 * opposite of what they allow (path addressing under `/wp-json/`, PCRE route keys, `maxItems` on
 * the batch descriptor). Each such thing is a behaviour at level CLIENT (suites/clients/), which
 * names the client code that relies on it (package, version, file, function) the way every other
 * behaviour names its spec section, and which flows of the client break without it.
 *
 * A client is ready when every CLIENT behaviour it relies on passed, not ready when one failed;
 * what could not be checked (writes on a read-only run, no credentials) is said, per flow. A
 * CLIENT finding is never a conformance failure: where the spec is contrary, the server is right
 * by the spec and the client would still break (`spec: 'contrary'`, "the client's limitation").
 *
 * test/clients.test.ts proves the profile with the clients themselves: against the reference
 * server in each of its dialects and against WordPress 7.1, each client's own flows succeed
 * exactly when this says "ready".
 */
import type { Level, Status } from './verdict.ts';

export type ClientId = 'wpapi' | 'api-fetch' | 'frontity' | 'headstartwp';
export type FlowId = 'discover' | 'list' | 'read' | 'embed' | 'write' | 'batch' | 'errors';

/** The common flows a client runs (the ones the profile and the client tests know). */
export const FLOWS: Readonly<Record<FlowId, string>> = {
  discover: 'find the API root',
  list: 'list posts with paging',
  read: 'fetch a post by id and by slug',
  embed: 'fetch with the embedded author and terms',
  write: 'create, update and delete with credentials',
  batch: 'save several items in one batch',
  errors: 'handle errors',
};

export interface ClientInfo {
  id: ClientId;
  /** The npm package and version whose code was read (and is run by test/clients.test.ts). */
  package: string;
  version: string;
  /** The flows this client has (the ones it does not, e.g. writes for the front-end frameworks, are not checked for it). */
  flows: readonly FlowId[];
  /** How the tests run it, when not simply as a library. */
  note?: string;
}

export const CLIENTS: readonly ClientInfo[] = [
  { id: 'wpapi', package: 'wpapi', version: '1.2.2', flows: ['discover', 'list', 'read', 'embed', 'write', 'errors'] },
  {
    id: 'api-fetch',
    package: '@wordpress/api-fetch',
    version: '7.56.0',
    flows: ['list', 'read', 'write', 'batch', 'errors'],
    note: 'with the requests of @wordpress/core-data 8.1.0 (the block editor), which sends everything through api-fetch and cannot run outside a browser: its requests are replayed through the real api-fetch',
  },
  {
    id: 'frontity',
    package: '@frontity/wp-source',
    version: '1.11.7',
    flows: ['list', 'read', 'embed', 'errors'],
    note: "Frontity's data layer, driven through its own store (actions.source.fetch) without the framework; read-only",
  },
  {
    id: 'headstartwp',
    package: '@headstartwp/core',
    version: '1.6.1',
    flows: ['list', 'read', 'embed', 'errors'],
    note: "HeadstartWP's framework-agnostic fetch functions (fetchPosts, fetchPost) without Next.js; read-only",
  },
];

export const CLIENT_IDS: readonly ClientId[] = CLIENTS.map((c) => c.id);
export const clientInfo = (id: string): ClientInfo | undefined => CLIENTS.find((c) => c.id === id);
/** "wpapi 1.2.2", "@wordpress/api-fetch 7.56.0" … as reports name a client. */
export const clientLabel = (id: string): string => {
  const c = clientInfo(id);
  return c ? `${c.id === c.package ? c.id : `${c.id} (${c.package})`} ${c.version}` : id;
};

/**
 * What the documents say of what a client relies on: `stated` (a server that does otherwise
 * deviates from the spec too), `silent` (a WordPress convention the spec does not state: a server
 * may do otherwise and is still correct, but the client breaks), `contrary` (the spec states or
 * allows something else: the server is right by the spec, and the client would still break; its
 * limitation).
 */
export type SpecStance = 'stated' | 'silent' | 'contrary';

/** One client's reliance on a behaviour: where in its code, which of its flows break without it, and how. */
export interface ReliedOn {
  client: ClientId;
  /** Package and version the code was read in (filled from CLIENTS when declared). */
  package?: string;
  version?: string;
  /** File of the package that relies on it, e.g. "lib/http-transport.js". */
  file: string;
  /** The function (and lines) there, e.g. "createPaginationObject (L120-156)". */
  function: string;
  /** Its flows that break without it. */
  flows: readonly FlowId[];
  /** What goes wrong in the client, in words: "_paging is absent: paging is silently lost". */
  breaks: string;
}

/** What a CLIENT behaviour rests on: the declaration field `client`, also in results.json. */
export interface ClientReliance {
  spec: SpecStance;
  /** For `contrary` (and where it helps for `stated`): what the spec says instead, with its section. */
  specSays?: string;
  reliedOnBy: ReliedOn[];
}

/** A declaration's reliance with each client's package and version filled in (throws on an unknown client). */
export function withPackages(r: ClientReliance): ClientReliance {
  return {
    ...r,
    reliedOnBy: r.reliedOnBy.map((x) => {
      const c = clientInfo(x.client);
      if (!c) throw new Error(`unknown client "${x.client}" (known: ${CLIENT_IDS.join(', ')})`);
      const bad = x.flows.filter((f) => !c.flows.includes(f));
      if (bad.length) throw new Error(`client ${x.client} has no flow ${bad.join(', ')} (its flows: ${c.flows.join(', ')})`);
      return { ...x, package: c.package, version: c.version };
    }),
  };
}

// ---------------------------------------------------------------- readiness of a run

/** What readiness looks at of a behaviour's result. */
export interface ClientJudged {
  id: string;
  level: Level;
  title: string;
  spec: string;
  status: Status;
  reason?: string;
  dependsOn?: string;
  client?: ClientReliance;
}

/** One reason a client is not ready: a failed CLIENT behaviour it relies on. */
export interface ClientFinding {
  behaviour: string;
  flows: FlowId[];
  spec: SpecStance;
  /** Where the spec stands, in words (the spec section; for contrary what it says instead). */
  specSays: string;
  /** The failure as the run found it. */
  message: string;
  /** What goes wrong in the client. */
  breaks: string;
  /** The client code that relies on it: "lib/http-transport.js createPaginationObject". */
  where: string;
  /** Whose limitation: the server's (it lacks what the client needs), or the client's (the server is right by the spec). */
  whose: 'server' | 'client';
}

/** A CLIENT behaviour of the client that could not be checked (skipped, or an error), with why. */
export interface ClientUnchecked {
  behaviour: string;
  flows: FlowId[];
  reason: string;
}

export interface ClientReadiness {
  client: ClientId;
  package: string;
  version: string;
  /** ready: every CLIENT behaviour it relies on that ran passed; not ready: one failed; not checked: none ran. */
  verdict: 'ready' | 'not ready' | 'not checked';
  /** Its flows that break, in the order of FLOWS (empty when ready). */
  failingFlows: FlowId[];
  findings: ClientFinding[];
  /** Its flows of which something could not be checked (e.g. writes on a read-only run), and the behaviours. */
  uncheckedFlows: FlowId[];
  unchecked: ClientUnchecked[];
  /** How the tests ran it (CLIENTS note). */
  note?: string;
}

const flowOrder = (flows: Iterable<FlowId>): FlowId[] => {
  const set = new Set(flows);
  return (Object.keys(FLOWS) as FlowId[]).filter((f) => set.has(f));
};

/**
 * The readiness of every client from a run's behaviours (the CLIENT ones). Absent (empty) when
 * the run selected no CLIENT behaviour.
 */
export function clientReadiness(behaviours: readonly ClientJudged[]): ClientReadiness[] {
  const mine = behaviours.filter((b) => b.level === 'CLIENT' && b.client);
  if (!mine.length) return [];
  return CLIENTS.map((c) => {
    const findings: ClientFinding[] = [];
    const unchecked: ClientUnchecked[] = [];
    let ran = 0;
    for (const b of mine) {
      const r = b.client!.reliedOnBy.find((x) => x.client === c.id);
      if (!r) continue;
      const flows = flowOrder(r.flows);
      if (b.status === 'passed') ran++;
      else if (b.status === 'failed') {
        ran++;
        findings.push({
          behaviour: b.id,
          flows,
          spec: b.client!.spec,
          specSays: b.client!.specSays ?? b.spec,
          message: b.reason ?? b.title,
          breaks: r.breaks,
          where: `${r.file} ${r.function}`,
          whose: b.client!.spec === 'contrary' ? 'client' : 'server',
        });
      } else unchecked.push({ behaviour: b.id, flows, reason: b.reason ?? b.status });
    }
    const failingFlows = flowOrder(findings.flatMap((f) => f.flows));
    return {
      client: c.id,
      package: c.package,
      version: c.version,
      verdict: findings.length ? 'not ready' : ran ? 'ready' : 'not checked',
      failingFlows,
      findings,
      uncheckedFlows: flowOrder(unchecked.flatMap((u) => u.flows)).filter((f) => !failingFlows.includes(f)),
      unchecked,
      ...(c.note ? { note: c.note } : {}),
    };
  });
}

/** `{clients}` for a results file: absent when no CLIENT behaviour ran. */
export function readinessOf(behaviours: readonly ClientJudged[]): { clients?: ClientReadiness[] } {
  const clients = clientReadiness(behaviours);
  return clients.length ? { clients } : {};
}

/** A client whose verdict differs between two runs (compare): "api-fetch: ready → not ready". */
export interface ReadinessChange {
  client: ClientId;
  a: ClientReadiness['verdict'];
  b: ClientReadiness['verdict'];
  /** Flows that break on B and did not on A. */
  newlyFailing: FlowId[];
  /** B's findings (when not ready there). */
  findings: ClientFinding[];
}

/** The clients whose verdict (or failing flows) changed from A to B, worst first (a regression before a fix). */
export function readinessChanges(a: readonly ClientReadiness[] | undefined, b: readonly ClientReadiness[] | undefined): ReadinessChange[] {
  if (!a?.length || !b?.length) return [];
  const out: ReadinessChange[] = [];
  for (const rb of b) {
    const ra = a.find((x) => x.client === rb.client);
    if (!ra) continue;
    const newlyFailing = rb.failingFlows.filter((f) => !ra.failingFlows.includes(f));
    if (ra.verdict === rb.verdict && !newlyFailing.length && ra.failingFlows.length === rb.failingFlows.length) continue;
    out.push({ client: rb.client, a: ra.verdict, b: rb.verdict, newlyFailing, findings: rb.findings });
  }
  const regressed = (c: ReadinessChange) => c.b === 'not ready' && (c.a !== 'not ready' || c.newlyFailing.length > 0);
  return out.sort((x, y) => Number(regressed(y)) - Number(regressed(x)));
}

/** A change as one line: "api-fetch: ready → not ready (write: …)". */
export function describeChange(c: ReadinessChange): string {
  const why = c.b === 'not ready' && c.findings[0] ? ` (${c.findings.map((f) => `${f.flows.join(', ')}: ${f.breaks}`).join('; ')})` : '';
  const flows = c.a === c.b && c.newlyFailing.length ? `, now also failing: ${c.newlyFailing.join(', ')}` : '';
  return `${c.client}: ${c.a} → ${c.b}${flows}${why}`;
}
