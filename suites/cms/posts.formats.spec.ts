/**
 * Every documented value of the post collection's `format` filter has its effect (4. Endpoints ›
 * Posts › Post collection query: "format | array of string, unique items | standard, aside, chat,
 * gallery, link, image, quote, status, video, audio"; issue 40): one post of each format, and the
 * values asked for in pairs, each pair listing exactly its two posts. SHOULD: the query table names
 * the values, the meaning (the posts of those formats) is WordPress's, as for cms.posts.filter.format
 * (aside and standard, on the filters' own fixtures). Every value is also accepted by
 * cms.posts.query.format.values.
 */
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import { posts } from './lib/collections.ts';
import { cmsDecl } from './lib/declare.ts';
import { expectIncludeHonoured, idsOf } from './lib/items.ts';
import { expectListOk } from './lib/query.ts';
import { fileSetup } from './lib/setup.ts';

const FORMATS = (posts.query.format?.items?.enum ?? []).map(String);

const setup = fileSetup('posts.formats', async (s) => {
  const made = await Promise.all(FORMATS.map((format) => s.create(posts.collection, { title: `format ${format} ${s.text().title}`, format })));
  return Object.fromEntries(FORMATS.map((format, i) => [format, made[i]!.id as number])) as Record<string, number>;
});

if (FORMATS.length)
  behaviour(
    cmsDecl(posts, 'filter.format.values', {
      level: 'SHOULD',
      title: `format limits the list to posts of the given formats, for each of ${FORMATS.join(', ')} (asked in pairs)`,
      route: posts.paths.collection,
      spec: posts.spec.query,
      covers: [`arg:${posts.list.id}.format`],
    }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const byFormat = setup.get(t);
      const all = FORMATS.map((f) => byFormat[f]!);
      const pairs = Array.from({ length: Math.ceil(FORMATS.length / 2) }, (_, i) => FORMATS.slice(2 * i, 2 * i + 2));
      const wrong: string[] = [];
      await Promise.all(
        pairs.map(async (pair) => {
          const what = `GET ${posts.collection}?format=${pair.join(',')}&include=${all.join(',')}&per_page=100`;
          const items = expectListOk(t, { kind: 'none' }, await t.client.get(posts.collection, { query: { include: all, format: pair, per_page: 100 } }), what);
          const got = idsOf(items);
          expectIncludeHonoured(t, posts, all, got, what);
          const want = pair.map((f) => byFormat[f]!);
          if (JSON.stringify([...got].sort((a, b) => a - b)) !== JSON.stringify([...want].sort((a, b) => a - b)))
            wrong.push(`${what} lists ${got.map((id) => `${id} (${FORMATS.find((f) => byFormat[f] === id) ?? '?'})`).join(', ') || 'nothing'}, expected ${want.join(', ')}`);
        }),
      );
      if (wrong.length) t.fail(`format (one of ${FORMATS.join(', ')}; the posts ${FORMATS.map((f) => `${byFormat[f]} ${f}`).join(', ')}): ${wrong.join('; ')}`);
    },
    { concurrent: true },
  );
