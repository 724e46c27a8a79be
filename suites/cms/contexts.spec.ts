/**
 * Contexts (2. Resources and their fields › Contexts, and the field table of part 2): view,
 * embed and edit responses carry the sub-properties declared for them (raw only in edit;
 * embed never carries content.rendered), in lists and single reads, with documented types. A
 * field whose value (raw or rendered) is declared for a context must be there: a title left out
 * of embed answers leaves out the declared title.rendered (MUST).
 * Which top-level fields each context carries is not declared: those checks are SHOULD, from
 * WordPress (view: every field but password; embed: date, slug, title, excerpt, author,
 * featured_media; edit: every field).
 *
 * These behaviours own the types of the post and page fields: every other behaviour (filters,
 * queries, lifecycle, revisions, batch) checks only its own item, so one field of a wrong type
 * fails these few behaviours, not a hundred (named fault cms.post-field-wrong-type).
 */
import { catalog } from '../../schemas/catalog/index.ts';
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { whyNotAccepted } from '../../src/sdk/controls.ts';
import { advertisedEndpoint, findAdvertisedRoute } from '../../src/sdk/discovery.ts';
import { CONTEXTS, postTypes, SPEC_CONTEXTS, type Context, type PostType } from './lib/collections.ts';
import { expectIncludeHonoured, idsOf, itemProblems } from './lib/items.ts';
import { onSiteItem, unprotected } from './lib/sample.ts';
import { eachType, fileSetup } from './lib/setup.ts';
import { cmsDecl } from './lib/declare.ts';

/** WordPress's embed field set, among the documented fields. */
const EMBED_FIELDS = ['date', 'slug', 'title', 'excerpt', 'author', 'featured_media'];

const setup = fileSetup('contexts', (s) =>
  eachType(postTypes, async (type) => {
    const text = s.text();
    return (await s.create(type.collection, { title: text.title, content: text.content, excerpt: text.excerpt })).id;
  }),
);

/**
 * Check the fixture of the type, or without fixtures (the run may not write, or has no
 * credentials) a published item of the site's own, one a reader may see (sample.ts).
 */
async function onItem(t: BehaviourContext, type: PostType, check: (id: number) => Promise<void>): Promise<void> {
  if (!setup.skipped()) {
    const id = setup.get(t)[type.name]!;
    return check(id);
  }
  await onSiteItem(t, type, (items) => items.find(unprotected), `a published ${type.noun} not protected by a password`, (item) => check(item.id));
}

/**
 * The fixture read in `context` as a list item and as a single item, with the configured
 * credentials (these behaviours are about contexts, not about anonymous access: that is
 * cms.<type>.auth.*), and `check`ed: the single read by its own route first; the list read finds
 * the fixture through `?include=<id>`, so when the listing holds other items (include not honoured)
 * the behaviour skips, depending on cms.<type>.filter.include.
 */
async function checkBoth(t: BehaviourContext, type: PostType, id: number, context: Context | undefined, check: (reads: { what: string; item: any }[]) => void): Promise<void> {
  const query = context ? { context } : {};
  const [list, single] = await Promise.all([
    t.client.get(type.collection, { query: { ...query, include: [id] } }),
    t.client.get(type.item(id), { query }),
  ]);
  const who = t.client.hasCredentials ? 'authenticated' : 'anonymous';
  const label = context ? `context=${context}` : 'no context';
  const listWhat = `GET ${type.collection}?include=${id}&${label} (${who})`;
  if (single.status !== 200) t.fail(whyNotAccepted(single, `GET ${type.item(id)}?${label} (${who})`));
  check([{ what: `single, ${label}, ${who}`, item: single.body }]);
  if (list.status !== 200) t.fail(whyNotAccepted(list, listWhat));
  if (!Array.isArray(list.body)) t.fail(`${listWhat}: expected a list, got ${list.text.slice(0, 160)}`);
  expectIncludeHonoured(t, type, [id], idsOf(list.body), listWhat);
  const item = list.body.find((i: any) => i?.id === id);
  if (!item) t.fail(`${listWhat}: expected the one item, got ${list.text.slice(0, 160)}`);
  check([{ what: `list, ${label}, ${who}`, item }]);
}

/**
 * Fields the context must carry because part 2 declares their value for it: a field whose raw or
 * rendered sub-property is declared for `context` (title.rendered in every context, content.rendered
 * in view and edit, title.raw in edit ...) cannot be left out, since the declared sub-property would
 * be missing with it. A flag about the value (content.protected) is checked where its field is
 * present (itemProblems): part 2 declares content.protected for embed but not content.rendered,
 * and WordPress leaves content out of embed answers (wordpress-behaviour.md, contexts).
 */
function declaredFieldProblems(fields: PostType['fields'], item: unknown, context: Context): string[] {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return [];
  const out: string[] = [];
  for (const [name, spec] of Object.entries(fields)) {
    if (!spec.properties || Object.prototype.hasOwnProperty.call(item, name)) continue;
    const declared = Object.entries(spec.properties)
      .filter(([sub, p]) => (sub === 'raw' || sub === 'rendered') && p.contexts?.includes(context))
      .map(([sub]) => `${name}.${sub}`);
    if (declared.length) out.push(`${name} is missing, so ${declared.join(' and ')} (declared for context ${context}) ${declared.length > 1 ? 'are' : 'is'} missing`);
  }
  return out;
}

/** A field's value carries only sub-properties part 2 declares for the context (and at least one). */
function onlyDeclaredFor(spec: PostType['fields'][string] | undefined, value: unknown, context: Context): boolean {
  if (!spec?.properties || value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => spec.properties![k]?.contexts?.includes(context));
}

function expectContext(t: BehaviourContext, type: PostType, reads: { what: string; item: any }[], context: Context): void {
  for (const { what, item } of reads) {
    const problems = [...declaredFieldProblems(type.fields, item, context), ...itemProblems(type.fields, item, context)];
    if (problems.length) t.fail(`${what}: ${problems.join('; ')}`);
  }
}

for (const type of postTypes) {
  const contextCovers = [`arg:cms.${type.name}.item.read.context`, `arg:cms.${type.name}.collection.list.context`, `field:${type.resource.id}`];

  for (const context of ['view', 'embed'] as const) {
    behaviour(
      cmsDecl(type, `context.${context}`, { level: 'MUST', title: `context=${context}: list and single items carry the sub-properties declared for ${context} only (no raw), with documented types`, route: type.paths.item, spec: type.spec.fields, covers: contextCovers }),
      async (t: BehaviourContext) => {
        await onItem(t, type, (id) => checkBoth(t, type, id, context, (reads) => expectContext(t, type, reads, context)));
      },
      { concurrent: true },
    );
  }

  behaviour(
    cmsDecl(type, 'context.default', { level: 'MUST', title: 'without context, items are as in context=view (the default)', route: type.paths.item, spec: type.spec.fields, covers: contextCovers }),
    async (t: BehaviourContext) => {
      await onItem(t, type, (id) => checkBoth(t, type, id, undefined, (reads) => expectContext(t, type, reads, 'view')));
    },
    { concurrent: true },
  );

  behaviour(
    cmsDecl(type, 'context.edit', { level: 'MUST', title: 'context=edit (authenticated): items carry title.raw, content.raw, content.block_version, excerpt.raw and the other edit sub-properties', route: type.paths.item, spec: type.spec.fields, covers: contextCovers }),
    async (t: BehaviourContext) => {
      t.requireCredentials();
      await onItem(t, type, (id) => checkBoth(t, type, id, 'edit', (reads) => expectContext(t, type, reads, 'edit')));
    },
    { concurrent: true },
  );

  const documented = Object.keys(type.fields);
  const expectedFields: Record<Context, { present: string[]; absent: string[] }> = {
    view: { present: documented.filter((f) => f !== 'password'), absent: ['password'] },
    embed: { present: EMBED_FIELDS.filter((f) => documented.includes(f)), absent: documented.filter((f) => !EMBED_FIELDS.includes(f)) },
    edit: { present: documented, absent: [] },
  };
  for (const context of CONTEXTS) {
    const e = expectedFields[context];
    behaviour(
      cmsDecl(type, `context.${context}.fields`, { level: 'SHOULD', title: `context=${context} carries ${context === 'edit' ? 'every documented field' : context === 'view' ? 'every documented field but password' : e.present.join(', ')}${context === 'embed' ? ' and none of the other documented fields' : ''}`, route: type.paths.item, spec: SPEC_CONTEXTS, covers: contextCovers }),
      async (t: BehaviourContext) => {
        if (context === 'edit') t.requireCredentials();
        await onItem(t, type, (id) => checkBoth(t, type, id, context, (reads) => {
          for (const { what, item } of reads) {
            const missing = e.present.filter((f) => !(f in item));
            // A field left out of a context may still carry what part 2 declares for it there
            // (embed: content with only content.protected): that is the spec's, never extra.
            const extra = e.absent.filter((f) => f in item && !onlyDeclaredFor(type.fields[f], item[f], context));
            if (missing.length || extra.length)
              t.fail(`${what}: ${missing.length ? `missing ${missing.join(', ')}` : ''}${missing.length && extra.length ? '; ' : ''}${extra.length ? `carries ${extra.join(', ')}` : ''}`);
          }
        }));
      },
      { concurrent: true },
    );
  }
}

/**
 * Fields the spec says a resource lacks (part 2, Page: "Same fields as a post except: no format,
 * sticky, categories, tags"): absent from every context a read can ask for (view and embed; edit
 * with credentials), list and single, and from the args the type's write endpoints advertise (the
 * page body is "the page fields of part 2"). One check for the sentence, so that a page carrying
 * them everywhere is one finding. What a server does with such a field sent in a write anyway
 * (ignore or refuse) is not stated and not checked.
 */
for (const type of postTypes) {
  const absent = type.resource.absentFields ?? [];
  if (!absent.length) continue;
  const writes = catalog.routes
    .filter((r) => r.namespace === 'cms/v2' && (r.path === type.paths.collection || r.path.startsWith(`${type.paths.collection}/`)))
    .flatMap((route) => route.endpoints.filter((e) => e.args !== 'not-shown' && e.methods.some((m) => m !== 'GET' && m !== 'DELETE')).map((endpoint) => ({ route, endpoint })));
  behaviour(
    cmsDecl(type, 'fields.absent', {
      level: 'MUST',
      title: `a ${type.noun} has none of ${absent.join(', ')}: not in context view or embed (edit too, with credentials), list or single, nor among the args its write endpoints advertise`,
      route: type.paths.item,
      spec: type.spec.fields,
      covers: [`field:${type.resource.id}`, ...writes.map(({ endpoint }) => `endpoint:${endpoint.id}`)],
    }),
    async (t: BehaviourContext) => {
      const problems: string[] = [];
      for (const { route, endpoint } of writes) {
        const entry = findAdvertisedRoute(t.index, route.path)?.entry;
        for (const m of endpoint.methods) {
          const args = advertisedEndpoint(entry, m)?.args;
          const found = args && typeof args === 'object' ? absent.filter((f) => Object.prototype.hasOwnProperty.call(args, f)) : [];
          if (found.length) problems.push(`the site index (GET /) advertises ${found.join(', ')} among the args of ${m} ${route.path}`);
        }
      }
      const contexts = CONTEXTS.filter((c) => c !== 'edit' || t.client.hasCredentials);
      await onItem(t, type, async (id) => {
        const reads = await Promise.all(
          contexts.flatMap((context) => [
            t.client.get(type.item(id), { query: { context } }).then((res) => ({ context, what: `GET ${type.item(id)}?context=${context}`, res, list: false })),
            t.client.get(type.collection, { query: { context, include: [id] } }).then((res) => ({ context, what: `GET ${type.collection}?include=${id}&context=${context}`, res, list: true })),
          ]),
        );
        for (const { context, what, res, list } of reads) {
          // A context refused or a list without the item is the context checks' (they read the same).
          if (res.status !== 200) t.dependsOn(`cms.${type.name}.context.${context}`, whyNotAccepted(res, what));
          const item = list ? (Array.isArray(res.body) ? res.body.find((i: any) => i?.id === id) : undefined) : res.body;
          if (!item || typeof item !== 'object') t.dependsOn(`cms.${type.name}.context.${context}`, `${what}: no ${type.noun} ${id} in the answer: ${res.text.slice(0, 120)}`);
          const found = absent.filter((f) => Object.prototype.hasOwnProperty.call(item, f));
          if (found.length) problems.push(`${what} carries ${found.map((f) => `${f} (${JSON.stringify(item[f])})`).join(', ')}`);
        }
      });
      if (problems.length) t.fail(`a ${type.noun} has no ${absent.join(', ')} (part 2, ${type.resource.spec.section}: "Same fields as a post except: no ${absent.join(', ')}"): ${problems.join('; ')}`);
    },
    { concurrent: true },
  );
}
