/**
 * Requests judged against the exported OpenAPI document (src/openapi/build.ts, `cms-conformance openapi`,
 * spec profile): the proof that the suite sends only what the spec documents, in the form the
 * document declares (issue 34, item 2).
 *
 * Each request of a run's events log (events.ndjson: method, URL, request body, and the arguments
 * a refusal check sends wrong on purpose, `invalid`) is matched to its operation by the route of
 * `?rest_route=` (or a `/wp-json/` path; a segment whose documented pattern takes a slash spans
 * several) and checked:
 * - the path segments against their schemas;
 * - every query parameter: documented for the operation (unless its arguments are open or not
 *   shown), in the declared serialisation (arrays `style: form, explode: false`: one key, a comma
 *   list; objects `style: deepObject`: `o[k]=v`, an array inside as a comma list), its value
 *   against the schema (the text read as the schema's type: integers, numbers, `true`/`false`);
 *   required ones sent;
 * - the JSON body against the operation's request body schema, every property documented, the
 *   required ones sent; a body on an operation without one is a violation unless it is `{}`
 *   (no argument); where the arguments are not shown, any body;
 * - each item of a batch as a request of its own (its method, its path with the query, its body).
 *
 * A request whose `invalid` names arguments passes when its violations are all on those arguments
 * and there is at least one (the documented argument with a wrong value, or left out); one that
 * names none passes when it has no violation. A value the events log redacted (`"[redacted]"`) is
 * not judged; a declared invalid argument so redacted is taken as sent wrong.
 *
 * No Prism here: Prism validates requests as a proxy (slow for a full run) and reads no events log;
 * ajv against the same document judges a run's log in about a second.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Doc = Record<string, any>;
type Schema = Record<string, any>;

export interface RequestToCheck {
  method: string;
  /** The URL as sent (`{base}/index.php?rest_route=…&…` or `{base}/wp-json/<route>?…`). */
  url: string;
  requestBody?: string;
  /** Arguments sent wrong on purpose (a refusal check's input), by name. */
  invalid?: readonly string[];
  behaviour?: string;
}

export interface RequestViolation {
  /** Where: `route`, `method`, `path.<name>`, `query.<name>`, `body`, `body.<name>`; for a batch item `requests[i].` before it. */
  at: string;
  /**
   * The argument the violation is on (for matching `invalid`): a query, path or body argument's
   * name; `route` (no documented route) or `method` (not documented for the route); for a batch
   * item the item's argument, and `requests` (the batch's own argument) as well.
   */
  args: string[];
  message: string;
  /** Not a violation: a value the events log redacted (`[redacted]`), which cannot be judged; it stands for a declared invalid argument. */
  unjudged?: true;
}

export interface CheckedRequest {
  request: RequestToCheck;
  /** `METHOD /route` of the operation, or undefined when no documented route matched. */
  operation?: string;
  violations: RequestViolation[];
  /** The request keeps the rule: no violation, or (declared invalid) violations only on the declared arguments. */
  ok: boolean;
  /** Why it does not, when it does not. */
  why?: string;
}

interface Operation {
  path: string;
  method: string;
  op: Doc;
  pathParams: Map<string, Schema>;
  query: Map<string, Doc>;
  body?: Schema;
  open: boolean;
}

interface Route {
  path: string;
  regex: RegExp;
  names: string[];
  literal: number;
  item: Doc;
}

const REDACTED = '[redacted]';
const NUMERIC = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** A decoded query component (`+` is a space; a bad %-sequence is kept). */
function decode(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}

const typesOf = (s: Schema | undefined): string[] => (s?.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type]);

/** The text of a query value as the JSON value the schema describes (a string when nothing else fits). */
function fromText(text: string, s: Schema | undefined): unknown {
  const types = typesOf(s);
  if ((types.includes('integer') || types.includes('number')) && NUMERIC.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === '' && !types.includes('string')) return null;
  return text;
}

/** A comma list as the array it declares (`a=` is the empty list). */
function fromList(text: string, s: Schema): unknown[] {
  if (text === '') return [];
  return text.split(',').map((t) => fromText(t, s.items));
}

export class RequestChecker {
  private readonly routes: Route[];
  private readonly ajv: Ajv;
  private readonly compiled = new Map<Schema, ValidateFunction>();

  constructor(readonly doc: Doc) {
    this.ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
    addFormats.default(this.ajv);
    this.ajv.addKeyword({ keyword: 'x-contexts' });
    this.routes = Object.entries(doc.paths as Doc).map(([path, item]) => {
      const names: string[] = [];
      // A segment whose documented pattern takes a slash (`/plugin/<plugin>`: "letters a-z, slash ...") spans several.
      const slashy = new Set(((item.parameters as Doc[] | undefined) ?? []).filter((p) => p.in === 'path' && /\//.test(String(p.schema?.pattern ?? ''))).map((p) => p.name as string));
      const src = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, n: string) => {
        names.push(n);
        return slashy.has(n) ? '(.+)' : '([^/]+)';
      });
      return { path, regex: new RegExp(`^${src}$`), names, literal: path.replace(/\{[^}]+\}/g, '').length, item };
    });
    // A literal route before a templated one (`/module/all` before `/module/{slug}`).
    this.routes.sort((a, b) => a.names.length - b.names.length || b.literal - a.literal);
  }

  private validate(schema: Schema, value: unknown): ErrorObject[] {
    let fn = this.compiled.get(schema);
    if (!fn) this.compiled.set(schema, (fn = this.ajv.compile(schema)));
    return fn(value) ? [] : [...(fn.errors ?? [])];
  }

  /** The operation of `method route`, with what it documents. */
  private operation(method: string, route: string): { op?: Operation; violation?: RequestViolation; params?: Record<string, string> } {
    for (const r of this.routes) {
      const m = r.regex.exec(route);
      if (!m) continue;
      const op = r.item[method.toLowerCase()] as Doc | undefined;
      if (!op) return { violation: { at: 'method', args: ['method'], message: `${method} is not documented for ${r.path} (documented: ${Object.keys(r.item).filter((k) => /^(get|post|put|patch|delete)$/.test(k)).map((k) => k.toUpperCase()).join(', ')})` } };
      const pathParams = new Map<string, Schema>();
      for (const p of [...((r.item.parameters as Doc[]) ?? []), ...((op.parameters as Doc[]) ?? [])]) if (p.in === 'path') pathParams.set(p.name, p.schema ?? {});
      const query = new Map<string, Doc>();
      for (const p of (op.parameters as Doc[]) ?? []) if (p.in === 'query') query.set(p.name, p);
      const body = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      const open = op['x-cms-conformance-args-open'] === true || (op['x-cms-conformance-not-shown'] as string[] | undefined)?.some((w) => /^Parameters|parameters/i.test(w)) === true;
      return { op: { path: r.path, method, op, pathParams, query, body, open }, params: Object.fromEntries(r.names.map((n, i) => [n, decode(m[i + 1]!)])) };
    }
    return { violation: { at: 'route', args: ['route'], message: `no documented route matches ${route}` } };
  }

  private errors(prefix: string, arg: string | undefined, errs: ErrorObject[]): RequestViolation[] {
    return errs.map((e) => ({ at: `${prefix}${e.instancePath.replace(/\//g, '.')}`, args: arg === undefined ? [] : [arg], message: `${prefix}${e.instancePath.replace(/\//g, '.')} ${e.message ?? 'is invalid'}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}` }));
  }

  /** Violations of one request (a batch item: `prefix` "requests[i]."). */
  private check(method: string, route: string, rawQuery: string, body: string | undefined, prefix = ''): { operation?: string; violations: RequestViolation[] } {
    const { op, violation, params } = this.operation(method, route);
    if (!op) return { violations: [{ ...violation!, at: `${prefix}${violation!.at}`, message: `${prefix}${violation!.message}` }] };
    const out: RequestViolation[] = [];
    for (const [name, text] of Object.entries(params ?? {})) {
      const schema = op.pathParams.get(name);
      if (schema) out.push(...this.errors(`${prefix}path.${name}`, name, this.validate(schema, fromText(text, schema))));
    }
    out.push(...this.checkQuery(op, rawQuery, prefix));
    out.push(...this.checkBody(op, body, prefix));
    return { operation: `${method} ${op.path}`, violations: out };
  }

  private checkQuery(op: Operation, rawQuery: string, prefix: string): RequestViolation[] {
    const out: RequestViolation[] = [];
    const seen = new Map<string, number>();
    const objects = new Map<string, Record<string, unknown>>();
    for (const pair of rawQuery.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = decode(eq === -1 ? pair : pair.slice(0, eq));
      const text = eq === -1 ? '' : decode(pair.slice(eq + 1));
      if (name === 'rest_route') continue;
      const at = `${prefix}query.${name}`;
      const bracket = /^([^[\]]+)((?:\[[^\]]*\])+)$/.exec(name);
      const base = bracket ? bracket[1]! : name;
      const p = op.query.get(base);
      if (!p) {
        if (!op.open) out.push({ at, args: [base], message: `${at}: not a documented parameter of ${op.method} ${op.path}` });
        continue;
      }
      const schema = (p.schema ?? {}) as Schema;
      if (bracket) {
        const keys = [...bracket[2]!.matchAll(/\[([^\]]*)\]/g)].map((k) => k[1]!);
        if (p.style !== 'deepObject' || keys.length !== 1 || keys[0] === '') {
          out.push({ at, args: [base], message: `${at}: ${base} is declared ${p.style ?? 'form'}${p.style === 'deepObject' ? ' (o[k]=v)' : ', explode false (one key, a comma list)'}, not sent as ${name}` });
          continue;
        }
        const obj = objects.get(base) ?? {};
        objects.set(base, obj);
        const propSchema = objectBranch(schema)?.properties?.[keys[0]!] as Schema | undefined;
        obj[keys[0]!] = typesOf(propSchema).includes('array') || (propSchema && !propSchema.type && Array.isArray(propSchema.default)) ? fromList(text, propSchema ?? {}) : fromText(text, propSchema);
        continue;
      }
      seen.set(base, (seen.get(base) ?? 0) + 1);
      if (seen.get(base) === 2) out.push({ at, args: [base], message: `${at}: sent more than once (declared ${p.style === 'form' && p.explode === false ? 'form, explode false: one key, a comma list' : 'once'})` });
      if (text === REDACTED) {
        out.push({ at, args: [base], message: `${at}: redacted, not judged`, unjudged: true });
        continue;
      }
      const types = typesOf(schema);
      const value = types.includes('array') ? fromList(text, arrayBranch(schema) ?? schema) : fromText(text, schema);
      const judged = types.includes('array') && types.includes('object') ? arrayBranch(schema)! : schema;
      out.push(...this.errors(at, base, this.validate(judged, value)));
    }
    for (const [name, value] of objects) {
      const schema = op.query.get(name)!.schema as Schema;
      out.push(...this.errors(`${prefix}query.${name}`, name, this.validate(objectBranch(schema) ?? schema, value)));
    }
    for (const [name, p] of op.query) if (p.required && !seen.has(name) && !objects.has(name)) out.push({ at: `${prefix}query.${name}`, args: [name], message: `${prefix}query.${name}: required, not sent` });
    return out;
  }

  private checkBody(op: Operation, body: string | undefined, prefix: string): RequestViolation[] {
    if (body === undefined || body === '') {
      const required = op.op.requestBody?.required === true;
      return required ? [{ at: `${prefix}body`, args: ((op.body?.required as string[] | undefined) ?? []), message: `${prefix}body: required by ${op.method} ${op.path}, not sent` }] : [];
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      // A body the document does not describe (multipart, form) where the arguments are not shown.
      return op.open ? [] : [{ at: `${prefix}body`, args: [], message: `${prefix}body: not JSON` }];
    }
    if (!op.body) {
      // An empty object carries no argument.
      if (op.open || (json && typeof json === 'object' && !Array.isArray(json) && Object.keys(json).length === 0)) return [];
      return [{ at: `${prefix}body`, args: Object.keys(json ?? {}), message: `${prefix}body: ${op.method} ${op.path} documents no body` }];
    }
    const out: RequestViolation[] = [];
    const props = (op.body.properties ?? {}) as Record<string, Schema>;
    if (json && typeof json === 'object' && !Array.isArray(json)) {
      for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
        if (!(k in props)) {
          if (!op.open) out.push({ at: `${prefix}body.${k}`, args: [k], message: `${prefix}body.${k}: not a documented argument of ${op.method} ${op.path}` });
          continue;
        }
        if (v === REDACTED) {
          out.push({ at: `${prefix}body.${k}`, args: [k], message: `${prefix}body.${k}: redacted, not judged`, unjudged: true });
          continue;
        }
        out.push(...this.errors(`${prefix}body.${k}`, k, this.validate(props[k]!, v)));
      }
      for (const k of (op.body.required as string[] | undefined) ?? []) if (!(k in (json as object))) out.push({ at: `${prefix}body.${k}`, args: [k], message: `${prefix}body.${k}: required, not sent` });
      if (op.path === '/batch/v1') out.push(...this.checkBatchItems((json as { requests?: unknown }).requests));
    } else out.push({ at: `${prefix}body`, args: [], message: `${prefix}body: not a JSON object` });
    return out;
  }

  /** Each batch item as a request of its own: arguments named as the item's, `requests[i].` before where. */
  private checkBatchItems(items: unknown): RequestViolation[] {
    if (!Array.isArray(items)) return [];
    const out: RequestViolation[] = [];
    items.forEach((item, i) => {
      if (!item || typeof item !== 'object' || typeof (item as { path?: unknown }).path !== 'string') return;
      const { method = 'POST', path, body } = item as { method?: string; path: string; body?: unknown };
      const q = path.indexOf('?');
      const route = q === -1 ? path : path.slice(0, q);
      // An item's violation is its argument's, and the batch's own argument `requests`.
      for (const v of this.check(String(method).toUpperCase(), route, q === -1 ? '' : path.slice(q + 1), body === undefined ? undefined : JSON.stringify(body), `requests[${i}].`).violations) out.push({ ...v, args: [...v.args, 'requests'] });
    });
    return out;
  }

  /** One request of a run, judged. */
  checkRequest(req: RequestToCheck): CheckedRequest {
    const { route, rawQuery } = routeOf(req.url);
    if (route === undefined) return { request: req, violations: [], ok: true };
    const { operation, violations: found } = this.check(req.method, route, rawQuery, req.requestBody);
    const violations = found.filter((v) => !v.unjudged);
    const invalid = req.invalid ?? [];
    if (!invalid.length) return { request: req, operation, violations, ok: violations.length === 0, ...(violations.length ? { why: violations.map((v) => v.message).join('; ') } : {}) };
    const elsewhere = violations.filter((v) => !v.args.some((a) => invalid.includes(a)));
    if (elsewhere.length) return { request: req, operation, violations, ok: false, why: `declared invalid ${invalid.join(', ')}, but also: ${elsewhere.map((v) => v.message).join('; ')}` };
    // A declared argument whose value was redacted in the log cannot be judged: taken as sent wrong.
    if (!violations.length && !found.some((v) => v.unjudged && v.args.some((a) => invalid.includes(a))))
      return { request: req, operation, violations, ok: false, why: `declared invalid ${invalid.join(', ')}, but the document admits the request` };
    return { request: req, operation, violations, ok: true };
  }
}

/** The branch of a union schema that is an array (`oneOf`, `anyOf`, or the schema itself). */
function arrayBranch(s: Schema): Schema | undefined {
  for (const b of [...(s.oneOf ?? []), ...(s.anyOf ?? [])] as Schema[]) if (typesOf(b).includes('array')) return b;
  return typesOf(s).includes('array') ? s : undefined;
}

function objectBranch(s: Schema): Schema | undefined {
  for (const b of [...(s.oneOf ?? []), ...(s.anyOf ?? [])] as Schema[]) if (typesOf(b).includes('object')) return b;
  return typesOf(s).includes('object') ? s : undefined;
}

/** The route and the rest of the query of a URL (`?rest_route=` or `/wp-json/`); route undefined for a page that is not a REST route. */
export function routeOf(url: string): { route?: string; rawQuery: string } {
  const u = new URL(url);
  const raw = u.search.replace(/^\?/, '');
  const parts = raw.split('&');
  const i = parts.findIndex((p) => p.startsWith('rest_route='));
  if (i !== -1) {
    const route = decode(parts[i]!.slice('rest_route='.length)) || '/';
    parts.splice(i, 1);
    return { route: route.startsWith('/') ? route : `/${route}`, rawQuery: parts.join('&') };
  }
  const m = /^\/wp-json(\/.*)?$/.exec(u.pathname);
  if (m) return { route: decode(m[1] ?? '/'), rawQuery: raw };
  return { rawQuery: raw };
}

/**
 * Requests a run makes on purpose outside the document, each with its reason: they are reported as
 * such (counted), not as violations. Keep this list short: every entry is a request the spec does
 * not document.
 */
export const OUTSIDE_THE_DOCUMENT: readonly { behaviour: RegExp; route: RegExp; reason: string; anyViolation?: true }[] = [
  {
    behaviour: /^(index\.namespaces\.served|namespaces\..+)$/,
    route: /^\/[a-z0-9-]+(\/[a-z0-9.-]+)*$/,
    reason:
      'GET /<namespace> of an advertised namespace whose routes the documents do not show (cms-site-health/v1, cloud/v2 ...): these behaviours hold every advertised namespace to serving its index',
  },
  {
    behaviour: /^setup$/,
    route: /^\/cms-conformance-no-such-namespace\//,
    reason: 'the run\'s one probe of what the target answers for a route that surely does not exist (src/core/no-route.ts): a missing route\'s 404 is told from a missing item\'s where the target has no error codes',
  },
  {
    behaviour: /^client\./,
    route: /^\//,
    anyViolation: true,
    reason:
      'the client-readiness profile (level CLIENT, suites/clients/) sends what real clients send, outside the documents on purpose: _locale=user, _embed, title and content as strings, X-HTTP-Method-Override, a percent-encoded rest_route',
  },
  {
    behaviour: /^suite\.settings\.per-module-values\./,
    route: /^\/suite\/v4\/settings\/[^/]+$/,
    anyViolation: true,
    reason:
      'SHOULD, a WordPress convention: every allowed value of a setting through POST /settings/<slug>, the per-module route as the reference implementation serves it (its parameter table lists only context); a setting whose module the target does not name is sent to a documented module\'s route',
  },
  {
    behaviour: /^(setup|sweep)$/,
    route: /^\/(cms|wp)\/v2\/settings$/,
    reason: 'the site-state net of src/run/site-state.ts reads the core settings (WordPress\'s /wp/v2/settings; "all other collections of the core namespace: not shown") to set back what a run changed',
  },
];

export interface RunCheck {
  /** Requests judged (REST routes; pages the index links to are not). */
  checked: number;
  /** Of those, sent with arguments declared wrong on purpose, and keeping to it. */
  declaredInvalid: number;
  /** Requests outside the document for a stated reason (OUTSIDE_THE_DOCUMENT), by reason. */
  outside: Record<string, number>;
  /** The requests that break the rule. */
  failures: CheckedRequest[];
}

/** Every request of a run's events log (events.ndjson lines, parsed) judged against `doc`. */
export function checkRun(doc: Doc, events: readonly RequestToCheck[]): RunCheck {
  const checker = new RequestChecker(doc);
  const out: RunCheck = { checked: 0, declaredInvalid: 0, outside: {}, failures: [] };
  for (const e of events) {
    const { route } = routeOf(e.url);
    if (route === undefined) continue;
    out.checked++;
    const r = checker.checkRequest(e);
    if (r.ok) {
      if (e.invalid?.length) out.declaredInvalid++;
      continue;
    }
    const excuse = OUTSIDE_THE_DOCUMENT.find((x) => x.behaviour.test(e.behaviour ?? '') && x.route.test(route) && (x.anyViolation || r.violations.every((v) => v.at === 'route')));
    if (excuse) out.outside[excuse.reason] = (out.outside[excuse.reason] ?? 0) + 1;
    else out.failures.push(r);
  }
  return out;
}

/** One line per failing request: behaviour, request as sent, why. */
export const describeFailure = (r: CheckedRequest): string => {
  const { route, rawQuery } = routeOf(r.request.url);
  return `${r.request.behaviour ?? '?'}: ${r.request.method} ${route}${rawQuery ? `?${decode(rawQuery)}` : ''}${r.request.requestBody ? ` ${r.request.requestBody.slice(0, 160)}` : ''} :: ${r.why}`;
};
