/**
 * Checks of items in responses against the field table of part 2: the type of every
 * documented field that is present, and the per-context presence of the sub-properties
 * whose contexts the table declares (`title.raw` only in edit, `content.rendered` in view
 * and edit, never in embed ...). Top-level fields declare no contexts, so only their types
 * are checked here; which top-level fields a context carries is WordPress behaviour
 * (checked at SHOULD level by the context suites).
 */
import type { FieldSpec } from '../../../schemas/types.ts';
import { isOfType, typesOf } from '../../../schemas/values.ts';
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import { READABLE_STATUSES, type Context, type PostType } from './collections.ts';

/**
 * A date-time as servers of this interface write it: RFC 3339, where the zone may be left
 * out (WordPress writes `date` in the site's time zone without an offset; the spec states
 * "date-time" without naming a profile, so the missing offset is not held against a server).
 */
const DATE_TIME_OUT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Problems with one value against its field description (type, format, enum, items, sub-properties). */
export function fieldProblems(path: string, spec: FieldSpec, value: unknown, context: Context | undefined, name = path): string[] {
  const problems: string[] = [];
  const types = typesOf(spec);
  // An object with no members, as PHP writes one ([]): e.g. meta when the server registers none of
  // its keys. Its type is not the finding; the members it lacks are (checked below where their
  // contexts are declared, and by the behaviours that own them: meta.footnotes by fields.footnotes-default).
  if (Array.isArray(value) && value.length === 0 && types.includes('object') && !types.includes('array')) value = {};
  if (types.length && !types.some((t) => isOfType(t, value))) {
    problems.push(`${path} is ${JSON.stringify(value)?.slice(0, 60)}, documented ${types.join(' or ')}`);
    return problems;
  }
  if (typeof value === 'string') {
    if (spec.format === 'date-time' && !DATE_TIME_OUT.test(value)) problems.push(`${path} "${value}" is not a date-time`);
    // A trashed item reads back with status "trash": the readable statuses are those of part 3.
    const allowed = name === 'status' ? READABLE_STATUSES : spec.enum;
    if (allowed && !allowed.includes(value)) problems.push(`${path} "${value}" is not one of ${allowed.join(', ')}`);
  }
  if (Array.isArray(value) && spec.items?.type) {
    value.forEach((v, i) => {
      if (!isOfType(String(spec.items!.type), v)) problems.push(`${path}[${i}] is ${JSON.stringify(v)}, documented ${spec.items!.type}`);
    });
  }
  if (spec.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [sub, subSpec] of Object.entries(spec.properties)) {
      const present = Object.prototype.hasOwnProperty.call(value, sub);
      if (context && subSpec.contexts) {
        const declared = subSpec.contexts.includes(context);
        if (present && !declared) problems.push(`${path}.${sub} is present in context ${context} (declared for ${subSpec.contexts.join(', ')} only)`);
        if (!present && declared) problems.push(`${path}.${sub} is missing in context ${context} (declared for ${subSpec.contexts.join(', ')})`);
      }
      if (present) problems.push(...fieldProblems(`${path}.${sub}`, subSpec, (value as Record<string, unknown>)[sub], context, sub));
    }
  }
  return problems;
}

/** Problems of one post or page in a response of the given context. */
export function itemProblems(fields: Record<string, FieldSpec>, item: unknown, context: Context): string[] {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return [`item is not an object: ${JSON.stringify(item)?.slice(0, 80)}`];
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(fields)) {
    if (!Object.prototype.hasOwnProperty.call(item, name)) continue;
    problems.push(...fieldProblems(name, spec, (item as Record<string, unknown>)[name], context, name));
  }
  return problems;
}

/**
 * The shape every list behaviour may rely on, and no more: each item is an object with an
 * integer `id`. The types of the other fields are owned by the context behaviours
 * (`cms.<type>.context.*`); a filter, query, lifecycle, revision or batch behaviour checks its
 * own item only, so that one field of a wrong type fails a handful of behaviours, not a hundred.
 */
export function idShapeProblems(items: unknown[], what = 'item'): string[] {
  const out: string[] = [];
  items.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) out.push(`${what} ${i} is not an object: ${JSON.stringify(item)?.slice(0, 80)}`);
    else if (!Number.isInteger((item as { id?: unknown }).id)) out.push(`${what} ${i} has id ${JSON.stringify((item as { id?: unknown }).id)}, not an integer`);
  });
  return out.slice(0, 3);
}

/** Revisions and autosaves: only `parent` and `id` (integers) are stated. */
export function revisionProblems(item: unknown, parent?: number): string[] {
  const r = item as { id?: unknown; parent?: unknown } | null;
  const problems: string[] = [];
  if (!r || typeof r !== 'object') return [`revision is not an object: ${JSON.stringify(item)?.slice(0, 80)}`];
  if (!Number.isInteger(r.id)) problems.push(`revision id is ${JSON.stringify(r.id)}, documented integer`);
  if (!Number.isInteger(r.parent)) problems.push(`revision parent is ${JSON.stringify(r.parent)}, documented integer`);
  else if (parent !== undefined && r.parent !== parent) problems.push(`revision ${String(r.id)} has parent ${String(r.parent)}, listed under ${parent}`);
  return problems;
}

/** The ids of a list response (non-integers are reported by the caller's checks). */
export const idsOf = (body: unknown): number[] => (Array.isArray(body) ? body.map((i) => (i as { id?: number })?.id).filter((x): x is number => typeof x === 'number') : []);

/** The text of a rendered/raw field object or a plain string. */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') {
    const o = v as { raw?: unknown; rendered?: unknown };
    return [o.raw, o.rendered].filter((x) => typeof x === 'string').join(' ');
  }
  return '';
}

/**
 * A behaviour that finds its fixtures through `?include=<ids>` relies on the include filter, which
 * `cms.<type>.filter.include` owns: when a listing scoped by include holds other items, include is
 * not honoured, and the behaviour skips naming that owner instead of failing with a list that is
 * not its own finding. (A list narrowed by include never holds an item outside it: the check cannot
 * hide a failure of the behaviour's own filter.)
 */
export function expectIncludeHonoured(t: BehaviourContext, type: PostType, include: readonly number[], listed: readonly number[], what: string): void {
  const owner = `cms.${type.name}.filter.include`;
  if (t.decl.id === owner) return;
  const outside = listed.filter((id) => !include.includes(id));
  if (outside.length)
    t.dependsOn(owner, `${what} lists item(s) ${outside.slice(0, 5).join(', ')}${outside.length > 5 ? ' …' : ''} outside include=${include.join(',')}: the include filter this check finds its fixtures by is not honoured`);
}

/**
 * The items of a listing by `search=<token>` that carry the token (in title, content, excerpt or
 * slug), as ids, but `known` (items the caller itself made with the token, e.g. a positive control).
 * A behaviour that finds items through a search for a token of its own relies on the search
 * filter, which `cms.<type>.filter.search` owns: when the listing holds items without the token and
 * nothing else to report, search is not honoured and the behaviour skips, depending on that owner.
 * Items that carry the token are returned whatever else is listed: they are the behaviour's own finding.
 */
export function tokenMatches(t: BehaviourContext, type: PostType, token: string, body: unknown, what: string, known: readonly number[] = []): number[] {
  const items = Array.isArray(body) ? body : [];
  const carries = (i: any) => [i?.title, i?.content, i?.excerpt, i?.slug].some((v) => textOf(v).includes(token));
  const found = idsOf(items.filter(carries)).filter((id) => !known.includes(id));
  const others = items.filter((i) => !carries(i));
  const owner = `cms.${type.name}.filter.search`;
  if (!found.length && others.length && t.decl.id !== owner)
    t.dependsOn(owner, `${what} lists ${others.length} item(s) (${idsOf(others).slice(0, 5).join(', ')}${others.length > 5 ? ' …' : ''}) that do not carry the token: the search filter this check finds its items by is not honoured`);
  return found;
}
