/**
 * Causes wider than one documented item (step 5 of results/deviations.ts). The per-item
 * deviations are joined when the run shows one cause behind several of them:
 *
 * - Routes of a namespace: an endpoint is broken when at least 80 % of the executed behaviours
 *   that name it (or one of its args or methods) in their covers fail. When at least
 *   ROUTES_MIN write endpoints of a namespace are broken, and they are at least 80 % of the write
 *   endpoints of it that any executed behaviour names, the namespace's writes are broken; the same
 *   for reads (GET-only endpoints). Every deviation whose behaviours all name only broken
 *   endpoints of that class (those that name any endpoint: a setting's default check names none)
 *   is then one deviation: "every write route of suite/v4" (a server that refuses every write of
 *   a namespace, or lost its parameter routes, is one finding, not one per route).
 * - A rule checked on every item: the checks of one kind (behaviour IDs that share their first
 *   three segments: `suite.params.required`, `suite.settings.default`; or behaviours declared at
 *   the same place, one check made in a loop for every item; or IDs that differ in one segment
 *   only: `index.*.context`; or one kind over the items of one documented type: every string
 *   setting; or a documented flag over the endpoints the documents give one value of it, in a
 *   namespace or one of its sub-resources: allow_batch of every revision and autosave route) fail for at least 80 % of
 *   the executed ones and for at least RULE_MIN of them, spread over at least two deviations:
 *   those deviations are one (a server that enforces no required arg, or whose every setting
 *   default is another value, breaks the rule the documents state once, not each item).
 *   Deviations joined this way that share another such kind are joined too.
 *
 * - One specific answer (status, code, message; not a missing route, a server error, a refusal of
 *   the credentials or a parameter error, which have many causes) to at least 80 % of the checks of
 *   each of two deviations or more: one cause (`answer:400 rest_post_invalid_page_number`). A
 *   deviation whose every failure quotes an answer a third of a wider cause's failures quote joins
 *   that cause.
 * - The same check with no item of its own (`behaviour:<ID>`) failing for posts and for pages
 *   (`cms.posts.model.should`, `cms.pages.model.should`) is one: part 4 states the page routes as
 *   the post ones.
 *
 * Never joined: anonymous access (`access.<ns>`, a security finding stays on its own line).
 */
import type { BehaviourResult } from './results.ts';
import { catalog } from '../schemas/catalog/index.ts';
import { nodeOfCover, type Index } from './deviation-items.ts';

/** How many endpoints of a namespace's reads or writes must be broken before they are one cause. */
export const ROUTES_MIN = 3;
/** How many failing checks of one kind (over at least two deviations) make a rule broken on every item. */
export const RULE_MIN = 3;
const SHARE = 0.8;

export interface Cause {
  key: string;
  kind: 'routes' | 'rule' | 'answer';
  item: string;
}

/**
 * The kinds of check a behaviour is one of: the behaviours whose IDs share their first three
 * segments (`suite.params.required`), and those declared at the same place (one check made in a
 * loop for every item: `suites/extensions/index-defaults.spec.ts:15` for every namespace).
 */
const kindsOf = (b: Pick<BehaviourResult, 'id' | 'location' | 'covers'>, ix?: Index): string[] => {
  const seg = b.id.split('.');
  const out = [`id:${seg.slice(0, 3).join('.')}`, ...(b.location ? [`at:${b.location}`] : [])];
  // The same check on every item of one documented type (every string setting).
  const type = ix && typeOfCovers(ix, b.covers ?? []);
  if (type) out.push(`typed:${seg.slice(0, 3).join('.')}:${type}`, `typed:${seg.slice(0, 3).join('.')}:${type.replace(/ of listed values$/, '')}`);
  // The same check on every item named by one segment: index.*.context, disc.allow-batch.cms.posts.item.*.
  for (let i = 1; i < seg.length; i++) out.push(`one:${[...seg.slice(0, i), '*', ...seg.slice(i + 1)].join('.')}`);
  // The same documented flag on a family of endpoints: allow_batch of every endpoint of a namespace
  // the documents give one value, and of those of one sub-resource (revisions, autosaves): a flag
  // advertised wrongly on all of them is one broken advertisement, not one per endpoint.
  for (const c of b.covers ?? []) {
    const e = c.startsWith('batch:') ? ix?.endpoints.get(c.slice('batch:'.length)) : undefined;
    if (!e) continue;
    // Of one check (the advertisement's, not the batch checks that send the endpoint's requests).
    const flag = `flag:allow_batch\u0000${seg.slice(0, 2).join('.')}\u0000${e.route.namespace}\u0000${e.endpoint.allowBatch ? 'batchable' : 'not batchable'}`;
    out.push(flag);
    const sub = /<[^>]+>\/([^/<]+)/.exec(e.route.path)?.[1];
    if (sub) out.push(`${flag}\u0000${sub}`);
  }
  return out;
};

/** What a flag kind (kindsOf) names: "allow_batch of every cms/v2 endpoint documented not batchable (revisions)". */
function flagItem(kind: string, joined: number): string {
  const [what, , ns, value, sub] = kind.slice('flag:'.length).split('\u0000');
  return `${what} advertised otherwise than documented on every ${sub ? `${sub} endpoint` : 'endpoint'} of ${ns} documented ${value} (${joined} documented items: one broken advertisement)`;
}

/** Answers with many possible causes, never a cause of their own: a missing route, a server error, a refusal of the credentials. */
const GENERIC_ANSWER = /^\d{3} (rest_no_route|internal_server_error|rest_forbidden|rest_cannot_\w+|rest_not_logged_in|invalid_username|incorrect_password|rest_invalid_param|rest_missing_callback_param)(?: |$)/;

/** The answers of the target a failure message quotes: `400 rest_invalid_param (Invalid parameter(s): x)`. */
function answersIn(b: Pick<BehaviourResult, 'reason' | 'message'>): string[] {
  const out = new Set<string>();
  for (const m of `${b.reason ?? ''} ${b.message ?? ''}`.matchAll(/\b([45]\d\d) ([a-z][a-z0-9]*_[a-z0-9_]*)\b( \((?:[^()]|\([^()]*\))*\))?/g)) {
    out.add(`${m[1]} ${m[2]}`);
    if (m[3]) out.add(m[0]);
  }
  return [...out];
}

/** The documented type of the first setting or arg a behaviour covers. */
function typeOfCovers(ix: Index, covers: readonly string[]): string | undefined {
  for (const c of covers) {
    const n = nodeOfCover(ix, c);
    if (n === undefined) continue;
    const setting = settingTypes.get(n);
    if (setting) return setting;
    const e = n.startsWith('arg:') ? ix.endpointOfNode.get(n) : undefined;
    const args = e ? ix.endpoints.get(e)!.endpoint.args : undefined;
    const arg = args && args !== 'not-shown' ? args[n.slice(`arg:${e}.`.length)] : undefined;
    if (arg?.type) return typeName(arg);
  }
  return undefined;
}
/** A type and whether the values are listed (an enum is a kind of its own). */
const typeName = (x: { type?: unknown; enum?: unknown }) => `${String(x.type)}${Array.isArray(x.enum) ? ' of listed values' : ''}`;
const settingTypes = new Map(catalog.settings.map((x) => [x.id, typeName(x)] as const));

/** The IDs as one pattern: their common leading and trailing segments around `*` (`suite.pattern.*`, `*.index.defaults`). */
export function idPattern(ids: readonly string[]): string {
  const parts = ids.map((id) => id.split('.'));
  const shortest = Math.min(...parts.map((p) => p.length));
  let head = 0;
  while (head < shortest && parts.every((p) => p[head] === parts[0]![head])) head++;
  let tail = 0;
  while (tail < shortest - head && parts.every((p) => p[p.length - 1 - tail] === parts[0]![parts[0]!.length - 1 - tail])) tail++;
  const first = parts[0]!;
  if (head === first.length && parts.every((p) => p.length === first.length)) return first.join('.');
  return [...first.slice(0, head), '*', ...first.slice(first.length - tail)].join('.');
}

/**
 * Joins per-item groups (key → failed behaviours) into wider causes. Returns, for each group key
 * that is joined, the cause it is joined into; groups not joined are absent.
 */
export function widerCauses(ix: Index, behaviours: readonly BehaviourResult[], groups: ReadonlyMap<string, readonly BehaviourResult[]>): Map<string, Cause> {
  const counted = behaviours.filter((b) => b.status === 'failed' || (b.status === 'passed' && !b.id.startsWith('disc.')));
  const endpointsOf = new Map<string, Set<string>>();
  for (const b of counted) {
    const eps = new Set<string>();
    for (const c of b.covers ?? []) {
      const n = nodeOfCover(ix, c);
      const e = n === undefined ? undefined : ix.endpointOfNode.get(n);
      if (e) eps.add(e);
    }
    endpointsOf.set(b.id, eps);
  }

  // Broken endpoints, and broken classes (reads, writes) of each namespace.
  const tally = new Map<string, { f: number; p: number }>();
  for (const b of counted)
    for (const e of endpointsOf.get(b.id)!) {
      const x = tally.get(e) ?? { f: 0, p: 0 };
      if (b.status === 'failed') x.f++;
      else x.p++;
      tally.set(e, x);
    }
  const classOf = (e: string) => {
    const { route, endpoint } = ix.endpoints.get(e)!;
    return `${route.namespace}\u0000${endpoint.methods.some((m) => m !== 'GET') ? 'write' : 'read'}`;
  };
  const broken = new Set<string>();
  const classes = new Map<string, { broken: number; seen: number }>();
  for (const [e, { f, p }] of tally) {
    const c = classes.get(classOf(e)) ?? { broken: 0, seen: 0 };
    c.seen++;
    if (f > 0 && f >= SHARE * (f + p)) broken.add(e), c.broken++;
    classes.set(classOf(e), c);
  }
  const brokenClass = (c: string) => {
    const x = classes.get(c);
    return !!x && x.broken >= ROUTES_MIN && x.broken >= SHARE * x.seen;
  };

  // Union-find over the groups.
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    let r = k;
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  const union = (a: string, b: string) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(rb, ra);
  };
  const eligible = [...groups.keys()].filter((k) => !k.startsWith('access.'));

  for (const g of eligible) {
    const named = groups.get(g)!.map((b) => endpointsOf.get(b.id) ?? new Set<string>()).filter((s) => s.size > 0);
    if (named.length === 0) continue;
    const cls = new Set(named.flatMap((s) => [...s].map(classOf)));
    if (cls.size !== 1) continue;
    const [c] = cls as Set<string>;
    if (brokenClass(c!) && named.every((s) => [...s].every((e) => broken.has(e)))) union(`routes\u0000${c}`, g);
  }

  const kinds = new Map<string, { f: number; p: number; failed: string[] }>();
  for (const b of behaviours) {
    if (b.status !== 'failed' && b.status !== 'passed') continue;
    for (const k of kindsOf(b, ix)) {
      const x = kinds.get(k) ?? { f: 0, p: 0, failed: [] };
      if (b.status === 'failed') x.f++, x.failed.push(b.id);
      else x.p++;
      kinds.set(k, x);
    }
  }
  const groupsOfKind = new Map<string, string[]>();
  for (const g of eligible) for (const k of new Set(groups.get(g)!.flatMap((b) => kindsOf(b, ix)))) groupsOfKind.set(k, [...(groupsOfKind.get(k) ?? []), g]);
  const brokenKinds: string[] = [];
  for (const [k, gs] of groupsOfKind) {
    const x = kinds.get(k)!;
    if (gs.length >= 2 && x.f >= RULE_MIN && x.f >= SHARE * (x.f + x.p)) brokenKinds.push(k);
  }
  for (const k of brokenKinds) for (const g of groupsOfKind.get(k)!) union(`rule\u0000${k}`, g);
  // A check with no item of its own failing for posts and for pages is one (core part 4, Pages:
  // "same route shapes as posts"): cms.posts.model.should and cms.pages.model.should.
  for (const g of eligible) {
    const m = /^behaviour:cms\.posts\.(.+)$/.exec(g);
    if (!m || !groups.has(`behaviour:cms.pages.${m[1]}`)) continue;
    const k = `twin:cms.*.${m[1]}`;
    kinds.set(k, { f: 2, p: 0, failed: [`cms.posts.${m[1]}`, `cms.pages.${m[1]}`] });
    groupsOfKind.set(k, [g, `behaviour:cms.pages.${m[1]}`]);
    union(`rule\u0000${k}`, g);
    union(`rule\u0000${k}`, `behaviour:cms.pages.${m[1]}`);
  }

  // One answer the server gives everywhere: a deviation whose every failure quotes the answer
  // (status, code, message) that many failures (a third) of a wider cause quote is part of that cause (a
  // read refused "400 rest_invalid_param (Invalid parameter(s): cmsc)" like every parameter check).
  const anchored = new Map<string, string[]>();
  for (const g of eligible) if (parent.has(find(g)) || [...parent.values()].includes(find(g))) anchored.set(find(g), [...(anchored.get(find(g)) ?? []), g]);
  const common = new Map<string, Set<string>>();
  for (const [root, gs] of anchored) {
    const failures = gs.flatMap((g) => groups.get(g)!);
    const count = new Map<string, number>();
    for (const b of failures) for (const a of answersIn(b)) count.set(a, (count.get(a) ?? 0) + 1);
    const most = [...count].filter(([, n]) => n >= Math.max(RULE_MIN, failures.length / 3)).map(([a]) => a);
    if (most.length && failures.length >= RULE_MIN) common.set(root, new Set(most));
  }
  // (A smaller wider cause whose every failure quotes it joins too: two method checks of one route
  // refused like every parameter check.)
  const sizeOf = (root: string) => anchored.get(root)?.reduce((n, g) => n + groups.get(g)!.length, 0) ?? 0;
  for (const g of eligible) {
    const own = [...anchored].find(([, gs]) => gs.includes(g))?.[0];
    const quoted = (own ? anchored.get(own)! : [g]).flatMap((x) => groups.get(x)!).map(answersIn);
    for (const [root, answers] of common) {
      if (root === own || find(root) === find(g) || (own !== undefined && sizeOf(own) >= sizeOf(root))) continue;
      if (quoted.every((q) => q.some((a) => answers.has(a)))) {
        union(root, g);
        break;
      }
    }
  }

  // The same specific answer to every check of several deviations (not a generic one: a missing
  // route, a server error or a refusal of the credentials can have many causes): one cause, that
  // answer (a page default of 2 answers every listing "400 rest_post_invalid_page_number").
  const byAnswer = new Map<string, string[]>();
  for (const g of eligible) {
    if (anchored.has(find(g)) || [...parent.values()].includes(find(g)) || parent.has(g)) continue;
    const bs = groups.get(g)!;
    const count = new Map<string, number>();
    for (const b of bs) for (const a of new Set(answersIn(b))) count.set(a, (count.get(a) ?? 0) + 1);
    for (const [a, n] of count) if (n >= SHARE * bs.length && !GENERIC_ANSWER.test(a)) byAnswer.set(a, [...(byAnswer.get(a) ?? []), g]);
  }
  for (const [a, gs] of byAnswer) {
    if (gs.length < 2 || gs.reduce((n, g) => n + groups.get(g)!.length, 0) < RULE_MIN) continue;
    for (const g of gs) union(`answer\u0000${a}`, g);
  }

  // Components: a routes anchor names the cause; else the broken kind joining the most groups;
  // else the answer they share.
  const anchors = [...new Set([...parent.keys(), ...parent.values()].filter((k) => k.includes('\u0000')))];
  const members = new Map<string, string[]>();
  for (const g of eligible) members.set(find(g), [...(members.get(find(g)) ?? []), g]);
  const out = new Map<string, Cause>();
  for (const [root, gs] of members) {
    const mine = anchors.filter((a) => find(a) === root);
    const routes = mine.filter((a) => a.startsWith('routes\u0000')).map((a) => a.slice('routes\u0000'.length));
    const rules = mine.filter((a) => a.startsWith('rule\u0000')).map((a) => a.slice('rule\u0000'.length));
    const answers = mine.filter((a) => a.startsWith('answer\u0000')).map((a) => a.slice('answer\u0000'.length));
    if (routes.length === 0 && ((rules.length === 0 && answers.length === 0) || gs.length < 2)) continue;
    let cause: Cause;
    if (routes.length > 0) {
      const [ns, cls] = routes.sort()[0]!.split('\u0000') as [string, string];
      const both = routes.length > 1;
      cause = { key: both ? `routes:${ns}` : `routes:${ns}:${cls}`, kind: 'routes', item: `${both ? 'every route' : `every ${cls} route`} of ${ns} (${gs.length} documented item${gs.length === 1 ? '' : 's'} fail alike)` };
    } else if (rules.length === 0) {
      const a = answers.sort()[0]!;
      const code = /^(\d{3}) (\S+)/.exec(a)!;
      cause = { key: `answer:${code[1]} ${code[2]}`, kind: 'answer', item: `one answer to the checks of ${gs.length} documented items: ${a}` };
    } else {
      // The kind that fails most thoroughly names it (its own checks), then the one joining most.
      const size = (k: string) => groupsOfKind.get(k)!.filter((g) => find(g) === root).length;
      const share = (k: string) => kinds.get(k)!.f / (kinds.get(k)!.f + kinds.get(k)!.p);
      const k = rules.sort((a, b) => share(b) - share(a) || size(b) - size(a) || a.localeCompare(b))[0]!;
      const ids = idPattern(kinds.get(k)!.failed);
      cause = { key: `rule:${ids}`, kind: 'rule', item: k.startsWith('flag:') ? flagItem(k, gs.length) : `the ${ids} check, failing on every item it is made for (${gs.length} documented items)` };
    }
    for (const g of gs) out.set(g, cause);
  }
  return out;
}
