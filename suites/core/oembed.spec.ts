/**
 * oEmbed: `GET /oembed/1.0/embed` and `GET /oembed/1.0/proxy` (core part 1, part 4 › oEmbed,
 * part 8 limits).
 *
 * Stated (MUST): "oEmbed routes that return embed data for a URL" (part 1); `url` required on
 * both; `format` default json and `maxwidth` default 600 on both; on proxy `format` only json
 * or xml, `maxwidth`/`maxheight` integers, `discover` boolean (part 4 › oEmbed).
 * Not stated (SHOULD, wordpress-behaviour.md §9): the embed data's fields, the clamping of
 * width, the refusal of unknown URLs, and that proxy needs authentication (part 5: "Which
 * routes and methods require authentication ... not shown").
 *
 * The URL embedded is a published post's own `link`: created for the run (tagged, deleted
 * afterwards), or, when writes are not allowed, the newest published post of the target.
 */
import { beforeAll } from 'vitest';
import { endpointById } from '../../schemas/catalog/index.ts';
import { behaviour, fixtures, runContext, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/sdk/http.ts';
import { expectControlAccepted, isValidationError, whyNotAccepted } from '../../src/sdk/controls.ts';

const EMBED = endpointById('oembed.embed.read');
const PROXY = endpointById('oembed.proxy.read');
const EMBED_ARGS = EMBED.endpoint.args as Record<string, any>;
const PROXY_ARGS = PROXY.endpoint.args as Record<string, any>;
const SPEC = EMBED.endpoint.spec;

const ok = (status: number) => status >= 200 && status <= 299;
const refused = (status: number) => status >= 400 && status <= 499;
const isJson = (res: Response) => /json/i.test(res.headers['content-type'] ?? '') && res.body !== undefined;

let post: { link: string; title: string } | undefined;
let noPost = 'no published post: the fixture was not set up';
/** The error that stopped the fixture's creation (a FixtureError names the behaviour that owns creating posts). */
let postError: Error | undefined;

beforeAll(async () => {
  const run = runContext();
  try {
    if (run.info.writes.allowed && run.client.hasCredentials) {
      const created = await fixtures().create('/cms/v2/posts', { title: 'oembed' });
      post = { link: created.link, title: created.title?.raw ?? created.title?.rendered };
    } else {
      const res = await run.client.fork('fixtures').get('/cms/v2/posts', { query: { per_page: 1 }, auth: 'none' });
      const p = Array.isArray(res.body) ? res.body[0] : undefined;
      if (p) post = { link: p.link, title: p.title?.rendered };
      else noPost = `writes not allowed (${run.info.writes.reason}) and the target lists no published post to embed`;
    }
    if (post && typeof post.link !== 'string') {
      // Part 2 lists no `link`: a server may leave the posts' own URL out.
      noPost = 'not observable: the published post carries no link (part 2 lists none), so no URL is known to embed';
      post = undefined;
    }
  } catch (err) {
    postError = err as Error;
    noPost = `could not set up a published post: ${(err as Error).message}`;
  }
});

function publishedPost(t: BehaviourContext) {
  if (!post && postError?.name === 'FixtureError') throw postError;
  if (!post) t.skip(noPost);
  return post;
}

/** Embed data without its per-request random parts (the iframe's secret). */
function comparable(body: unknown): string {
  return JSON.stringify(body).replace(/secret=(\\?"?)[A-Za-z0-9]+/g, 'secret=$1S');
}

/** Reads use the configured credentials: these behaviours are about embedding, not about anonymous access. */
const embed = (t: BehaviourContext, query: Record<string, string | number>, auth: 'none' | 'default' = 'default', invalid?: string[]) =>
  t.client.get(EMBED.route.path, { query, auth, ...(invalid ? { invalid } : {}) });
const proxy = (t: BehaviourContext, query: Record<string, string | number>, auth: 'none' | 'default' = 'default', invalid?: string[]) =>
  t.client.get(PROXY.route.path, { query, auth, ...(invalid ? { invalid } : {}) });

// ---------------------------------------------------------------------------
// embed
// ---------------------------------------------------------------------------

behaviour(
  {
    id: 'oembed.embed.url-required',
    level: 'MUST',
    namespace: 'oembed/1.0',
    route: EMBED.route.path,
    title: '`url` is required: an embed request without it is refused',
    spec: SPEC,
    covers: ['arg:oembed.embed.read.url'],
  },
  async (t) => {
    t.requireNamespace('oembed/1.0');
    const p = publishedPost(t)!;
    expectControlAccepted(t, await embed(t, { url: p.link }), `GET ${EMBED.route.path}?url=<a published post>`, 'a request without url');
    const res = await embed(t, {}, 'default', ['url']);
    if (!refused(res.status)) t.fail(`GET ${EMBED.route.path} without url answered ${res.status}, not refused (4xx)`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'oembed.embed.post-url',
    level: 'MUST',
    namespace: 'oembed/1.0',
    route: EMBED.route.path,
    title: "a published post's own URL returns embed data",
    spec: SPEC,
    covers: ['endpoint:oembed.embed.read', 'arg:oembed.embed.read.url'],
  },
  async (t) => {
    t.requireNamespace('oembed/1.0');
    const p = publishedPost(t)!;
    const res = await embed(t, { url: p.link });
    if (!ok(res.status)) t.fail(`embed of published post ${p.link} answered ${res.status}: ${res.text.slice(0, 200)}`);
    if (!isJson(res) || typeof res.body !== 'object' || res.body === null || Array.isArray(res.body))
      t.fail(`embed of ${p.link} is not a JSON object (content-type ${res.headers['content-type']})`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'oembed.embed.data',
    level: 'SHOULD',
    namespace: 'oembed/1.0',
    route: EMBED.route.path,
    title: 'embed data carries version "1.0", type "rich", the post title, html, and integer width and height',
    spec: SPEC,
  },
  async (t) => {
    t.requireNamespace('oembed/1.0');
    const p = publishedPost(t)!;
    const res = await embed(t, { url: p.link });
    if (!ok(res.status)) t.fail(`embed of ${p.link} answered ${res.status}`);
    const d = res.body ?? {};
    const problems: string[] = [];
    if (d.version !== '1.0') problems.push(`version ${JSON.stringify(d.version)}`);
    if (d.type !== 'rich') problems.push(`type ${JSON.stringify(d.type)}`);
    if (typeof d.html !== 'string' || !d.html.includes('<')) problems.push(`html ${JSON.stringify(d.html)?.slice(0, 60)}`);
    if (!Number.isInteger(d.width) || d.width <= 0) problems.push(`width ${JSON.stringify(d.width)}`);
    if (!Number.isInteger(d.height) || d.height <= 0) problems.push(`height ${JSON.stringify(d.height)}`);
    if (p.title !== undefined && d.title !== p.title) problems.push(`title ${JSON.stringify(d.title)} (post title ${JSON.stringify(p.title)})`);
    if (problems.length) t.fail(`embed data deviates from the reference: ${problems.join(', ')}`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'oembed.embed.maxwidth-default',
    level: 'MUST',
    namespace: 'oembed/1.0',
    route: EMBED.route.path,
    title: `\`maxwidth\` defaults to ${EMBED_ARGS.maxwidth.default}: omitting it gives the same embed data as maxwidth=${EMBED_ARGS.maxwidth.default}`,
    spec: SPEC,
    covers: ['arg:oembed.embed.read.maxwidth', 'limit.oembed.maxwidth.default'],
  },
  async (t) => {
    t.requireNamespace('oembed/1.0');
    const p = publishedPost(t)!;
    const [omitted, explicit] = await Promise.all([embed(t, { url: p.link }), embed(t, { url: p.link, maxwidth: EMBED_ARGS.maxwidth.default })]);
    if (!ok(omitted.status) || !ok(explicit.status)) t.fail(`embed answered ${omitted.status} without maxwidth and ${explicit.status} with it`);
    if (comparable(omitted.body ?? omitted.text) !== comparable(explicit.body ?? explicit.text))
      t.fail(`without maxwidth: width ${omitted.body?.width}, height ${omitted.body?.height}; with maxwidth=${EMBED_ARGS.maxwidth.default}: width ${explicit.body?.width}, height ${explicit.body?.height} (the answers differ)`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'oembed.embed.format-default',
    level: 'MUST',
    namespace: 'oembed/1.0',
    route: EMBED.route.path,
    title: `\`format\` defaults to ${EMBED_ARGS.format.default}: omitting it gives the same JSON embed data as format=${EMBED_ARGS.format.default}`,
    spec: SPEC,
    covers: ['arg:oembed.embed.read.format'],
  },
  async (t) => {
    t.requireNamespace('oembed/1.0');
    const p = publishedPost(t)!;
    const [omitted, explicit] = await Promise.all([embed(t, { url: p.link }), embed(t, { url: p.link, format: EMBED_ARGS.format.default })]);
    if (!ok(omitted.status) || !ok(explicit.status)) t.fail(`embed answered ${omitted.status} without format and ${explicit.status} with format=json`);
    if (!isJson(omitted)) t.fail(`without format the answer is not JSON (content-type ${omitted.headers['content-type']}: ${omitted.text.slice(0, 80)})`);
    if (comparable(omitted.body) !== comparable(explicit.body)) t.fail('the answers without format and with format=json differ');
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'oembed.embed.maxwidth-clamped',
    level: 'SHOULD',
    namespace: 'oembed/1.0',
    route: EMBED.route.path,
    title: 'width is maxwidth clamped to 200–600 and height max(ceil(width·9/16), 200)',
    spec: SPEC,
    covers: ['arg:oembed.embed.read.maxwidth'],
  },
  async (t) => {
    t.requireNamespace('oembed/1.0');
    const p = publishedPost(t)!;
    const wrong: string[] = [];
    await Promise.all(
      [100, 400, 1000].map(async (maxwidth) => {
        const res = await embed(t, { url: p.link, maxwidth });
        const width = Math.min(600, Math.max(200, maxwidth));
        const height = Math.max(Math.ceil((width * 9) / 16), 200);
        if (res.body?.width !== width || res.body?.height !== height)
          wrong.push(`maxwidth=${maxwidth}: ${res.status} ${res.body?.width}×${res.body?.height}, reference ${width}×${height}`);
      }),
    );
    if (wrong.length) t.fail(wrong.join('; '));
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'oembed.embed.unknown-url',
    level: 'SHOULD',
    namespace: 'oembed/1.0',
    route: EMBED.route.path,
    title: 'a URL of the site that identifies no post is refused (404 in the reference)',
    spec: SPEC,
  },
  // The spec does not say what embed answers for a URL it cannot embed; WordPress: 404 oembed_invalid_url.
  async (t) => {
    t.requireNamespace('oembed/1.0');
    const home = String((t.run.info.index as any)?.home ?? t.run.info.targetUrl).replace(/\/+$/, '');
    const url = `${home}/?p=2147480000`;
    const p = publishedPost(t)!;
    expectControlAccepted(t, await embed(t, { url: p.link }), `GET ${EMBED.route.path}?url=<a published post>`, `the unknown URL ${url}`);
    const res = await embed(t, { url });
    if (!refused(res.status)) t.fail(`embed of ${url} (no such post) answered ${res.status}: ${res.text.slice(0, 200)}`);
  },
  { concurrent: true },
);

// ---------------------------------------------------------------------------
// proxy: arguments (with credentials: the checks are about validation, not permission)
// ---------------------------------------------------------------------------

function proxyPrepare(t: BehaviourContext) {
  t.requireNamespace('oembed/1.0');
  t.requireCredentials();
  return publishedPost(t)!;
}

behaviour(
  {
    id: 'oembed.proxy.url-required',
    level: 'MUST',
    namespace: 'oembed/1.0',
    route: PROXY.route.path,
    title: '`url` is required: an authenticated proxy request without it is refused',
    spec: SPEC,
    covers: ['arg:oembed.proxy.read.url'],
  },
  async (t) => {
    const p = proxyPrepare(t);
    expectControlAccepted(t, await proxy(t, { url: p.link }), `GET ${PROXY.route.path}?url=<a published post>`, 'a request without url');
    const res = await proxy(t, {}, 'default', ['url']);
    if (!refused(res.status)) t.fail(`GET ${PROXY.route.path} without url answered ${res.status}, not refused (4xx)`);
  },
  { concurrent: true },
);

/**
 * An arg of the proxy accepts its documented values and refuses one outside them
 * (authenticated, with a valid url: the only reason left to refuse is the value).
 */
function proxyArg(arg: string, good: (string | number)[], bad: string, what: string) {
  behaviour(
    {
      id: `oembed.proxy.${arg}.validated`,
      level: 'MUST',
      namespace: 'oembed/1.0',
      route: PROXY.route.path,
      title: `\`${arg}\` is ${what}: ${good.map((g) => `${arg}=${g}`).join(', ')} accepted, ${arg}=${bad} refused`,
      spec: SPEC,
      covers: [`arg:oembed.proxy.read.${arg}`],
    },
    async (t) => {
      const p = proxyPrepare(t);
      const wrong: string[] = [];
      await Promise.all(
        good.map(async (value) => {
          const res = await proxy(t, { url: p.link, [arg]: value });
          if (!ok(res.status)) wrong.push(whyNotAccepted(res, `${arg}=${value}`));
        }),
      );
      const res = await proxy(t, { url: p.link, [arg]: bad }, 'default', [arg]);
      if (!refused(res.status)) wrong.push(`${arg}=${bad} answered ${res.status}, not refused (4xx)`);
      if (wrong.length) t.fail(wrong.join('; '));
    },
    { concurrent: true },
  );
}

proxyArg('format', [...PROXY_ARGS.format.enum], 'yaml', `only ${PROXY_ARGS.format.enum.join(' or ')}`);
proxyArg('maxwidth', [320], 'wide', 'an integer');
proxyArg('maxheight', [240], 'tall', 'an integer');
proxyArg('discover', ['false', 'true'], 'perhaps', 'a boolean');

// ---------------------------------------------------------------------------
// proxy: authentication (not stated: SHOULD)
// ---------------------------------------------------------------------------

behaviour(
  {
    id: 'oembed.proxy.anonymous-refused',
    level: 'SECURITY',
    namespace: 'oembed/1.0',
    route: PROXY.route.path,
    title: 'security: the proxy refuses a request without credentials (401 in the reference)',
    spec: SPEC,
  },
  // Part 5: "Which routes and methods require authentication or a given capability: not
  // shown". WordPress requires edit_posts for the proxy (it fetches third-party URLs).
  async (t) => {
    const p = proxyPrepare(t);
    const res = await proxy(t, { url: p.link }, 'none');
    if (!refused(res.status)) t.fail(`an anonymous proxy request answered ${res.status}: ${res.text.slice(0, 120)}`);
    expectControlAccepted(t, await proxy(t, { url: p.link }), 'the same proxy request with the configured credentials', 'the anonymous request');
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'oembed.proxy.anonymous-validation',
    level: 'SHOULD',
    namespace: 'oembed/1.0',
    route: PROXY.route.path,
    title: 'without credentials, invalid proxy args are refused as invalid (not 401/403) before the permission check',
    spec: SPEC,
  },
  async (t) => {
    t.requireNamespace('oembed/1.0');
    const p = publishedPost(t)!;
    const wrong: string[] = [];
    // Each with the argument it sends wrong on purpose.
    const cases: [Record<string, string>, string][] = [[{}, 'url'], [{ url: p.link, format: 'yaml' }, 'format'], [{ url: p.link, discover: 'perhaps' }, 'discover']];
    for (const [query, arg] of cases) {
      const res = await proxy(t, query, 'none', [arg]);
      // WordPress answers 400 rest_invalid_param (rest_missing_callback_param without url); part 7
      // shows no status codes, so the order is what is checked: a refusal of the args, not of the credentials.
      if (!isValidationError(res, ['url', ...Object.keys(query)])) wrong.push(`${JSON.stringify(query)}: ${res.status}`);
    }
    if (wrong.length) t.fail(`anonymous requests with invalid args not refused as invalid (as the reference does, with 400) before the permission check: ${wrong.join('; ')}`);
  },
  { concurrent: true },
);
