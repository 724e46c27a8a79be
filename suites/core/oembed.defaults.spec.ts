/**
 * oEmbed proxy defaults and the XML format (4. Endpoints › oEmbed; 8. Limits "maxwidth: default
 * 600 pixels"): the proxy without format, maxwidth and discover answers as with their documented
 * defaults (json, 600, true); format=xml on the embed route answers an XML oEmbed document
 * (SHOULD: the spec states only the embed default json; the XML shape is the reference's). The
 * proxy accepts format=xml (oembed.proxy.format.validated) but WordPress answers a URL of the site
 * itself in JSON whatever the format, so no XML is expected there.
 * The URL embedded is one of the site's own published posts: no remote provider is involved.
 */
import { endpointById } from '../../schemas/catalog/index.ts';
import { behaviour, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/sdk/http.ts';
import { whyNotAccepted } from '../../src/sdk/controls.ts';

const EMBED = endpointById('oembed.embed.read');
const PROXY = endpointById('oembed.proxy.read');
const PROXY_ARGS = PROXY.endpoint.args as Record<string, any>;
const ok = (status: number) => status >= 200 && status <= 299;

/** The link of a published post of the site: one created when writes are allowed, else the newest listed. */
async function postLink(t: BehaviourContext): Promise<string> {
  if (t.run.info.writes.allowed && t.client.hasCredentials) {
    const p = await t.create('/cms/v2/posts', { title: 'oembed defaults' });
    if (typeof p.link === 'string') return p.link;
  }
  const res = await t.client.get('/cms/v2/posts', { query: { per_page: 1 } });
  const first = Array.isArray(res.body) ? res.body[0] : undefined;
  const link = first?.link;
  if (typeof link === 'string') return link;
  if (!ok(res.status)) t.skip(`not observable: no published post to embed (${whyNotAccepted(res, 'GET /cms/v2/posts?per_page=1')})`);
  // Part 2 lists no `link`: a server may leave the posts' own URL out, and then no URL is known to embed.
  t.skip(first ? 'not observable: the published post carries no link (part 2 lists none), so no URL is known to embed' : 'not observable: GET /cms/v2/posts?per_page=1 lists no published post to embed');
}

/** Embed data without its per-request random parts (the iframe's secret). */
const comparable = (res: Response) => res.text.replace(/secret=(\\?"?)[A-Za-z0-9]+/g, 'secret=$1S');

behaviour(
  {
    id: 'oembed.proxy.defaults',
    level: 'MUST',
    namespace: 'oembed/1.0',
    route: PROXY.route.path,
    title: `the proxy without format, maxwidth and discover answers as with format=${PROXY_ARGS.format.default}, maxwidth=${PROXY_ARGS.maxwidth.default}, discover=${PROXY_ARGS.discover.default}`,
    spec: PROXY.endpoint.spec,
    covers: ['endpoint:oembed.proxy.read', 'arg:oembed.proxy.read.format#default', 'arg:oembed.proxy.read.maxwidth#default', 'arg:oembed.proxy.read.discover#default'],
  },
  async (t) => {
    t.requireNamespace('oembed/1.0');
    t.requireCredentials();
    const url = await postLink(t);
    const explicit = { url, format: PROXY_ARGS.format.default, maxwidth: PROXY_ARGS.maxwidth.default, discover: String(PROXY_ARGS.discover.default) };
    const [omitted, given] = await Promise.all([t.client.get(PROXY.route.path, { query: { url } }), t.client.get(PROXY.route.path, { query: explicit })]);
    if (!ok(given.status)) t.fail(whyNotAccepted(given, `GET ${PROXY.route.path}?url=<a post of the site>&format=json&maxwidth=600&discover=true`));
    if (!ok(omitted.status)) t.fail(whyNotAccepted(omitted, `GET ${PROXY.route.path}?url=<a post of the site>`));
    if (!/json/i.test(omitted.headers['content-type'] ?? '')) t.fail(`without format the proxy answers ${omitted.headers['content-type']}, not JSON (format defaults to json)`);
    if (comparable(omitted) !== comparable(given)) t.fail(`without format, maxwidth and discover the proxy answers otherwise than with their defaults: ${omitted.text.slice(0, 160)} vs ${given.text.slice(0, 160)}`);
  },
  { concurrent: true },
);

behaviour(
  {
    id: 'oembed.format.xml',
    level: 'SHOULD',
    namespace: 'oembed/1.0',
    route: EMBED.route.path,
    title: 'format=xml on the embed route answers an XML oEmbed document, as the reference does',
    spec: EMBED.endpoint.spec,
  },
  async (t) => {
    t.requireNamespace('oembed/1.0');
    t.requireCredentials();
    const url = await postLink(t);
    const problems: string[] = [];
    for (const route of [EMBED.route.path]) {
      const res = await t.client.get(route, { query: { url, format: 'xml' } });
      if (!ok(res.status)) problems.push(whyNotAccepted(res, `GET ${route}?url=<a post of the site>&format=xml`));
      else if (!/xml/i.test(res.headers['content-type'] ?? '') || !/<oembed>[\s\S]*<\/oembed>/.test(res.text)) problems.push(`GET ${route}?format=xml answered ${res.headers['content-type']}: ${res.text.slice(0, 120)}`);
    }
    if (problems.length) t.fail(problems.join('; '));
  },
  { concurrent: true },
);
