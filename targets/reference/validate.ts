/**
 * WordPress-compatible validation and sanitization of request values against a schema:
 * rest_validate_value_from_schema() and rest_sanitize_value_from_schema() of
 * wp-includes/rest-api.php, with their coercion rules for query-string values and their
 * messages (wordpress-behaviour.md §2). PHP arrays are JS arrays or plain objects here.
 */
import { RestError } from './errors.ts';
import type { WpSchema } from './schema.ts';

const ALLOWED_TYPES = ['array', 'object', 'string', 'number', 'integer', 'boolean', 'null'];

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);

/** PHP is_array(). */
const isPhpArray = (v: unknown): boolean => Array.isArray(v) || isPlainObject(v);

/** PHP is_scalar(). */
const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** PHP is_numeric(): a number, or a numeric string (leading/trailing whitespace allowed). */
export function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'string') return false;
  return /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(v);
}

/** PHP (float) of a numeric value. */
const toFloat = (v: unknown): number => (typeof v === 'number' ? v : Number(String(v).trim()));

/** rest_is_integer(). */
export const restIsInteger = (v: unknown): boolean => isNumeric(v) && Math.round(toFloat(v)) === toFloat(v);

/** rest_is_boolean(). */
export function restIsBoolean(v: unknown): boolean {
  if (typeof v === 'boolean') return true;
  if (typeof v === 'string') return ['false', 'true', '0', '1'].includes(v.toLowerCase());
  if (typeof v === 'number') return v === 0 || v === 1;
  return false;
}

/** rest_sanitize_boolean(). */
export function restSanitizeBoolean(v: unknown): boolean {
  if (typeof v === 'string') {
    const s = v.toLowerCase();
    if (s === 'false') return false;
    return s !== '' && s !== '0';
  }
  return Boolean(v);
}

/** wp_parse_list() of a scalar: preg_split('/[\s,]+/', ..., PREG_SPLIT_NO_EMPTY). */
export function parseList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v)) return Object.values(v);
  const s = typeof v === 'boolean' ? (v ? '1' : '') : String(v);
  return s.split(/[\s,]+/).filter((x) => x !== '');
}

/** wp_is_numeric_array(). */
const isNumericArray = (v: unknown): boolean =>
  Array.isArray(v) || (isPlainObject(v) && Object.keys(v).every((k) => /^(0|-?[1-9]\d*)$/.test(k)));

/** rest_is_array(). */
export const restIsArray = (v: unknown): boolean => isNumericArray(isScalar(v) ? parseList(v) : v);

/** rest_sanitize_array(). */
export function restSanitizeArray(v: unknown): unknown[] {
  if (isScalar(v)) return parseList(v);
  if (Array.isArray(v)) return [...v];
  if (isPlainObject(v)) return Object.values(v);
  return [];
}

/** rest_is_object(). */
export const restIsObject = (v: unknown): boolean => v === '' || isPhpArray(v);

/** rest_sanitize_object(). */
export function restSanitizeObject(v: unknown): Record<string, unknown> {
  if (v === '') return {};
  if (Array.isArray(v)) return Object.fromEntries(v.map((x, i) => [String(i), x]));
  if (isPlainObject(v)) return { ...v };
  return {};
}

/** wp_sprintf's %l: "a", "a and b", "a, b, and c". */
export function listJoin(items: readonly unknown[]): string {
  const s = items.map((x) => (typeof x === 'boolean' ? (x ? '1' : '') : String(x)));
  if (s.length <= 1) return s.join('');
  if (s.length === 2) return `${s[0]} and ${s[1]}`;
  return `${s.slice(0, -1).join(', ')}, and ${s[s.length - 1]}`;
}

/** PHP %d of a number. */
const d = (n: number): string => String(Math.trunc(n));

const typeError = (param: string, type: string): RestError =>
  new RestError('rest_invalid_type', `${param} is not of type ${type}.`, { param });

/** rest_get_best_type_for_value(). */
function bestType(value: unknown, types: string[]): string {
  if (value === '' && types.includes('string')) return 'string';
  const checks: Record<string, (v: unknown) => boolean> = {
    array: restIsArray,
    object: restIsObject,
    integer: restIsInteger,
    number: isNumeric,
    boolean: restIsBoolean,
    string: (v) => typeof v === 'string',
    null: (v) => v === null,
  };
  for (const t of types) if (checks[t]?.(value)) return t;
  return '';
}

/** rest_handle_multi_type_schema(): '' when no type fits. */
function multiType(value: unknown, types: string[]): string {
  const best = bestType(value, types);
  if (best) return best;
  const invalid = types.filter((t) => !ALLOWED_TYPES.includes(t));
  // Backward compatibility in WordPress: an unknown type in the list accepts the value.
  return invalid[0] ?? '';
}

/** rest_parse_date() accepts it. */
export function isValidDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}(?::\d{2})?)?$/.exec(value);
  if (!m) return false;
  const [y, mo, da, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  // strtotime() rejects impossible fields.
  if (mo < 1 || mo > 12 || da < 1 || da > 31 || h > 24 || mi > 59 || s > 59) return false;
  return y >= 0;
}

/** rest_are_values_equal(). */
function valuesEqual(a: unknown, b: unknown): boolean {
  if (isPhpArray(a) && isPhpArray(b)) {
    const ea = Object.entries(a as object);
    const eb = b as Record<string, unknown>;
    if (ea.length !== Object.keys(eb).length) return false;
    return ea.every(([k, v]) => k in eb && valuesEqual(v, eb[k]));
  }
  return a === b;
}

interface OneOfError {
  error: RestError;
  schema: WpSchema;
  index: number;
}

function formatCombiningError(param: string, e: OneOfError): RestError {
  if (e.schema.title)
    return new RestError('rest_no_matching_schema', `${param} is not a valid ${e.schema.title}. Reason: ${e.error.message}`, {
      position: e.index,
    });
  return new RestError('rest_no_matching_schema', `${param} does not match the expected format. Reason: ${e.error.message}`, {
    position: e.index,
  });
}

/** rest_get_combining_operation_error(). */
function combiningError(value: unknown, param: string, errors: OneOfError[]): RestError {
  if (errors.length === 1) return formatCombiningError(param, errors[0]!);
  const filtered = errors.filter((e) => {
    const data = e.error.data as { param?: string } | null;
    return e.error.code !== 'rest_invalid_type' || (data?.param !== undefined && data.param !== param);
  });
  if (filtered.length === 1) return formatCombiningError(param, filtered[0]!);
  if (filtered.length > 1 && filtered[0]!.schema.type === 'object') {
    let best: OneOfError | undefined;
    let n = 0;
    for (const e of filtered) {
      if (!e.schema.properties || !isPhpArray(value)) continue;
      const count = Object.keys(value as object).filter((k) => k in e.schema.properties!).length;
      if (count > n) {
        best = e;
        n = count;
      }
    }
    if (best) return formatCombiningError(param, best);
  }
  const titles = errors.map((e) => e.schema.title).filter((t): t is string => !!t);
  if (titles.length === errors.length) return new RestError('rest_no_matching_schema', `${param} is not a valid ${listJoin(titles)}.`);
  return new RestError('rest_no_matching_schema', `${param} does not match any of the expected formats.`);
}

/** rest_find_one_matching_schema(); with `anyOf`, rest_find_any_matching_schema() (the first alternative that matches). */
function findOneMatching(value: unknown, schema: WpSchema, param: string, stopAfterFirst: boolean, alternatives = schema.oneOf ?? []): WpSchema | RestError {
  const matching: { schema: WpSchema; index: number }[] = [];
  const errors: OneOfError[] = [];
  alternatives.forEach((alt0, index) => {
    const alt = alt0.type === undefined && schema.type !== undefined ? { ...alt0, type: schema.type } : alt0;
    const r = validateValue(value, alt, param);
    if (r === true) matching.push({ schema: alt, index });
    else errors.push({ error: r, schema: alt, index });
  });
  if (stopAfterFirst && matching.length) return matching[0]!.schema;
  if (!matching.length) return combiningError(value, param, errors);
  if (matching.length > 1) {
    const titles = matching.map((m) => m.schema.title).filter((t): t is string => !!t);
    const positions = matching.map((m) => m.index);
    if (titles.length === matching.length)
      return new RestError('rest_one_of_multiple_matches', `${param} matches ${listJoin(titles)}, but should match only one.`, { positions });
    return new RestError('rest_one_of_multiple_matches', `${param} matches more than one of the expected formats.`, { positions });
  }
  return matching[0]!.schema;
}

function uniqueItems(items: unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = JSON.stringify([typeof item, item]);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function validateNumber(value: unknown, s: WpSchema, param: string, type: string): true | RestError {
  if (!isNumeric(value)) return typeError(param, type);
  const n = toFloat(value);
  const { minimum: min, maximum: max } = s;
  if (min !== undefined && max === undefined && n < min)
    return new RestError('rest_out_of_bounds', `${param} must be greater than or equal to ${d(min)}`);
  if (max !== undefined && min === undefined && n > max)
    return new RestError('rest_out_of_bounds', `${param} must be less than or equal to ${d(max)}`);
  if (min !== undefined && max !== undefined && (n < min || n > max))
    return new RestError('rest_out_of_bounds', `${param} must be between ${d(min)} (inclusive) and ${d(max)} (inclusive)`);
  return true;
}

function validateArray(value: unknown, s: WpSchema, param: string): true | RestError {
  if (!restIsArray(value)) return typeError(param, 'array');
  const arr = restSanitizeArray(value);
  if (s.items) {
    for (let i = 0; i < arr.length; i++) {
      const r = validateValue(arr[i], s.items, `${param}[${i}]`);
      if (r !== true) return r;
    }
  }
  if (s.minItems !== undefined && arr.length < s.minItems)
    return new RestError('rest_too_few_items', `${param} must contain at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}.`);
  if (s.maxItems !== undefined && arr.length > s.maxItems)
    return new RestError('rest_too_many_items', `${param} must contain at most ${s.maxItems} item${s.maxItems === 1 ? '' : 's'}.`);
  if (s.uniqueItems && !uniqueItems(arr)) return new RestError('rest_duplicate_items', `${param} has duplicate items.`);
  return true;
}

function validateObject(value: unknown, s: WpSchema, param: string): true | RestError {
  if (!restIsObject(value)) return typeError(param, 'object');
  const obj = restSanitizeObject(value);
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    if (prop.required === true && !(name in obj))
      return new RestError('rest_property_required', `${name} is a required property of ${param}.`);
  }
  for (const [prop, v] of Object.entries(obj)) {
    const sub = s.properties?.[prop];
    if (sub) {
      const r = validateValue(v, sub, `${param}[${prop}]`);
      if (r !== true) return r;
      continue;
    }
    if (s.additionalProperties === false)
      return new RestError('rest_additional_properties_forbidden', `${prop} is not a valid property of Object.`);
    if (isPlainObject(s.additionalProperties)) {
      const r = validateValue(v, s.additionalProperties as WpSchema, `${param}[${prop}]`);
      if (r !== true) return r;
    }
  }
  return true;
}

function validateString(value: unknown, s: WpSchema, param: string): true | RestError {
  if (typeof value !== 'string') return typeError(param, 'string');
  const len = [...value].length;
  if (s.minLength !== undefined && len < s.minLength)
    return new RestError('rest_too_short', `${param} must be at least ${s.minLength} character${s.minLength === 1 ? '' : 's'} long.`);
  if (s.maxLength !== undefined && len > s.maxLength)
    return new RestError('rest_too_long', `${param} must be at most ${s.maxLength} character${s.maxLength === 1 ? '' : 's'} long.`);
  if (s.pattern !== undefined && !patternMatches(s.pattern, value))
    return new RestError('rest_invalid_pattern', `${param} does not match pattern ${s.pattern}.`);
  return true;
}

/**
 * A string `pattern`. The spec describes these patterns as the characters a value consists of
 * ("word characters and hyphen"), so the whole value must match (WordPress leaves it unanchored).
 */
function patternMatches(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u').test(value);
  } catch {
    return true;
  }
}

/** rest_validate_value_from_schema(): true or the first error. */
export function validateValue(value: unknown, schema: WpSchema, param: string): true | RestError {
  let s = schema;
  if (s.oneOf || s.anyOf) {
    const match = s.oneOf ? findOneMatching(value, s, param, false) : findOneMatching(value, s, param, true, s.anyOf);
    if (match instanceof RestError) return match;
    if (s.type === undefined && match.type !== undefined) s = { ...s, type: match.type };
  }
  let type = s.type;
  if (Array.isArray(type)) {
    const best = multiType(value, type);
    if (!best) return new RestError('rest_invalid_type', `${param} is not of type ${type.join(',')}.`, { param });
    type = best;
  }
  let r: true | RestError = true;
  switch (type) {
    case 'null':
      if (value !== null) r = typeError(param, 'null');
      break;
    case 'boolean':
      if (!restIsBoolean(value)) r = typeError(param, 'boolean');
      break;
    case 'object':
      r = validateObject(value, s, param);
      break;
    case 'array':
      r = validateArray(value, s, param);
      break;
    case 'number':
      r = validateNumber(value, s, param, 'number');
      break;
    case 'integer':
      r = validateNumber(value, s, param, 'integer');
      if (r === true && !restIsInteger(value)) r = typeError(param, 'integer');
      break;
    case 'string':
      r = validateString(value, s, param);
      break;
    default:
      // No type, or a type WordPress does not know (e.g. `text`): any value passes.
      break;
  }
  if (r !== true) return r;
  if (s.enum && s.enum.length && !s.enum.some((e) => valuesEqual(value, e))) {
    const shown = s.enum.map((e) => (isScalar(e) ? e : JSON.stringify(e)));
    if (shown.length === 1) return new RestError('rest_not_in_enum', `${param} is not ${listJoin(shown)}.`);
    return new RestError('rest_not_in_enum', `${param} is not one of ${listJoin(shown)}.`);
  }
  const formatApplies = type === undefined || type === 'string' || !ALLOWED_TYPES.includes(String(type));
  if (s.format && formatApplies && s.format === 'date-time' && !isValidDate(String(value)))
    return new RestError('rest_invalid_date', 'Invalid date.');
  return true;
}

/** rest_sanitize_value_from_schema(): the coerced value, or an error (oneOf, uniqueItems). */
export function sanitizeValue(value: unknown, schema: WpSchema, param: string): unknown {
  let s = schema;
  if (s.oneOf || s.anyOf) {
    const match = findOneMatching(value, s, param, true, s.oneOf ?? s.anyOf);
    if (match instanceof RestError) return match;
    return sanitizeValue(value, match, param);
  }
  let type = s.type;
  if (Array.isArray(type)) {
    const best = multiType(value, type);
    if (!best) return value;
    type = best;
  }
  switch (type) {
    case 'array': {
      const arr = restSanitizeArray(value);
      const out = s.items ? arr.map((v, i) => sanitizeValue(v, s.items!, `${param}[${i}]`)) : arr;
      if (s.uniqueItems && !uniqueItems(out)) return new RestError('rest_duplicate_items', `${param} has duplicate items.`);
      return out;
    }
    case 'object': {
      const obj = restSanitizeObject(value);
      for (const [prop, v] of Object.entries(obj)) {
        const sub = s.properties?.[prop];
        if (sub) obj[prop] = sanitizeValue(v, sub, `${param}[${prop}]`);
        else if (s.additionalProperties === false) delete obj[prop];
        else if (isPlainObject(s.additionalProperties)) obj[prop] = sanitizeValue(v, s.additionalProperties as WpSchema, `${param}[${prop}]`);
      }
      return obj;
    }
    case 'null':
      return null;
    case 'integer':
      return Math.trunc(toFloat(value));
    case 'number':
      return toFloat(value);
    case 'boolean':
      return restSanitizeBoolean(value);
    case 'string':
      if (s.format === 'date-time') return sanitizeTextField(String(value));
      return typeof value === 'string' ? value : String(value);
    default:
      return value;
  }
}

/** sanitize_text_field(): tags stripped, whitespace collapsed, trimmed. */
export function sanitizeTextField(s: string): string {
  return s
    .replace(/<[^>]*>/g, '')
    .replace(/[\r\n\t ]+/g, ' ')
    .trim();
}
