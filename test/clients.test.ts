/**
 * The client-readiness profile, proven by the clients themselves (issue 42): against the reference
 * server in its default dialect, in each reading of the documents (namedDialects: each is a correct
 * server) and in each reading that breaks a real client (clientDialects), the profile (the CLIENT
 * behaviours, `--only '^client\.'`, with credentials, one suite engine in this process) and the
 * real clients' own flows (test/clients/: wpapi, api-fetch with core-data's requests, Frontity's
 * wp-source, HeadstartWP) agree: for every client, the flows the profile says break are exactly the
 * flows that failed when the client ran them. So does the default dialect behind each client fault
 * (faults/clients.ts: what no reading of the documents breaks). The client-breaking readings and
 * faults are pinned below: each breaks exactly the clients it is for. WordPress 7.1 is the ninth server, in
 * test/real-targets.wordpress-7.1.test.ts (its one boot).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientId } from '../results/clients.ts';
import { clientFaults } from '../faults/clients.ts';
import { startFaultProxy, type Fault } from '../faults/proxy.ts';
import { InProcessRunner } from '../src/proof/proof.ts';
import { clientDialects, namedDialects, type Dialect } from '../targets/reference/dialect.ts';
import { createReferenceHandler, listenHttp } from '../targets/reference/index.ts';
import { agreements, allFlows, cellOf, disagreements, type Agreement } from './clients/agree.ts';
import { createSubjects, startNamespaceProxy } from './clients/site.ts';

/** Posts beyond one page of 100, so that api-fetch's fetch-all (per_page=-1) must follow Link rel="next". */
const SEEDED_POSTS = 101;

/**
 * Start a reference site in a dialect, with SEEDED_POSTS published posts besides its sample content;
 * behind a fault proxy when a fault is given (the site then names the proxy as its own address, in
 * its links and its discovery header, as a site behind a proxy does).
 */
async function referenceSite(dialect: Partial<Dialect>, fault?: Fault) {
  const http = await listenHttp(0, '127.0.0.1');
  const faulty = fault ? await startFaultProxy(http.url, [fault], { profile: 'spec' }) : undefined;
  const url = faulty?.url ?? http.url;
  const handler = createReferenceHandler({ url, dialect });
  http.server.on('request', handler);
  const t0 = Date.now() - 30 * 86_400_000;
  for (let i = 0; i < SEEDED_POSTS; i++)
    handler.site.content.insert({ type: 'post', status: 'publish', date: t0 + i * 60_000, title: `Seeded ${i}`, slug: `seeded-${i}`, content: `<p>Seeded ${i}</p>`, categories: [1] });
  return {
    url,
    /** The server itself, for the test's own checks (a fault proxy would answer them wrong). */
    origin: http.url,
    user: handler.site.admin.login,
    appPassword: handler.site.admin.appPasswords[0]!,
    stop: async () => {
      await faulty?.close();
      await http.stop();
    },
  };
}

/** Servers: the reference in each dialect, and in its default dialect behind each client fault (what no reading of the documents breaks). */
const servers: [string, Partial<Dialect>, Fault?][] = [
  ['default', {}],
  ...Object.entries(namedDialects()),
  ...Object.entries(clientDialects()),
  ...clientFaults.map((f): [string, Partial<Dialect>, Fault] => [`fault ${f.id}`, {}, f]),
];

/**
 * The readings that break a client, and what each breaks (client → its flows that fail): the
 * matrix the profile and the clients agree on. A client not named is ready.
 */
const BREAKS: Record<string, Partial<Record<ClientId, string>>> = {
  default: {},
  'paging-headers=none': { wpapi: 'list', 'api-fetch': 'list', frontity: 'list', headstartwp: 'list' },
  'error-bodies=other': { wpapi: 'errors', 'api-fetch': 'errors', headstartwp: 'errors' },
  'method-override=ignored': { 'api-fetch': 'write' },
  'unknown-params=refused': { wpapi: 'embed', 'api-fetch': 'list, read, write, batch', frontity: 'list, read, embed, errors', headstartwp: 'list, read, embed' },
  'route-keys=spec': { wpapi: 'discover' },
  'discovery=none': { wpapi: 'discover' },
  'batch-max-items=none': { 'api-fetch': 'batch' },
  'addressing=rest-route': { frontity: 'list, read, embed, errors', headstartwp: 'list, read, embed, errors' },
  'text-fields=object': { wpapi: 'write', 'api-fetch': 'write, batch' },
  'batch-answers=other': { 'api-fetch': 'batch' },
  'fault client.post-without-id': { wpapi: 'list, read', 'api-fetch': 'read', frontity: 'list, read, embed, errors', headstartwp: 'list, read' },
  'fault client.missing-post-200': { wpapi: 'errors', 'api-fetch': 'errors', frontity: 'errors' },
  'fault client.rest-route-encoded-unrouted': { 'api-fetch': 'list, read, write, batch' },
};

describe('the client-readiness profile says "ready" exactly when the real clients\' own flows succeed', () => {
  let runner: InProcessRunner;
  const seen = new Map<string, Agreement[]>();
  const cpu = { profile: 0, flows: 0 };
  beforeAll(async () => {
    runner = await InProcessRunner.open();
    for (const [name, dialect, fault] of servers) {
      const server = await referenceSite(dialect, fault);
      const { url } = server;
      const proxy = await startNamespaceProxy(url, 'cms/v2');
      try {
        let t = process.cpuUsage();
        const run = await runner.run({ url, profile: 'spec', user: server.user, appPassword: server.appPassword }, { only: '^client\\.', removeReport: true });
        const clients = run.results().clients;
        cpu.profile += (process.cpuUsage(t).user + process.cpuUsage(t).system) / 1e6;
        t = process.cpuUsage();
        const subjects = await createSubjects({ url: server.origin, user: server.user, appPassword: server.appPassword, namespace: 'cms/v2' }, 'matrix');
        const flows = await allFlows({ name, url, origin: server.origin, user: server.user, appPassword: server.appPassword, namespace: 'cms/v2', wpUrl: proxy.url, posts: subjects.posts });
        cpu.flows += (process.cpuUsage(t).user + process.cpuUsage(t).system) / 1e6;
        seen.set(name, agreements(clients, flows));
      } finally {
        await proxy.close();
        await server.stop();
      }
    }
    const clients = seen.get('default')!.map((a) => a.client);
    const rows = [...seen].map(([name, list]) => `| ${name} | ${list.map(cellOf).join(' | ')} |`);
    console.log(
      [`| server | ${clients.join(' | ')} |`, `|---|${clients.map(() => '---').join('|')}|`, ...rows].join('\n') +
        `\n(${seen.size} servers; CPU of this process: profile runs ${cpu.profile.toFixed(1)} s, clients' flows ${cpu.flows.toFixed(1)} s)`,
    );
  }, 600_000);
  afterAll(() => runner?.close());

  for (const [name] of servers)
    it(`${name}: for every client, the flows the profile says break are the flows that failed`, () => {
      expect(disagreements(`reference ${name}`, seen.get(name)!)).toEqual([]);
    });

  it('each reading that breaks a client breaks exactly the clients (and flows) it is for; the others leave every client ready', () => {
    for (const name of servers.map(([n]) => n).filter((n) => n !== 'spec-only' && n !== 'conventions=none')) {
      const got = Object.fromEntries(seen.get(name)!.filter((a) => a.flows.length).map((a) => [a.client, a.flows.join(', ')]));
      expect(got, name).toEqual(BREAKS[name] ?? {});
    }
    for (const name of [...Object.keys(clientDialects()), ...clientFaults.map((f) => `fault ${f.id}`)]) expect(Object.keys(BREAKS), `${name} breaks a client`).toContain(name);
  });
});
