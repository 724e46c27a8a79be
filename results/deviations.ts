/**
 * Deviations: the failing behaviours of a run grouped by the documented item that broke, so
 * that one broken thing on a server is one finding. A pure function of a run's behaviours and
 * the catalog (schemas/catalog, joined in results/deviation-items.ts); behaviours keep their own verdicts, only counting and
 * presentation change.
 *
 * How it decides (quoted in reports and the issue's closing note). Only failed behaviours form
 * deviations (a skip or an error is not a finding about the target); every failed behaviour is in
 * exactly one, except those of level CLIENT (a client's readiness, results/clients.ts).
 *
 * 1. Documented items. Every catalog item a behaviour names in its `covers` is reduced to the
 *    documented item it belongs to, and items the documents state once are joined:
 *    - an arg (`arg:<endpoint>.<name>#<attribute>`) is the arg, whatever attribute is checked;
 *      args and path parameters of one namespace with the same name, type and values are one
 *      item (`include` of every listing; `interval` of /stats and /stats/<interval>);
 *    - a field is its top-level field in every context (`field:post.meta.footnotes@view` is
 *      `post.meta`); fields of the same name, type and values on resources of one namespace are
 *      one item (`meta` of posts and pages), and so is a body arg of a write endpoint on the
 *      resource's route that has the field's name (the `meta` arg of create, update, autosave);
 *    - a suite setting or module is one item with its args and its field of the same name;
 *    - index fields of the same name are one item;
 *    - endpoints, routes and whole resources (`field:post`) are coarse items: they stand for
 *      everything they carry; one method of an endpoint that takes several
 *      (`endpoint:<id>:PUT`) and an endpoint's allow_batch fact (`batch:<id>`) are items too;
 *    - the page routes, endpoints, methods and allow_batch facts are the post ones (core part 4,
 *      Pages: "Same route shapes as posts ..., with the same batchable flags");
 *    - who may read or write a namespace without credentials is one item per namespace
 *      (`access.<ns>`).
 * 2. Candidates of a failing behaviour:
 *    - the documented items of its covers. When its message names some of them, only those
 *      (a check that covers 40 writable args and says "meta.footnotes: ... read back []" is about
 *      `meta`), and a coarse cover is narrowed to the fields or modules of it the message names
 *      (a module list check failing on "geo-location" is about that module);
 *    - what its recorded failing requests used: the endpoint each request addressed (method and
 *      route), its path parameters and the documented args it sent in its query or JSON body
 *      (the items of a batch as requests of their own);
 *    - who may read or write without credentials: a failing behaviour whose recorded requests
 *      show an anonymous request answered 2xx where the reference refuses it (any write of
 *      cms/v2 or of a non-public extension endpoint, a read of a non-public extension endpoint
 *      (docs/anonymous-access.md), a cms/v2 read in the edit context, of a status other than
 *      publish, or of revisions and autosaves) is about that namespace's anonymous access, one item however many endpoints and
 *      methods show it (the items of an anonymous batch answered 2xx are such requests too);
 *    - a method the route says it does not take (a request answered 405, or 404 rest_no_route, by
 *      an endpoint that takes several methods) is that method of the endpoint.
 * 3. Evidence. A fine item the behaviour itself covers can always be blamed. A coarse item (an
 *    endpoint, route, whole resource) can be blamed only when at least 80 % of the executed
 *    behaviours that name it in their covers fail, and an arg seen only in a failing request only
 *    when at least half of the executed behaviours that name that endpoint's arg fail (discovery
 *    behaviours, which check the index rather than what the server does, are not counted among
 *    the passes). So a settings write that stores nothing (every behaviour over POST /settings
 *    fails) is blamed, but GET /settings is not blamed for five settings it answers wrongly among
 *    140 it answers right; a listing filter is blamed for the checks that find their fixture
 *    through it only when its own checks fail.
 *    A coarse item a behaviour covers, or its failing requests addressed, is also blamed when its family (the behaviours whose IDs
 *    differ only in the last segment: one check made for every setting, suite.settings.type.*)
 *    fails at 80 % and in at least 3 behaviours (unless every failure of the family checks one
 *    fine item: filter.orderby.<value> is about orderby): an endpoint that refuses no wrong type of any
 *    setting is one deviation, five settings with a wrong type among 95 are five.
 * 4. Assignment (greedy, explaining the most failures first). Repeatedly, the candidate item
 *    that explains the most failing behaviours not yet assigned takes all of them; ties go to the
 *    item more of them cover themselves, then to a fine item before a coarse one, then catalog
 *    order. A behaviour left whose several fine candidates explain nothing else, all args of one
 *    endpoint, is a deviation of that endpoint (a create that refuses what is optional). A
 *    behaviour with no candidate is a deviation of its own (`behaviour:<ID>`).
 *
 * 5. Causes wider than one item (results/deviation-causes.ts): the deviations of step 4 are
 *    joined when the run shows one cause behind them: every write (or read) route of a namespace
 *    broken (`routes:<ns>:write`: at least 3 endpoints, and 80 % of those the run exercised, each
 *    failing 80 % of its checks), or one check failing on at least 80 % of the items it is made
 *    for (at least 3 checks, in at least two deviations; `rule:<pattern of their IDs>`: no
 *    required arg enforced, every default wrong; a kind is an ID prefix of three segments, a
 *    declaration site, IDs that differ in one segment, or one of those over one documented type). The joined items are listed in the deviation's `items`. Anonymous access is never
 *    joined.
 *
 * So a documented item missing everywhere (an arg on six endpoints, a field in three contexts)
 * is one deviation, an endpoint that fails the same way for every item it carries (a write
 * that stores nothing, a toggle that changes nothing) is one deviation, and so is a namespace
 * whose every write route refuses, or a rule no item keeps.
 */
import { getProfile, type ProfileName } from '../schemas/profiles.ts';
import { LEVELS, type BehaviourResult, type Deviation, type Level, type Results } from './results.ts';
import { widerCauses } from './deviation-causes.ts';
import { accessNodes, buildIndex, missingMethodNodes, coverNodes, escape, find, namesOf, nodeOfCover, requestNodes, soleEndpoint, type Index } from './deviation-items.ts';

export type { Deviation, DeviationKind } from './results.ts';

/** The share of its executed checks that must fail before a coarse item (endpoint, route, whole resource) is blamed. */
export const COARSE_BLAME_SHARE = 0.8;
/** How many checks of one family (one check made for each item of an endpoint) must fail, at COARSE_BLAME_SHARE of the family, before the endpoint they cover is blamed for them. */
export const FAMILY_MIN = 3;
/** The share of its own executed checks that must fail before an arg seen only in a failing request is blamed. */
export const REQUEST_BLAME_SHARE = 0.5;
// ---------------------------------------------------------------- grouping

type Run = Pick<Results, 'behaviours'> & { target?: Pick<Results['target'], 'profile'> };

interface Candidate {
  key: string;
  /** Named by the behaviour's own covers (not only seen in its requests). */
  own: boolean;
}

const textOf = (b: BehaviourResult) => `${b.reason ?? ''}\n${b.message ?? ''}`;

/** Whether `name` occurs in `text` as a whole word (names may hold hyphens and slashes; a namespace may be written as a path, "/spamfilter/v1"). */
function names(text: string, name: string): boolean {
  if (!name) return false;
  return new RegExp(`(?<![\\w/-])${name.includes('/') ? '/?' : ''}${escape(name)}(?![\\w/-])`).test(text);
}

function profileOf(run: Run) {
  try {
    return getProfile((run.target?.profile ?? 'spec') as ProfileName);
  } catch {
    return getProfile('spec');
  }
}

/**
 * The deviations of a run: its failed behaviours grouped by the documented item that broke
 * (see the comment at the top of this file for how it decides). Worst level first, then the
 * most behaviours, then key.
 */
export function groupDeviations(run: Run): Deviation[] {
  const ix = buildIndex();
  const profile = profileOf(run);
  // A CLIENT finding is a client's readiness, not a deviation from the documents (results/clients.ts).
  const failed = run.behaviours.filter((b) => b.status === 'failed' && b.level !== 'CLIENT');
  if (failed.length === 0) return [];
  const namesFor = (k: string) => namesOf(ix, k);

  // Evidence: failed and passed (non-discovery) behaviours that name each item in their covers,
  // by joined item and by the catalog's own item (the arg of one endpoint).
  const fails = new Map<string, number>();
  const passes = new Map<string, number>();
  // Only the items evidence is asked for: the coarse covers and the request items of the failures.
  const wanted = new Set<string>();
  for (const b of failed) {
    for (const k of coverNodes(ix, b)) if (ix.nodes.get(k)!.coarse) wanted.add(k);
    for (const k of requestNodes(ix, b, profile)) wanted.add(`=${k}`);
  }
  for (const b of run.behaviours) {
    if (b.status !== 'failed' && !(b.status === 'passed' && !b.id.startsWith('disc.'))) continue;
    const tally = b.status === 'failed' ? fails : passes;
    const seen = new Set<string>();
    for (const c of b.covers ?? []) {
      const raw = nodeOfCover(ix, c);
      if (raw === undefined) continue;
      for (const n of [`=${raw}`, find(ix, raw)]) if (wanted.has(n) && !seen.has(n)) seen.add(n), tally.set(n, (tally.get(n) ?? 0) + 1);
    }
  }
  /** `exact`: the evidence of the catalog's own item (one endpoint's arg), not of every item joined to it. */
  const blamed = (k: string, share: number, exact = false) => {
    const f = fails.get(exact ? `=${k}` : k) ?? 0;
    const p = passes.get(exact ? `=${k}` : k) ?? 0;
    return f > 0 && f >= share * (f + p);
  };

  // Families: one check made for every item of an endpoint (suite.settings.type.<setting>).
  const familyOf = (id: string) => id.slice(0, id.lastIndexOf('.'));
  const family = new Map<string, { f: number; p: number }>();
  for (const b of run.behaviours) {
    if (b.status !== 'failed' && b.status !== 'passed') continue;
    const x = family.get(familyOf(b.id)) ?? { f: 0, p: 0 };
    if (b.status === 'failed') x.f++;
    else x.p++;
    family.set(familyOf(b.id), x);
  }
  // A family whose failures all check one fine item (filter.orderby.<value>: every value of one
  // arg) is about that item, not about the endpoint.
  const familyItem = new Map<string, Set<string> | null>();
  for (const b of failed) {
    const fine = new Set(coverNodes(ix, b).filter((k) => !ix.nodes.get(k)!.coarse));
    const prev = familyItem.get(familyOf(b.id));
    familyItem.set(familyOf(b.id), prev === undefined ? fine : prev === null ? null : new Set([...prev].filter((k) => fine.has(k))));
  }
  const familyFails = (id: string) => {
    const x = family.get(familyOf(id));
    const item = familyItem.get(familyOf(id));
    return !!x && x.f >= FAMILY_MIN && x.f >= COARSE_BLAME_SHARE * (x.f + x.p) && !(item && item.size > 0);
  };

  const candidates = new Map<string, Candidate[]>();
  for (const b of failed) {
    const text = textOf(b);
    const own = coverNodes(ix, b);
    let fine = own.filter((k) => !ix.nodes.get(k)!.coarse);
    const coarse = own.filter((k) => ix.nodes.get(k)!.coarse);
    // A whole resource narrowed to the fields the message names.
    for (const k of coarse) {
      if (!k.startsWith('field:')) continue;
      const res = k.slice('field:'.length);
      for (const f of ix.resourceFields.get(res) ?? []) if (names(text, f)) fine.push(find(ix, `field:${res}.${f}`));
    }
    // A cover over many modules or settings narrowed to those the message names (e.g. a module list check).
    fine = [...new Set(fine)];
    const named = fine.filter((k) => namesFor(k).some((n) => names(text, n)));
    if (named.length > 0 && named.length < fine.length) fine = named;
    const list: Candidate[] = fine.map((key) => ({ key, own: true }));
    for (const k of coarse) if (blamed(k, COARSE_BLAME_SHARE) || familyFails(b.id)) list.push({ key: k, own: true });
    // An anonymous request the reference refuses, answered: the namespace's permission check.
    for (const k of accessNodes(ix, b, profile)) list.push({ key: k, own: true });
    // A method the route answers it does not take (405, 404 rest_no_route): that method.
    for (const k of missingMethodNodes(ix, b, profile)) if (!list.some((c) => c.key === find(ix, k))) list.push({ key: find(ix, k), own: true });
    for (const k of requestNodes(ix, b, profile)) {
      const root = find(ix, k);
      const coarseItem = ix.nodes.get(k)!.coarse;
      if (!list.some((c) => c.key === root) && (blamed(k, coarseItem ? COARSE_BLAME_SHARE : REQUEST_BLAME_SHARE, true) || (coarseItem && familyFails(b.id)))) list.push({ key: root, own: false });
    }
    candidates.set(b.id, list);
  }

  // Greedy assignment: the item explaining the most unassigned failures first.
  const assigned = new Map<string, string>();
  for (;;) {
    const count = new Map<string, { n: number; own: number }>();
    for (const b of failed) {
      if (assigned.has(b.id)) continue;
      for (const c of candidates.get(b.id)!) {
        const x = count.get(c.key) ?? { n: 0, own: 0 };
        x.n++;
        if (c.own) x.own++;
        count.set(c.key, x);
      }
    }
    if (count.size === 0) break;
    const [best, { n }] = [...count].sort(([ka, a], [kb, b]) => {
      const na = ix.nodes.get(ka)!;
      const nb = ix.nodes.get(kb)!;
      return b.n - a.n || b.own - a.own || Number(na.coarse) - Number(nb.coarse) || na.order - nb.order;
    })[0]!;
    for (const b of failed) {
      if (assigned.has(b.id) || !candidates.get(b.id)!.some((c) => c.key === best)) continue;
      // Several items of one endpoint, none failing anywhere else: the endpoint is what broke
      // (a create that refuses what is optional, a write that ignores two of its args at once).
      const own = candidates.get(b.id)!.filter((c) => c.own && !ix.nodes.get(c.key)!.coarse);
      const endpoint = n === 1 && own.length > 1 ? soleEndpoint(ix, b) : undefined;
      assigned.set(b.id, endpoint ?? best);
    }
  }

  const groups = new Map<string, BehaviourResult[]>();
  for (const b of failed) {
    const key = assigned.get(b.id) ?? `behaviour:${b.id}`;
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  const own = (key: string) => (b: BehaviourResult) => candidates.get(b.id)?.some((c) => c.key === key && c.own) ?? false;
  // 5. Causes wider than one item (results/deviation-causes.ts): the items joined, one deviation.
  const causes = widerCauses(ix, run.behaviours, groups);
  const deviations: Deviation[] = [];
  const joined = new Map<string, Deviation[]>();
  for (const [key, bs] of groups) {
    const d = toDeviation(ix, key, bs, own(key));
    const cause = causes.get(key);
    if (cause) joined.set(cause.key, [...(joined.get(cause.key) ?? []), d]);
    else deviations.push(d);
  }
  for (const [key, ds] of joined) {
    const cause = [...causes.values()].find((c) => c.key === key)!;
    const rank = (l: Level) => LEVELS.indexOf(l);
    const first = [...ds].sort((a, b) => rank(a.level) - rank(b.level) || b.behaviours.length - a.behaviours.length || a.key.localeCompare(b.key))[0]!;
    const specs = new Map<string, number>();
    for (const d of ds) specs.set(d.spec, (specs.get(d.spec) ?? 0) + d.behaviours.length);
    deviations.push({
      key,
      kind: cause.kind,
      item: cause.item,
      spec: [...specs].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0],
      ...(first.sentence ? { sentence: first.sentence } : {}),
      level: first.level,
      message: `${first.item}: ${first.message}`.slice(0, 500),
      behaviours: ds.flatMap((d) => d.behaviours).sort(),
      items: ds.map((d) => d.key).sort(),
      ...(first.route ? { route: first.route } : {}),
    });
  }
  const rank = (l: Level) => LEVELS.indexOf(l);
  return deviations.sort((a, b) => rank(a.level) - rank(b.level) || b.behaviours.length - a.behaviours.length || a.key.localeCompare(b.key));
}

/** `own`: whether a behaviour checks the item itself (its message says what broke best). */
function toDeviation(ix: Index, key: string, bs: BehaviourResult[], own: (b: BehaviourResult) => boolean): Deviation {
  const rank = (l: Level) => LEVELS.indexOf(l);
  const level = bs.map((b) => b.level).sort((a, b) => rank(a) - rank(b))[0]!;
  const first = [...bs].sort((a, b) => Number(own(b)) - Number(own(a)) || rank(a.level) - rank(b.level) || a.id.localeCompare(b.id))[0]!;
  const node = ix.nodes.get(key);
  const sentence = bs.find((b) => b.sentence)?.sentence;
  const joined = node ? [...ix.nodes.keys()].filter((k) => find(ix, k) === key && k !== key) : [];
  const label = node
    ? node.kind === 'arg' || node.kind === 'field' || node.kind === 'param'
      ? `${node.label}${joined.length ? ` and ${joined.length} more place${joined.length === 1 ? '' : 's'} that document it` : ''}`
      : `${node.label}${joined.length ? ` (and the same on ${joined.map((k) => (node.kind === 'endpoint' ? ix.nodes.get(k)!.label.replace(/^\S+ /, '') : ix.nodes.get(k)!.label.replace(/ \(every method\)$/, ''))).join(', ')})` : ''}`
    : `${first.id} (${first.title})`;
  return {
    key,
    kind: node?.kind ?? 'behaviour',
    item: label,
    spec: node?.spec ?? first.spec,
    ...(sentence ? { sentence } : {}),
    level,
    message: (first.reason ?? first.message ?? '').slice(0, 500),
    behaviours: bs.map((b) => b.id).sort(),
    ...(first.route ? { route: first.route } : {}),
  };
}

/** The deviations of a results file: its own, or grouped now for results written before deviations existed. */
export const deviationsOf = (r: Run & { deviations?: Deviation[] }): Deviation[] => r.deviations ?? groupDeviations(r);

/** "12 deviations in 42 failing behaviours" */
export function deviationHeadline(deviations: readonly Deviation[]): string {
  const n = deviations.length;
  const f = deviations.reduce((s, d) => s + d.behaviours.length, 0);
  return `${n} deviation${n === 1 ? '' : 's'} in ${f} failing behaviour${f === 1 ? '' : 's'}`;
}

/** At most this many deviations are listed one line each at the end of a run (the reports list all). */
export const SUMMARY_LINES = 40;

/**
 * The lines the console summary leads with: "N deviations in M failing behaviours", then one line
 * per deviation (level, item, behaviours, message), worst first; nothing when nothing failed.
 */
export function deviationSummary(r: Run & { deviations?: Deviation[] }, width = 160): string[] {
  const ds = deviationsOf(r);
  if (ds.length === 0) return [];
  const clip = (t: string, n: number) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);
  const lines = [`${deviationHeadline(ds)}:`];
  for (const d of ds.slice(0, SUMMARY_LINES)) {
    const head = `  ${d.level.padEnd(8)} ${d.item}${d.behaviours.length > 1 ? ` (${d.behaviours.length} behaviours)` : ` (${d.behaviours[0]})`}`;
    const msg = d.message.split('\n')[0]!;
    lines.push(clip(`${head}: ${msg}`, Math.max(width, head.length + 20)));
  }
  if (ds.length > SUMMARY_LINES) lines.push(`  … and ${ds.length - SUMMARY_LINES} more (every deviation is in the report)`);
  return lines;
}
