/**
 * The writable fields of a post type, one by one (2. Resources and their fields; 4. Endpoints):
 * every writable field sent with a documented value, or the target's own current value where
 * the spec leaves the valid set open (author = the current user, categories = what the target
 * gave a new item, template and featured_media as a new item has them), is accepted and stored
 * on create, on update and by an autosave; every documented value of the enum fields is stored;
 * a value of the wrong type, outside the enum or not a date-time is refused and changes
 * nothing (positive control: the valid write is accepted); meta.footnotes defaults to "";
 * the slug is unique for the type; excerpt_length shortens the generated excerpt.
 *
 * Every check re-reads the item (edit context), not only the status code.
 */
import { endpointById } from '../../../schemas/catalog/index.ts';
import type { ArgSpec } from '../../../schemas/types.ts';
import { behaviour, fixtures, runContext, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import { answerOf, expectControlAccepted, whyNotAccepted } from '../../../src/sdk/controls.ts';
import type { PostType } from './collections.ts';
import { tokenMatches } from './items.ts';
import { advertisedEndpoint, findAdvertisedRoute, isObject } from '../../../src/sdk/discovery.ts';
import { excerptLengthOnSite } from './reads-site.ts';
import { fileSetup } from './setup.ts';
import { cmsDecl } from './declare.ts';
import { readAfter, readBackEdit, readBefore, readItemEdit, tryCreateItem } from './read-back.ts';
import { textFields } from '../../../src/sdk/http.ts';
import { siteDateTime, zonedDates } from '../../../src/sdk/timezone.ts';

const ok = (status: number) => status >= 200 && status <= 299;

/** The documented body args of an endpoint (writable fields, plus id/parent where documented). */
const argsOf = (endpointId: string): Record<string, ArgSpec> => {
  const a = endpointById(endpointId).endpoint.args;
  if (a === 'not-shown') throw new Error(`${endpointId}: args not shown`);
  return a;
};

/** Attributes a write of the arg exercises (its type and value constraints; not required/default). */
const VALUE_ATTRS = ['type', 'enum', 'format', 'properties', 'items'] as const;
export const valueCovers = (endpointId: string, names: readonly string[]): string[] => {
  const args = argsOf(endpointId);
  return names.flatMap((n) => VALUE_ATTRS.filter((a) => args[n] && a in args[n]!).map((a) => `arg:${endpointId}.${n}#${a}`));
};
/** `#required` of every arg but `keep`: exercised by a write that leaves them out. */
export const requiredCovers = (endpointId: string, keep: readonly string[] = []): string[] =>
  Object.entries(argsOf(endpointId))
    .filter(([n, a]) => 'required' in a && !keep.includes(n))
    .map(([n]) => `arg:${endpointId}.${n}#required`);

/** The object fields written as `{raw}` whose raw is compared on read. */
const RAW_FIELDS = ['title', 'content', 'excerpt'];

/**
 * A value the documented descriptor rules out, or undefined where a wrong value cannot be told
 * from a documented shorthand (title, content and excerpt: a string is WordPress's raw shorthand)
 * or the valid set is the target's (template).
 */
export function invalidValue(name: string, arg: ArgSpec): unknown {
  // template: the valid set is the theme's (spec: "theme template file name"); WordPress checks
  // it with its own callback and answers a non-string with a server error, which is not what
  // this check is about. Its type is exercised by the stored writes.
  if (name === 'template') return undefined;
  if (arg.enum) return `not-a-${name.replace(/_/g, '-')}`;
  if (arg.format === 'date-time') return 'not-a-date';
  const type = Array.isArray(arg.type) ? arg.type.filter((x) => x !== 'null')[0] : arg.type;
  switch (type) {
    case 'integer':
      return 'abc';
    case 'boolean':
      return 'maybe';
    case 'array':
      return (arg.items as ArgSpec | undefined)?.type === 'integer' ? ['x'] : undefined;
    case 'string':
      return ['x'];
    case 'object':
      return arg.properties && Object.keys(arg.properties).some((k) => k === 'raw') ? undefined : 'x';
    default:
      return undefined;
  }
}

/** The field a body arg is read back from (the page autosave's `parent` is the autosave's parent, not the page field). */
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function differences(sent: Record<string, unknown>, item: any): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(sent)) {
    const got = item?.[k];
    if (RAW_FIELDS.includes(k)) {
      const raw = (v as { raw: string }).raw;
      if (got?.raw !== raw) out.push(`${k}.raw: sent ${JSON.stringify(raw)}, read back ${JSON.stringify(got?.raw ?? got)}`);
    } else if (k === 'date' || k === 'date_gmt') {
      if (typeof got !== 'string' || got.slice(0, 19) !== String(v).slice(0, 19)) out.push(`${k}: sent ${JSON.stringify(v)}, read back ${JSON.stringify(got)}`);
    } else if (k === 'meta') {
      const fn = (v as { footnotes: string }).footnotes;
      if (got?.footnotes !== fn) out.push(`meta.footnotes: sent ${JSON.stringify(fn)}, read back ${JSON.stringify(got?.footnotes ?? got)}`);
    } else if (Array.isArray(v)) {
      const norm = (x: unknown) => (Array.isArray(x) ? [...x].sort() : x);
      if (!sameJson(norm(v), norm(got))) out.push(`${k}: sent ${JSON.stringify(v)}, read back ${JSON.stringify(got)}`);
    } else if (!sameJson(v, got)) out.push(`${k}: sent ${JSON.stringify(v)}, read back ${JSON.stringify(got)}`);
  }
  return out;
}

export function defineWriteFields(type: PostType): void {
  const create = `cms.${type.name}.collection.create`;
  const update = `cms.${type.name}.item.update`;
  const autosave = `cms.${type.name}.autosaves.collection.create`;
  const read = `cms.${type.name}.item.read`;
  const fieldNames = Object.keys(argsOf(create));
  const isPosts = fieldNames.includes('format');

  const setup = fileSetup(`${type.name}.fields`, async (s) => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(' ');
    const [probe, target, parentPage, long] = await Promise.all([
      s.create(type.collection, { title: `fields probe ${s.text().title}`, status: 'draft' }),
      s.create(type.collection, { title: `fields update target ${s.text().title}` }),
      type.name === 'pages' ? s.create(type.collection, { title: `fields parent ${s.text().title}` }) : Promise.resolve(undefined),
      s.create(type.collection, { title: `fields long content ${s.text().title}`, content: `<p>${words.join(' ')}</p>`, excerpt: '' }),
    ]);
    const readBack = await s.client.get(type.item(probe.id), { query: { context: 'edit' } });
    return { tag: s.tag, token: () => s.token(), probe: readBack.status === 200 ? readBack.body : probe, target: target.id as number, parent: parentPage?.id as number | undefined, long: long.id as number, words };
  });
  type Fx = ReturnType<typeof setup.get>;

  /**
   * A valid value for every writable field: documented values, or the probe's own (a new item's)
   * where the valid set is the target's (author, categories, tags, template, featured_media).
   */
  function validBody(f: Fx, variant: 'create' | 'update' | 'autosave'): Record<string, unknown> {
    const token = f.token();
    const own = f.probe;
    const body: Record<string, unknown> = {
      slug: `${f.tag}-${variant}-${token}`.toLowerCase(),
      // publish: a private item loses its password on WordPress (a combination the spec does not show).
      status: 'publish',
      password: `pw-${token}`,
      title: { raw: `${f.tag} ${variant} every field ${token}` },
      // Plain text: a site whose Markdown module is on (Jetpack, toggled by the suite's module checks
      // meanwhile) stores HTML paragraphs as their Markdown source, plain text as it is.
      content: { raw: `${token} content of every field` },
      excerpt: { raw: `${token} excerpt` },
      author: own.author,
      featured_media: own.featured_media ?? 0,
      // The value a new item does not have, so that storing it shows (posts default to open, pages to closed comments on WordPress).
      comment_status: own.comment_status === 'closed' ? 'open' : 'closed',
      ping_status: own.ping_status === 'closed' ? 'open' : 'closed',
      meta: { footnotes: `[{"id":"${token}","content":"a note"}]` },
      template: own.template ?? '',
    };
    if (variant === 'update') body.date_gmt = '2023-07-08T09:10:11Z'; // zoned (RFC 3339): every reading takes it
    else body.date = siteDateTime(runContext().index, '2024-03-05T10:20:30');
    if (isPosts) Object.assign(body, { format: variant === 'update' ? 'gallery' : 'aside', sticky: false, categories: own.categories ?? [], tags: own.tags ?? [] });
    if (type.name === 'pages') Object.assign(body, { parent: f.parent, menu_order: variant === 'update' ? 3 : 7 });
    if (variant === 'autosave') delete body.parent;
    return body;
  }

  const readEdit = (t: BehaviourContext, id: number) => readItemEdit(t, type, id);
  const tryCreate = (t: BehaviourContext, body: Record<string, unknown>, opts: { invalid?: string[] } = {}) => tryCreateItem(t, type, body, opts);

  behaviour(
    cmsDecl(type, 'fields.create-stored', { level: 'MUST', title: `create with every writable field (${fieldNames.join(', ')}) set to a valid value stores each one`, route: type.paths.collection, spec: type.spec.fields, covers: [...valueCovers(create, fieldNames), `endpoint:${create}`] }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const body = validBody(f, 'create');
      const res = await tryCreate(t, body);
      if (!ok(res.status) || typeof res.body?.id !== 'number') t.fail(`create with every writable field: ${whyNotAccepted(res, `POST ${type.collection}`)}`);
      const diff = differences(body, await readEdit(t, res.body.id));
      if (diff.length) t.fail(`created with every writable field, read back differs: ${diff.join('; ')}`);
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'fields.update-stored', { level: 'MUST', title: `an update with every writable field set to a valid value stores each one`, route: type.paths.item, spec: type.spec.fields, covers: [...valueCovers(update, ['id', ...fieldNames])] }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const body = { ...validBody(f, 'update'), id: f.target };
      const primed = await readBefore(t, type.item(f.target)); // read before the write through the URL of the read-back
      const res = await t.client.post(type.item(f.target), body);
      if (!ok(res.status)) t.fail(`update with every writable field: ${whyNotAccepted(res, `POST ${type.item(f.target)}`)}`);
      const diff = differences(body, await readBackEdit(t, primed, `POST ${type.item(f.target)}`));
      if (diff.length) t.fail(`updated with every writable field, read back differs: ${diff.join('; ')}`);
    },
  );

  const enumFields = fieldNames.filter((n) => n !== 'status' && argsOf(update)[n]?.enum);
  // Each PATCH sends one field: every other body arg is left out of an accepted update.
  behaviour(
    cmsDecl(type, 'fields.enum-values', { level: 'MUST', title: `every documented value of ${enumFields.join(', ')} is accepted on update and read back`, route: type.paths.item, spec: type.spec.fields, covers:
      [...enumFields.flatMap((n) => [`arg:${update}.${n}#enum`, `arg:${update}.${n}#type`]), ...requiredCovers(update)] }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const { id } = await t.create(type.collection, { title: `enum values ${f.token()}` });
      const primed = await readBefore(t, type.item(id));
      const problems: string[] = [];
      // The item's own value first, so that the last value written is another: its write is seen.
      const order = (name: string) => [...(argsOf(update)[name]!.enum as unknown[])].sort((a, b) => Number(b === primed.before.body?.[name]) - Number(a === primed.before.body?.[name]));
      for (const name of enumFields) {
        for (const value of order(name)) {
          const res = await t.client.request('PATCH', type.item(id), { body: { [name]: value } });
          if (!ok(res.status)) problems.push(`${name}=${JSON.stringify(value)}: ${answerOf(res)}`);
          else if (res.body?.[name] !== value) problems.push(`${name}=${JSON.stringify(value)}: the answer says ${JSON.stringify(res.body?.[name])}`);
        }
      }
      const last = await readBackEdit(t, primed, `the PATCHes of ${type.item(id)}`);
      for (const name of enumFields) {
        const values = order(name);
        if (last[name] !== values[values.length - 1]) problems.push(`after the last write ${name} reads ${JSON.stringify(last[name])}, not ${JSON.stringify(values[values.length - 1])}`);
      }
      if (problems.length) t.fail(`documented values not stored: ${problems.join('; ')}`);
    },
    { concurrent: true },
  );

  /** The args a wrong value can be sent for, with that value. */
  const invalidOf = (endpointId: string) =>
    Object.entries(argsOf(endpointId))
      .filter(([n]) => n !== 'id' && n !== 'status')
      .map(([n, a]) => [n, invalidValue(n, a)] as const)
      .filter((e): e is readonly [string, unknown] => e[1] !== undefined);

  behaviour(
    cmsDecl(type, 'fields.invalid-refused', { level: 'MUST', title: 'a value of the wrong type, outside the documented values or not a date-time is refused on create and update, and nothing is written', route: type.paths.collection, spec: type.spec.fields, covers: [...new Set([...invalidOf(create).flatMap(([n]) => valueCovers(create, [n])), ...invalidOf(update).flatMap(([n]) => valueCovers(update, [n]))])] }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const token = f.token();
      const refusal = 'values of the wrong type or outside the documented values';
      // Positive controls: a valid create (stored, found by its token) and an update with the item's own values.
      const control = await tryCreate(t, { title: `${f.tag} ${token} valid`, comment_status: 'closed' });
      expectControlAccepted(t, control, 'a create with valid fields', refusal);
      const primed = await readBefore(t, type.item(f.target));
      const before = primed.before.status === 200 ? primed.before.body : t.fail(whyNotAccepted(primed.before, `GET ${type.item(f.target)}?context=edit`));
      const own = Object.fromEntries(invalidOf(update).map(([n]) => [n, before[n]]).filter(([n, v]) => v !== undefined && !RAW_FIELDS.includes(n as string)));
      if (own.meta) own.meta = { footnotes: own.meta.footnotes };
      expectControlAccepted(t, await t.client.post(type.item(f.target), zonedDates(t.index, own)), `an update with the item's own values (${Object.keys(own).join(', ')})`, refusal);
      const problems: string[] = [];
      const creates = await Promise.all(invalidOf(create).map(async ([n, v]) => [n, v, await tryCreate(t, { title: `${f.tag} ${token} invalid ${n}`, [n]: v }, { invalid: [n] })] as const));
      for (const [n, v, res] of creates) if (ok(res.status) || res.status >= 500) problems.push(`create with ${n}=${JSON.stringify(v)} answered ${answerOf(res)}`);
      for (const [n, v] of invalidOf(update)) {
        const res = await t.client.request('PATCH', type.item(f.target), { body: { [n]: v }, invalid: [n] });
        if (ok(res.status) || res.status >= 500) problems.push(`update with ${n}=${JSON.stringify(v)} answered ${answerOf(res)}`);
      }
      const found = (await t.client.get(type.collection, { query: { search: token, status: ['any'], per_page: 100 } }));
      if (found.status !== 200) t.fail(whyNotAccepted(found, `GET ${type.collection}?search=<token>&status=any`));
      const made = tokenMatches(t, type, token, found.body, `GET ${type.collection}?search=<token>&status=any`, [control.body.id]);
      if (made.length) problems.push(`refused creates created item(s) ${made.join(', ')}`);
      const after = (await readAfter(t, primed, 'none')).body;
      // meta is compared key by key over the keys it had before: a meta key registered meanwhile
      // (Jetpack registers its SEO keys when another behaviour activates its module) is not a write.
      const kept = (n: string) => (n === 'meta' && isObject(before.meta) && isObject(after.meta) ? Object.keys(before.meta).every((k) => sameJson(before.meta[k], after.meta[k])) : sameJson(before[n], after[n]));
      const changed = Object.keys(own).filter((n) => !kept(n));
      if (changed.length) problems.push(`refused updates changed ${changed.map((n) => `${n} from ${JSON.stringify(before[n])} to ${JSON.stringify(after[n])}`).join(', ')}`);
      if (problems.length) t.fail(problems.join('; '));
    },
  );

  behaviour(
    cmsDecl(type, 'fields.footnotes-default', { level: 'MUST', title: 'meta.footnotes defaults to the empty string: an item created without meta reads meta.footnotes ""', route: type.paths.collection, spec: type.spec.fields, covers: [
      `field:${type.resource.id}.meta`,
      `arg:${create}.meta#properties`,
      `arg:${create}.meta#required`,
    ] }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const item = await readEdit(t, f.probe.id);
      if (item.meta?.footnotes !== '') t.fail(`an item created without meta reads meta ${JSON.stringify(item.meta)}; footnotes defaults to ""`);
    },
    { concurrent: true },
  );

  /** Items of the type whose slug is `slug` (any status): two must never share one. */
  async function holders(t: BehaviourContext, slug: string): Promise<number[]> {
    const res = await t.client.get(type.collection, { query: { slug: [slug], status: ['any'], context: 'edit', per_page: 100 } });
    if (res.status !== 200 || !Array.isArray(res.body)) t.fail(whyNotAccepted(res, `GET ${type.collection}?slug=${slug}&status=any`));
    return res.body.filter((i: any) => i?.slug === slug).map((i: any) => i.id);
  }

  behaviour(
    cmsDecl(type, 'fields.slug-unique', { level: 'MUST', title: `the slug is unique for the type: a second published ${type.noun} created with a slug in use is refused or gets another one (answered and stored)`, route: type.paths.collection, spec: type.spec.fields, covers: [
      `field:${type.resource.id}.slug`,
      `arg:${create}.slug#type`,
    ] }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const slug = `${f.tag}-same-${f.token()}`.toLowerCase();
      // Published items: a draft may keep a slug that is not unique until it is published (WordPress).
      const first = await tryCreate(t, { title: `${f.tag} slug first`, slug, status: 'publish' });
      if (!ok(first.status)) t.fail(whyNotAccepted(first, `create with slug ${slug}`));
      const second = await tryCreate(t, { title: `${f.tag} slug second`, slug, status: 'publish' });
      const a = await readEdit(t, first.body.id);
      if (a.slug !== slug) t.fail(`created with the free slug ${slug}: read back ${JSON.stringify(a.slug)}`);
      if (!ok(second.status)) {
        // Refused: nothing else may hold the slug (the positive control is the first create).
        const held = await holders(t, slug);
        if (held.some((id) => id !== a.id)) t.fail(`the second create with slug ${slug} was refused (${answerOf(second)}), yet ${type.name} ${held.filter((id) => id !== a.id).join(', ')} now hold it besides ${a.id}`);
        return;
      }
      const b = await readEdit(t, second.body.id);
      if (b.slug === a.slug) t.fail(`two published ${type.name} share the slug ${JSON.stringify(a.slug)} (items ${a.id} and ${b.id}); the slug is unique for the type`);
      if (second.body?.slug !== b.slug)
        t.fail(`the create of a second published ${type.noun} with slug ${slug} (held by ${a.id}) answered slug ${JSON.stringify(second.body?.slug)}, but ${type.item(b.id)} reads back ${JSON.stringify(b.slug)}`);
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'fields.slug-unique-update', { level: 'MUST', title: `the slug is unique for the type: an update giving a published ${type.noun} the slug of another is refused or gets another one (answered and stored)`, route: type.paths.item, spec: type.spec.fields, covers: [
      `field:${type.resource.id}.slug`,
      `arg:${update}.slug#type`,
    ] }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const [slugA, slugB] = [`${f.tag}-upd-a-${f.token()}`.toLowerCase(), `${f.tag}-upd-b-${f.token()}`.toLowerCase()];
      const [first, second] = await Promise.all([
        tryCreate(t, { title: `${f.tag} slug update a`, slug: slugA, status: 'publish' }),
        tryCreate(t, { title: `${f.tag} slug update b`, slug: slugB, status: 'publish' }),
      ]);
      for (const [r, s] of [[first, slugA], [second, slugB]] as const) if (!ok(r.status)) t.fail(whyNotAccepted(r, `create with slug ${s}`));
      const res = await t.client.request('PATCH', type.item(second.body.id), { body: { slug: slugA } });
      const [a, b] = await Promise.all([readEdit(t, first.body.id), readEdit(t, second.body.id)]);
      if (a.slug !== slugA) t.fail(`${type.item(a.id)} was created with the free slug ${slugA}, and reads back ${JSON.stringify(a.slug)}`);
      if (b.slug === a.slug) t.fail(`after PATCH ${type.item(b.id)} {slug: ${JSON.stringify(slugA)}} (${answerOf(res)}), two published ${type.name} share the slug ${JSON.stringify(a.slug)} (items ${a.id} and ${b.id}); the slug is unique for the type`);
      if (!ok(res.status)) {
        if (b.slug !== slugB) t.fail(`the refused PATCH ${type.item(b.id)} {slug: ${JSON.stringify(slugA)}} (${answerOf(res)}) changed its slug from ${slugB} to ${JSON.stringify(b.slug)}`);
        // The positive control: a free slug is accepted.
        const free = `${slugB}-free`;
        const control = await t.client.request('PATCH', type.item(b.id), { body: { slug: free } });
        if (!ok(control.status)) t.fail(`positive control: ${whyNotAccepted(control, `PATCH ${type.item(b.id)} {slug: ${JSON.stringify(free)}}`)}; so the refusal of a slug in use shows nothing`);
        return;
      }
      if (res.body?.slug !== b.slug) t.fail(`PATCH ${type.item(b.id)} {slug: ${JSON.stringify(slugA)}} (held by ${a.id}) answered slug ${JSON.stringify(res.body?.slug)}, but the item reads back ${JSON.stringify(b.slug)}`);
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'read.excerpt-length', { level: 'MUST', title: 'excerpt_length on the single GET shortens the excerpt generated from the content to that many words', route: type.paths.item, spec: type.spec.fields, covers: [`arg:${read}.excerpt_length`] }),
    async (t: BehaviourContext) => {
      const advertised = advertisedEndpoint(findAdvertisedRoute(t.index, type.paths.item)?.entry, 'GET')?.args;
      if (advertised && typeof advertised === 'object' && !('excerpt_length' in advertised))
        t.skip(`not observable: the target does not advertise excerpt_length on ${type.paths.item} (discovery reports the missing argument; checked only where advertised)`);
      if (setup.skipped()) return excerptLengthOnSite(t, type);
      const f = setup.get(t);
      const words = (res: any) =>
        String(res.body?.excerpt?.rendered ?? '')
          .replace(/<[^>]*>/g, ' ')
          .replace(/\[?&hellip;\]?|\[…\]|…/g, ' ')
          .split(/\s+/)
          .filter((w: string) => f.words.includes(w));
      const [full, short] = await Promise.all([t.client.get(type.item(f.long)), t.client.get(type.item(f.long), { query: { excerpt_length: 3 } })]);
      if (full.status !== 200) t.fail(whyNotAccepted(full, `GET ${type.item(f.long)}`));
      if (short.status !== 200) t.fail(whyNotAccepted(short, `GET ${type.item(f.long)}?excerpt_length=3`));
      if (words(full).length < f.words.length) t.skip(`the excerpt generated without excerpt_length has ${words(full).length} of the content's ${f.words.length} words: nothing to shorten`);
      const n = words(short).length;
      if (n === 0 || n > 3) t.fail(`with excerpt_length=3 the excerpt has ${n} words of the content: ${JSON.stringify(short.body?.excerpt?.rendered).slice(0, 160)}`);
    },
    { concurrent: true },
  );

  const autosaveNames = Object.keys(argsOf(autosave));
  behaviour(
    cmsDecl(type, 'autosaves.fields', { level: 'MUST', title: 'an autosave with every documented body field set to a valid value is accepted, so is one with only an excerpt; a wrong type or value of any field is refused', route: type.paths.autosaves, spec: type.spec.fields, covers: [...valueCovers(autosave, autosaveNames), ...requiredCovers(autosave)] }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const f = setup.get(t);
      const { id } = await t.create(type.collection, { title: `autosaved fields ${f.token()}` });
      const body = { ...validBody(f, 'autosave'), parent: id };
      const res = await t.client.post(type.autosaves(id), body);
      expectControlAccepted(t, res, `an autosave with every documented field`, 'wrong values');
      // No body field is required: an autosave of the excerpt alone is accepted.
      const alone = await t.client.post(type.autosaves(id), textFields({ excerpt: `${f.tag} only the excerpt ${f.token()}` }));
      if (!ok(alone.status)) t.fail(`an autosave with only an excerpt (no title, no content) ${whyNotAccepted(alone, `POST ${type.autosaves(id)}`).replace(/^POST \S+ /, '')}`);
      const problems: string[] = [];
      const invalid = Object.entries(argsOf(autosave))
        .map(([n, a]) => [n, invalidValue(n, a)] as const)
        .filter(([n, v]) => v !== undefined && n !== 'status');
      for (const [n, v] of invalid) {
        const r = await t.client.post(type.autosaves(id), { title: { raw: `${f.tag} autosave` }, [n]: v }, { invalid: [n] });
        if (ok(r.status) || r.status >= 500) problems.push(`${n}=${JSON.stringify(v)} answered ${answerOf(r)}`);
      }
      if (problems.length) t.fail(`autosaves with a wrong value accepted: ${problems.join('; ')}`);
    },
    { concurrent: true },
  );
}
