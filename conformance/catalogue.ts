/**
 * The catalogue of behaviours (conformance/behaviours.yaml), in the spirit of Kubernetes'
 * conformance.yaml: one entry per behaviour, sorted by ID, with its level, namespace, spec
 * section, what it checks (its title, the spec sentence when the declaration gives one, and the
 * catalog facts it covers, each rendered from schemas/catalog), where behaviour() declares it
 * (path:line) and the named faults (faults/*.ts `caughtBy`) that prove it.
 *
 * Generated, never hand-written: `npm run catalogue` rewrites it; test/catalogue.test.ts fails
 * when the committed file differs from what the declarations give.
 *
 *   npx tsx conformance/catalogue.ts           # rewrite conformance/behaviours.yaml
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { catalog } from '../schemas/catalog/index.ts';
import type { ArgSpec, Catalog, EndpointSpec, FieldSpec, RouteSpec } from '../schemas/types.ts';
import { allFaults } from '../faults/index.ts';
import { matchesCaughtBy, type Fault } from '../faults/proxy.ts';
import { PKG_ROOT } from '../src/core/paths.ts';
import type { ListedBehaviour } from '../src/engine/list.ts';

export const CATALOGUE_FILE = join(PKG_ROOT, 'conformance', 'behaviours.yaml');
export const CATALOGUE_COMMAND = 'npm run catalogue';

const HEADER = `# The behaviours of cms-conformance: one entry per behaviour, sorted by ID.
#   id         the behaviour's ID (results.json, --only, baselines)
#   level      SECURITY, MUST, SHOULD or CLIENT
#   namespace  the namespace it belongs to ('' for the site index and batch)
#   spec       the document and section it checks
#   checks     what it checks (its title); sentence: the spec sentence, when the declaration gives one
#   facts      the catalog facts it covers (schemas/catalog), each as the catalog states it
#   location   where behaviour() declares it (path:line; also in list --json and results.json)
#   client     for a CLIENT behaviour: what the spec says of it (stated, silent, contrary) and each
#              client that relies on it: package version, file, function, its flows that break, how.
#              Proven by the reference-server dialects that break it and by the clients themselves
#              (test/clients.test.ts)
#   provenBy   the named faults (faults/*.ts) it must catch; selftest runs each. Empty for most of the
#              discovery behaviours made per catalog item: they are proven per kind of check
#              (test/discovery-faults.test.ts)
# Generated from the declarations: do not edit. After adding or changing behaviours or faults:
#   ${CATALOGUE_COMMAND}
`;

const json = (v: unknown) => JSON.stringify(v);
const typeText = (t: string | readonly string[] | undefined) => (t === undefined ? undefined : Array.isArray(t) ? t.join('|') : String(t));

/** An arg, parameter, setting or field as the catalog states it: "integer; default 10; minimum 1; maximum 100". */
function specText(s: ArgSpec | FieldSpec): string {
  const a = s as ArgSpec & FieldSpec;
  const parts: string[] = [];
  const type = typeText(a.type);
  if (type) parts.push(a.items?.type ? `${type} of ${typeText(a.items.type)}` : type);
  if (a.format) parts.push(`format ${a.format}`);
  if (a.required) parts.push('required');
  if ('default' in a && a.default !== undefined) parts.push(`default ${json(a.default)}`);
  if (a.enum) parts.push(`one of ${a.enum.map((v) => json(v)).join(', ')}`);
  if (a.items?.enum) parts.push(`items one of ${a.items.enum.map((v) => json(v)).join(', ')}`);
  for (const k of ['minimum', 'maximum', 'minLength', 'maxLength', 'maxItems'] as const) if (a[k] !== undefined) parts.push(`${k} ${a[k]}`);
  if (a.uniqueItems) parts.push('unique items');
  if (a.pattern) parts.push(`pattern ${a.pattern}`);
  if (a.oneOf) parts.push(`one of ${a.oneOf.length} forms`);
  if (a.contexts) parts.push(`contexts ${a.contexts.join(', ')}`);
  if (a.readonly) parts.push('read-only');
  if (a.note) parts.push(a.note);
  return parts.join('; ') || 'stated without attributes';
}

const methodsOf = (r: RouteSpec) => [...new Set(r.endpoints.flatMap((e) => e.methods))].join(', ');

function endpointOf(c: Catalog, id: string): { route: RouteSpec; endpoint: EndpointSpec } | undefined {
  for (const route of c.routes) for (const endpoint of route.endpoints) if (endpoint.id === id) return { route, endpoint };
  return undefined;
}

/** The longest catalog ID that starts `rest` and is followed by the end or a separator. */
function splitId(rest: string, ids: Iterable<string>): [id: string, tail: string] | undefined {
  let best: string | undefined;
  for (const id of ids) if ((rest === id || (rest.startsWith(id) && /[.#@:]/.test(rest.charAt(id.length)))) && id.length > (best?.length ?? -1)) best = id;
  return best === undefined ? undefined : [best, rest.slice(best.length + 1)];
}

function fieldOf(fields: Record<string, FieldSpec>, path: string): FieldSpec | undefined {
  const [name, ...rest] = path.split('.');
  const f = fields[name!];
  return rest.length && f?.properties ? fieldOf(f.properties, rest.join('.')) : rest.length ? undefined : f;
}

/**
 * A `covers` ID with the fact it names, as the catalog states it:
 * "arg:batch.v1.create.requests — POST /batch/v1 requests: array of object; maxItems 25".
 * An ID the catalog does not resolve is given alone.
 */
export function factOf(cover: string, c: Catalog = catalog): string {
  const fact = (text: string) => `${cover} — ${text}`;
  const [kind, ...restParts] = cover.split(':');
  const rest = restParts.join(':');
  if (kind === 'endpoint' || kind === 'batch' || kind === 'arg') {
    const endpoints = c.routes.flatMap((r) => r.endpoints.map((e) => e.id));
    const hit = splitId(rest, endpoints);
    const ep = hit && endpointOf(c, hit[0]);
    if (ep) {
      const head = `${ep.endpoint.methods.join(', ')} ${ep.route.path}`;
      if (kind === 'endpoint') return fact(hit[1] && /^[A-Z]+$/.test(hit[1]) ? `${hit[1]} ${ep.route.path}` : head);
      if (kind === 'batch') return fact(`${head}: allow_batch ${json(ep.endpoint.allowBatch ?? null)}`);
      const [argName, attr] = hit[1].split('#');
      const arg = ep.endpoint.args === 'not-shown' ? undefined : ep.endpoint.args[argName!];
      if (arg) return fact(`${head} ${argName}${attr ? ` (${attr})` : ''}: ${specText(arg)}`);
    }
  }
  if (kind === 'route') {
    const route = c.routes.find((r) => r.id === rest);
    if (route) return fact(`${methodsOf(route)} ${route.path}`);
  }
  if (kind === 'param') {
    const hit = splitId(rest, c.routes.map((r) => r.id));
    const route = hit && c.routes.find((r) => r.id === hit[0]);
    const param = route?.params?.[hit![1]];
    if (route && param) return fact(`${route.path} <${hit![1]}>: ${specText(param)}`);
  }
  if (kind === 'field') {
    const hit = splitId(rest, c.resources.map((r) => r.id));
    const resource = hit && c.resources.find((r) => r.id === hit[0]);
    if (resource && !hit![1]) {
      const fields = resource.fields === 'not-shown' ? 'fields not shown' : `fields ${Object.keys(resource.fields).join(', ')}`;
      return fact(`${resource.id}${resource.route ? ` (${resource.route})` : ''}: ${fields}`);
    }
    if (resource && resource.fields !== 'not-shown') {
      const [path, context] = hit![1].split('@');
      const field = fieldOf(resource.fields, path!);
      if (field) return fact(`${resource.id}.${path}${context ? ` in context ${context}` : ''}: ${specText(field)}`);
    }
  }
  if (cover.startsWith('namespace.')) return fact(`namespace ${cover.slice('namespace.'.length)} is advertised`);
  if (cover.startsWith('authentication.')) return fact(`authentication by ${c.authentication.scheme}`);
  const indexField = c.indexFields.find((f) => f.id === cover);
  if (indexField) return fact(`index field ${indexField.name}: ${specText(indexField as unknown as ArgSpec)}`);
  const setting = c.settings.find((s) => s.id === cover);
  if (setting) return fact(`setting ${setting.name}: ${specText(setting as unknown as ArgSpec)}`);
  const module = c.modules.find((m) => m.id === cover);
  if (module) return fact(`module ${module.slug}: inactive by default`);
  const limit = c.limits.find((l) => l.id === cover);
  if (limit) return fact(`${limit.what}: ${limit.value}`);
  return cover;
}

export interface CatalogueEntry {
  id: string;
  level: string;
  namespace: string;
  spec: string;
  checks: string;
  sentence?: string;
  facts: string[];
  location: string;
  provenBy: string[];
  client?: { spec: string; specSays?: string; reliedOnBy: string[] };
}

/** The catalogue's entries, sorted by ID (code point order, stable across locales). */
export function catalogueEntries(behaviours: readonly ListedBehaviour[], faults: readonly Fault[] = allFaults, c: Catalog = catalog): CatalogueEntry[] {
  return [...behaviours]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((b) => ({
      id: b.id,
      level: b.level,
      namespace: b.namespace,
      spec: b.spec,
      checks: b.title,
      ...(b.sentence ? { sentence: b.sentence } : {}),
      facts: [...new Set(b.covers)].map((cover) => factOf(cover, c)),
      location: b.location ?? b.file,
      provenBy: faults.filter((f) => matchesCaughtBy(f, b.id)).map((f) => f.id).sort(),
      ...(b.client
        ? {
            client: {
              spec: b.client.spec,
              ...(b.client.specSays ? { specSays: b.client.specSays } : {}),
              reliedOnBy: b.client.reliedOnBy.map((r) => `${r.package ?? r.client} ${r.version ?? ''} ${r.file} ${r.function} — ${r.flows.join(', ')}: ${r.breaks}`),
            },
          }
        : {}),
    }));
}

/** The text of conformance/behaviours.yaml. */
export function renderCatalogue(behaviours: readonly ListedBehaviour[], faults: readonly Fault[] = allFaults): string {
  return HEADER + stringify(catalogueEntries(behaviours, faults), { lineWidth: 0 });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { listBehaviours } = await import('../src/engine/list.ts');
  const { behaviours, errors } = await listBehaviours();
  if (errors.length) {
    process.stderr.write(`cannot list the behaviours:\n${errors.join('\n')}\n`);
    process.exit(1);
  }
  writeFileSync(CATALOGUE_FILE, renderCatalogue(behaviours));
  process.stdout.write(`${CATALOGUE_FILE}: ${behaviours.length} behaviours\n`);
}
