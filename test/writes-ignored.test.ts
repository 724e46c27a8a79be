/**
 * No pass without an observed effect (issue 36): against a server that answers every update and
 * delete made with credentials with success and changes nothing (test/helpers/writes-ignored.ts:
 * the item as last read with the fields sent laid over it, `{deleted: true}`, `true`; creates
 * and anonymous requests forwarded), no behaviour about a write passes. The only passes that sent
 * such a write are the stated kinds below, each for its reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../results/results.ts';
import { startReferenceServer, type ReferenceServer } from '../targets/reference/index.ts';
import { runSuite } from './helpers/harness.ts';
import { CREATES, writesIgnored } from './helpers/writes-ignored.ts';

/**
 * Passes allowed although they sent an update or delete the double swallowed, and why.
 * - SECURITY: refusal checks. The writes they are about are sent without credentials, which the
 *   double forwards and the target refuses, and they read back that nothing changed; the request
 *   with credentials is their positive control, which shows only that the route accepts it (where
 *   the valid write would change the site for good, the control is a read or a request naming
 *   nothing, docs/anonymous-access.md).
 * - suite.methods.*: each documented method reaches the route with an empty body, a request that
 *   by design changes nothing (the settings, toggles and parameter behaviours write the values).
 * - suite.defaults.api-key: the key check (POST /module/<service>/key/check) verifies a key and
 *   stores nothing; its default is compared by the answers with and without the argument.
 */
const ALLOWED: [RegExp, string][] = [
  [/^(auth\.anonymous\.|cms\.(posts|pages)\.auth\.|(spamfilter|contactform|suite)\.security\.)/, 'SECURITY refusal check: its writes are anonymous (forwarded, refused)'],
  [/^suite\.methods\./, 'an empty body, which changes nothing by design'],
  [/^suite\.params\.enum-values\./, "each documented value passes the route's validation (its title says so): a claim about the answer, sent in the route's positive control; the values' effects are judged where they read back (the settings and module round trips)"],
  [/^suite\.defaults\.api-key$/, "the default of an argument of the key check, an action that changes nothing: compared by the route's answers"],
];

describe('a server that answers every update and delete with success and changes nothing (reference server behind a double)', () => {
  let server: ReferenceServer;
  let results: Results;
  /** Behaviour ID -> the updates and deletes it sent with credentials (what the double swallowed). */
  const swallowed = new Map<string, Set<string>>();

  beforeAll(async () => {
    server = await startReferenceServer({ port: 0 });
    const run = await runSuite({ url: server.url, user: server.user, appPassword: server.appPassword, profile: 'spec' }, { only: '^(?!disc\\.)', faults: [writesIgnored()], args: ['--runs', '2'] });
    expect(run.stderr).not.toMatch(/internal error/i);
    results = run.results();
    for (const line of readFileSync(join(run.reportDir, 'events.ndjson'), 'utf8').trim().split('\n')) {
      const e = JSON.parse(line) as { behaviour?: string; method?: string; url?: string; auth?: string };
      // Reads (GET, and HEAD and OPTIONS, which the client-readiness profile sends) swallow nothing.
      if (!e.behaviour || !e.method || !e.url || ['GET', 'HEAD', 'OPTIONS'].includes(e.method) || e.auth === 'none') continue;
      const route = new URL(e.url).searchParams.get('rest_route') ?? '';
      if (e.method === 'POST' && CREATES.some((r) => r.test(route))) continue;
      swallowed.set(e.behaviour, (swallowed.get(e.behaviour) ?? new Set()).add(`${e.method} ${route}`));
    }
  }, 180_000);
  afterAll(() => server?.stop());

  it('no behaviour about a write passes: a pass that sent a swallowed update or delete is a refusal check or an empty-body method check', () => {
    expect(results.errors).toEqual([]);
    const passes = results.behaviours.filter((b) => b.status === 'passed' && swallowed.has(b.id));
    const unexplained = passes.filter((b) => !ALLOWED.some(([re]) => re.test(b.id))).map((b) => `${b.id}: ${[...swallowed.get(b.id)!].slice(0, 3).join(', ')}`);
    expect(unexplained).toEqual([]);
    for (const b of passes) if (/\.security\.|\.auth\./.test(b.id)) expect(b.level, b.id).toBe('SECURITY');
  });

  it('the write behaviours the issue names fail or skip, saying why', () => {
    const status = new Map(results.behaviours.map((b) => [b.id, b]));
    for (const id of [
      'spamfilter.key.delete',
      'spamfilter.key.accept',
      'spamfilter.settings.roundtrip.spamfilter-strictness',
      'contactform.forms.update',
      'contactform.forms.update-readback',
      'contactform.forms.delete',
      'cms.posts.update.patch',
      'cms.posts.update.partial',
      'cms.pages.fields.enum-values',
      'cms.posts.delete.force',
      'cms.read-your-writes',
      'suite.settings.roundtrip.carousel-background-color',
      'suite.modules.toggle.carousel',
    ]) {
      const b = status.get(id);
      expect(b, id).toBeDefined();
      expect(`${id}: ${b!.status}`).not.toBe(`${id}: passed`);
      expect(b!.reason ?? '', id).not.toBe('');
    }
  });
});
