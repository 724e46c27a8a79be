/**
 * Every documented query argument of a collection accepts valid values (2xx, an array of
 * items with integer ids: the items' fields are the context behaviours' concern) and rejects invalid ones
 * (4xx, never 5xx): one property-based behaviour per argument, every boundary value first,
 * then random values (generators/; `--runs` per collection, spread over its arguments), shrunk
 * to a minimal counterexample on failure.
 * Plus the stated bounds of per_page and page.
 */
import fc from 'fast-check';
import type { ArgSpec, FieldSpec, SpecRef } from '../../../schemas/types.ts';
import { boundaryValues, invalidArb, validArb } from '../../../generators/index.ts';
import { checkProperty } from '../../../generators/property.ts';
import { brokenConstraint } from '../../../generators/constraint.ts';
import { behaviour, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { ObjectEncoding, QueryValue, Response } from '../../../src/sdk/http.ts';
import { encodeObjects } from '../../../src/sdk/http.ts';
import { CONTEXTS } from './collections.ts';
import { isValidationError, namesParam, whyNotAccepted } from '../../../src/sdk/controls.ts';
import { idShapeProblems } from './items.ts';

/** What the arg checks need to know about the data on the target (from the file's fixtures). */
export interface QueryData {
  /** Concrete collection route (revisions: of the fixture parent). */
  route: string;
  /**
   * Items the collection holds under `scope` (a query restricting it to known items, e.g.
   * `include` of the fixtures): page and offset are drawn within them, because what a server
   * answers for a page past the end is not stated.
   */
  scope: Record<string, QueryValue>;
  /**
   * The behaviour that owns the include filter `scope` relies on (posts and pages): a listing
   * scoped by include that holds other items makes the behaviour skip, depending on it.
   */
  includeOwner?: string;
  count: number;
  /** Query values an argument needs alongside it (orderby=relevance needs a search ...). */
  companions?: Record<string, QueryValue>;
}

/** How the items of a list are checked: the part 2 fields, revision records, or not at all (media: fields not shown). */
export type ItemKind = { kind: 'fields'; fields: Record<string, FieldSpec> } | { kind: 'revisions' } | { kind: 'none' };

export interface QueryTarget {
  /** Behaviour ID prefix, e.g. cms.posts or cms.posts.revisions. */
  id: string;
  /** The catalog endpoint whose query this is (coverage IDs), e.g. cms.posts.collection.list. */
  endpoint: string;
  /** Documented route shape and the section of its query table. */
  path: string;
  spec: SpecRef;
  args: Record<string, ArgSpec>;
  /** Path segment parameters also listed as args (not query values). */
  pathArgs?: string[];
  /** How items are checked: the part 2 fields, revision records, or not at all (media: fields not shown). */
  items: ItemKind;
  /** The data the checks run against, or a skip / failure through `t`. */
  data(t: BehaviourContext): QueryData | Promise<QueryData>;
  /**
   * Make a check on the data (default: on `data(t)`): a target whose data is the site's own content
   * makes it again when that content changed meanwhile (sample.ts onSite).
   */
  withData?(t: BehaviourContext, check: (data: QueryData) => Promise<void>): Promise<void>;
  /** Behaviours need credentials (e.g. revisions are not public). */
  needsCredentials?: boolean;
  /**
   * The encoding of query objects the target reads (taxonomy.ts: the owner checks the object form
   * is understood at all; a skip naming it when not): object values of an argument are sent in it,
   * after its other values (invalid objects are judged only in a form the target reads).
   */
  objectEncoding?(t: BehaviourContext): Promise<ObjectEncoding>;
}

type Case = { valid: boolean; value: QueryValue };
const isObject = (v: QueryValue): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);

const describeCase = (arg: string) => (c: Case) => ({ [arg]: c.value, expected: c.valid ? 'accepted' : 'rejected' });

/** Valid values that depend on the data or on authentication. */
function validFor(arg: string, spec: ArgSpec, data: QueryData, authenticated: boolean): { arb: fc.Arbitrary<QueryValue>; boundaries: QueryValue[] } {
  const b = boundaryValues(spec).valid;
  if (arg === 'page') {
    const max = Math.max(1, data.count);
    return { arb: fc.integer({ min: spec.minimum ?? 1, max }), boundaries: [...new Set([spec.minimum ?? 1, max])] };
  }
  if (arg === 'offset') {
    const max = Math.max(0, data.count - 1);
    return { arb: fc.integer({ min: 0, max }), boundaries: [...new Set([0, max])] };
  }
  if (!authenticated && arg === 'context') {
    // `edit` needs credentials (part 5: requirements not shown; WordPress refuses it anonymously).
    const values = (spec.enum ?? CONTEXTS).filter((c) => c !== 'edit');
    return { arb: fc.constantFrom(...values), boundaries: [...values] };
  }
  if (!authenticated && arg === 'status') {
    return { arb: fc.constant(['publish']), boundaries: [['publish']] };
  }
  return { arb: validArb(spec), boundaries: b };
}

/** Query for one case: the checked argument, plus what makes a valid value checkable. */
function queryFor(arg: string, c: Case, data: QueryData): Record<string, QueryValue> {
  if (!c.valid) return { [arg]: c.value };
  const q: Record<string, QueryValue> = {};
  if (arg === 'page' || arg === 'offset') Object.assign(q, data.scope, { per_page: 1 });
  else if (arg !== 'per_page') q.per_page = 1;
  if (arg === 'orderby' && data.companions) Object.assign(q, data.companions);
  q[arg] = c.value;
  return q;
}

/**
 * Fail unless a response is a 2xx array of objects with integer ids (posts, pages, revisions;
 * media records are not shown, so any array). The fields of the items are not checked here:
 * their types are the context behaviours' (cms.<type>.context.*), a revision's parent the
 * revision parent behaviour's.
 */
export function expectListOk(t: BehaviourContext, kind: ItemKind, res: Response, what: string): unknown[] {
  t.judge(res);
  if (res.status >= 500) t.fail(`${what}: server error ${res.status} ${res.text.slice(0, 160)}`);
  if (res.status < 200 || res.status > 299) t.fail(`${what}: ${whyNotAccepted(res, 'a valid query')}`);
  if (!Array.isArray(res.body)) t.fail(`${what}: the body is not an array: ${res.text.slice(0, 120)}`);
  const items = res.body as unknown[];
  const problems = kind.kind === 'none' ? [] : idShapeProblems(items);
  if (problems.length) t.fail(`${what}: ${problems.join(' | ')}`);
  return items;
}

/**
 * A list query that puts its list in order with `orderby` (an arg the check does not own) refused
 * as invalid, naming orderby: the check skips, depending on `owner`, the check of that orderby value
 * (it sends the same query, and fails on the refusal).
 */
export function orderbyNotRefused(t: BehaviourContext, res: Response, orderby: QueryValue, owner: string, what: string): void {
  if (t.decl.id === owner || !isValidationError(res) || !namesParam(res, 'orderby')) return;
  t.dependsOn(owner, `${what} with orderby=${String(orderby)} was refused naming orderby (${res.status} ${res.text.slice(0, 120)}): this check puts its list in order with it`);
}

/** Fail unless a response is a 4xx; `constraint` names the documented rule the value breaks (generators/constraint.ts). */
export function expectRejected(t: BehaviourContext, res: Response, what: string, constraint?: string): void {
  t.judge(res);
  if (res.status >= 500) t.fail(`${what}: server error ${res.status} instead of a 4xx rejection: ${res.text.slice(0, 160)}`);
  if (res.status < 400) t.fail(`${what}: accepted with ${res.status}, documented: ${constraint ?? 'outside the documented values'}`);
}

export function defineQueryBehaviours(target: QueryTarget): void {
  const withData = target.withData ?? (async (t: BehaviourContext, check: (data: QueryData) => Promise<void>) => check(await target.data(t)));
  const pathArgs = new Set(target.pathArgs ?? []);
  const entries = Object.entries(target.args).filter(([name]) => !pathArgs.has(name));
  /**
   * `--runs` random inputs per collection query, spread over its arguments (at least one each),
   * after every boundary value of every argument: one request per input, so that a full run
   * stays affordable (boundary values alone are ~480 requests over the five collections).
   */
  const randomRuns = (runs: number) => Math.max(1, Math.ceil(runs / entries.length));

  for (const [arg, spec] of entries) {
    const invalid = invalidArb(spec);
    behaviour(
      {
        id: `${target.id}.query.${arg}.values`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: target.path,
        title: `${arg}: documented values are accepted${invalid ? ', invalid ones rejected with a 4xx' : ''} (boundaries, then random)`,
        spec: target.spec,
        covers: [`arg:${target.endpoint}.${arg}`, `endpoint:${target.endpoint}`],
      },
      async (t) => {
        if (target.needsCredentials) t.requireCredentials();
        // page and offset are drawn within the data's items: made again when they changed meanwhile.
        await withData(t, (data) => argValues(t, arg, spec, invalid, data));
      },
      { concurrent: true },
    );
  }

  /**
   * One argument's boundary and random values against the data: the valid accepted, the invalid
   * refused. An argument that is "… or object": its other values first, then its objects, in the
   * encoding the target reads (target.objectEncoding).
   */
  async function argValues(t: BehaviourContext, arg: string, spec: ArgSpec, invalid: fc.Arbitrary<QueryValue> | null, data: QueryData): Promise<void> {
    const authenticated = t.client.hasCredentials;
    const valid = validFor(arg, spec, data, authenticated);
    const bad = boundaryValues(spec).invalid;
    const arb: fc.Arbitrary<Case> = invalid
      ? fc.oneof(valid.arb.map((value) => ({ valid: true, value })), invalid.map((value) => ({ valid: false, value })))
      : valid.arb.map((value) => ({ valid: true, value }));
    const examples: Case[] = [...valid.boundaries.map((value) => ({ valid: true, value })), ...bad.map((value) => ({ valid: false, value }))];
    const objects = target.objectEncoding && spec.oneOf?.some((alt) => [alt.type].flat().includes('object')) && examples.some((c) => isObject(c.value));
    if (!objects) return cases(t, arg, spec, arb, examples, data);
    await cases(t, arg, spec, arb.filter((c) => !isObject(c.value)), examples.filter((c) => !isObject(c.value)), data);
    const encoding = await target.objectEncoding!(t);
    await cases(t, arg, spec, arb.filter((c) => isObject(c.value)), examples.filter((c) => isObject(c.value)), data, encoding);
  }

  async function cases(t: BehaviourContext, arg: string, spec: ArgSpec, arb: fc.Arbitrary<Case>, examples: Case[], data: QueryData, encoding?: ObjectEncoding): Promise<void> {
    const memo = new Map<string, Response>();
    await checkProperty(
      t,
      arb,
      async (c, { replay }) => {
        const query = encoding ? encodeObjects(queryFor(arg, c, data), encoding) : queryFor(arg, c, data);
        const key = JSON.stringify(query);
        let res = replay ? undefined : memo.get(key);
        if (!res) {
          res = await t.client.get(data.route, { query, ...(c.valid ? {} : { invalid: [arg] }) });
          memo.set(key, res);
        }
        const what = `${arg}=${JSON.stringify(c.value)}${encoding === 'json' ? ' (as JSON text)' : ''}`;
        if (c.valid) expectListOk(t, target.items, res, what);
        else expectRejected(t, res, what, brokenConstraint(spec, c.value));
      },
      { examples, describe: describeCase(arg), randomRuns: randomRuns(t.run.info.config.runs), ...(encoding ? { seedSalt: `${t.decl.id} objects` } : {}) },
    );
  }

  const perPage = target.args.per_page;
  if (perPage && (perPage.minimum !== undefined || perPage.maximum !== undefined)) {
    behaviour(
      {
        id: `${target.id}.query.per_page.bounds`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: target.path,
        title: `per_page ${[perPage.minimum, perPage.maximum].filter((v) => v !== undefined).join(' and ')} accepted (that many items at most), ${[perPage.minimum, perPage.maximum]
          .filter((v) => v !== undefined)
          .map((v, i) => (i === 0 && perPage.minimum !== undefined ? v! - 1 : v! + 1))
          .join(' and ')} rejected`,
        spec: target.spec,
        covers: [`arg:${target.endpoint}.per_page`, 'limit.per_page.minimum', 'limit.per_page.maximum'],
      },
      async (t) => {
        if (target.needsCredentials) t.requireCredentials();
        await withData(t, (data) => perPageBounds(t, data));
      },
      { concurrent: true },
    );
  }
  /** per_page at its bounds over the data's items: that many at most; one below and one above refused. */
  async function perPageBounds(t: BehaviourContext, data: QueryData): Promise<void> {
    if (!perPage) return;
    for (const n of [perPage.minimum, perPage.maximum]) {
      if (n === undefined) continue;
      const res = await t.client.get(data.route, { query: { ...data.scope, per_page: n } });
      const items = expectListOk(t, target.items, res, `per_page=${n}`);
      const scope = data.scope.include;
      const outside = Array.isArray(scope) ? items.map((i) => (i as { id?: unknown })?.id).filter((id) => !(scope as unknown[]).includes(id)) : [];
      if (data.includeOwner && outside.length)
        t.dependsOn(data.includeOwner, `GET ${data.route}?include=<${(scope as unknown[]).length} items>&per_page=${n} lists item(s) ${outside.slice(0, 5).join(', ')} outside the include set: the include filter this check counts its items by is not honoured`);
      const expected = Math.min(n, data.count);
      if (items.length !== expected) t.fail(`per_page=${n} over ${data.count} matching items returned ${items.length} items, expected ${expected}`);
    }
    if (perPage.minimum !== undefined) expectRejected(t, await t.client.get(data.route, { query: { per_page: perPage.minimum - 1 }, invalid: ['per_page'] }), `per_page=${perPage.minimum - 1}`, `at least ${perPage.minimum}`);
    if (perPage.maximum !== undefined) expectRejected(t, await t.client.get(data.route, { query: { per_page: perPage.maximum + 1 }, invalid: ['per_page'] }), `per_page=${perPage.maximum + 1}`, `at most ${perPage.maximum}`);
  }

  const page = target.args.page;
  if (page?.minimum !== undefined) {
    const min = page.minimum;
    behaviour(
      {
        id: `${target.id}.query.page.bounds`,
        level: 'MUST',
        namespace: 'cms/v2',
        route: target.path,
        title: `page ${min} accepted, ${min - 1} rejected`,
        spec: target.spec,
        covers: [`arg:${target.endpoint}.page`, 'limit.page.minimum'],
      },
      async (t) => {
        if (target.needsCredentials) t.requireCredentials();
        const data = await target.data(t);
        expectListOk(t, target.items, await t.client.get(data.route, { query: { page: min } }), `page=${min}`);
        expectRejected(t, await t.client.get(data.route, { query: { page: min - 1 }, invalid: ['page'] }), `page=${min - 1}`, `at least ${min}`);
      },
      { concurrent: true },
    );
  }
}
