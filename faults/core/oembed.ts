/**
 * Faults of oEmbed (core part 9): the embed and proxy routes' arguments, defaults and refusals,
 * and the proxy served without credentials.
 */
import { json, type Fault, type FaultRequest } from '../proxy.ts';
import { authFault, credentials } from './auth.ts';

const EMBED = '/oembed/1.0/embed';
const PROXY = '/oembed/1.0/proxy';

const isGet = (req: FaultRequest, route: string) => req.route === route && req.method === 'GET';
const FAKE_EMBED = { version: '1.0', type: 'rich', provider_name: 'fault', title: 'fault', width: 600, height: 338, html: '<blockquote>fault</blockquote>' };

export const oembedFaults: Fault[] = [
  {
    id: 'oembed.url-not-required',
    title: 'answers embed data to embed and proxy requests without url',
    caughtBy: ['oembed.embed.url-required', 'oembed.proxy.url-required'],
    request(req) {
      if ((isGet(req, EMBED) || isGet(req, PROXY)) && !req.query.has('url')) return json(200, FAKE_EMBED);
    },
  },
  {
    id: 'oembed.post-url-refused',
    title: "answers 404 for a published post's own URL",
    caughtBy: ['oembed.embed.post-url'],
    request(req) {
      if (isGet(req, EMBED) && req.query.has('url')) return json(404, { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
    },
  },
  {
    id: 'oembed.data-incomplete',
    title: 'answers embed data without version and html',
    caughtBy: ['oembed.embed.data'],
    response(req, res) {
      if (isGet(req, EMBED) && res.json && typeof res.json === 'object') {
        delete res.json.version;
        delete res.json.html;
      }
    },
  },
  {
    id: 'oembed.maxwidth-default-wrong',
    title: 'takes maxwidth 400 when it is omitted (documented default 600)',
    caughtBy: ['oembed.embed.maxwidth-default'],
    request(req) {
      if (isGet(req, EMBED) && !req.query.has('maxwidth')) req.query.set('maxwidth', '400');
    },
  },
  {
    id: 'oembed.format-default-xml',
    title: 'answers XML when format is omitted (documented default json)',
    caughtBy: ['oembed.embed.format-default'],
    request(req) {
      if (isGet(req, EMBED) && !req.query.has('format')) req.query.set('format', 'xml');
    },
  },
  {
    id: 'oembed.maxwidth-ignored',
    title: 'ignores maxwidth (always 600 wide)',
    caughtBy: ['oembed.embed.maxwidth-clamped'],
    request(req) {
      if (isGet(req, EMBED)) req.query.delete('maxwidth');
    },
  },
  {
    id: 'oembed.unknown-url-accepted',
    title: 'answers embed data for a URL that identifies no post',
    caughtBy: ['oembed.embed.unknown-url'],
    response(req, res) {
      if (isGet(req, EMBED) && res.status === 404) Object.assign(res, json(200, FAKE_EMBED));
    },
  },
  {
    id: 'oembed.proxy-maxwidth-default-wrong',
    title: 'takes proxy maxwidth 300 when it is omitted (documented default 600)',
    caughtBy: ['oembed.proxy.defaults'],
    request(req) {
      if (isGet(req, PROXY) && !req.query.has('maxwidth')) req.query.set('maxwidth', '300');
    },
  },
  {
    id: 'oembed.embed-xml-as-json',
    title: 'answers an embed asked for format=xml in JSON',
    caughtBy: ['oembed.format.xml'],
    request(req) {
      if (isGet(req, EMBED) && req.query.get('format') === 'xml') req.query.delete('format');
    },
  },
  {
    id: 'oembed.proxy-format-unchecked',
    title: 'takes any proxy format other than xml as json',
    caughtBy: ['oembed.proxy.format.validated'],
    request(req) {
      const f = req.query.get('format');
      if (isGet(req, PROXY) && f !== null && f !== 'json' && f !== 'xml') req.query.set('format', 'json');
    },
  },
  {
    id: 'oembed.proxy-discover-unchecked',
    title: 'ignores a proxy discover value that is not a boolean',
    caughtBy: ['oembed.proxy.discover.validated'],
    request(req) {
      const d = req.query.get('discover');
      if (isGet(req, PROXY) && d !== null && !/^(true|false|1|0)$/i.test(d)) req.query.delete('discover');
    },
  },
  authFault('oembed.proxy-without-auth', 'serves the proxy to requests without credentials', ['oembed.proxy.anonymous-refused'], (req) => {
    if (isGet(req, PROXY) && !req.authenticated) credentials.authenticate(req);
  }),
  {
    id: 'oembed.proxy-dimensions-unchecked',
    title: 'takes a proxy maxwidth or maxheight that is not an integer as 0 (absint), as WordPress does',
    caughtBy: ['oembed.proxy.maxwidth.validated', 'oembed.proxy.maxheight.validated'],
    request(req) {
      for (const k of ['maxwidth', 'maxheight']) {
        const v = req.query.get(k);
        if (isGet(req, PROXY) && v !== null && !/^\d+$/.test(v)) req.query.set(k, '0');
      }
    },
  },
  {
    id: 'oembed.proxy-auth-before-validation',
    title: 'refuses anonymous proxy requests (401) before validating their args',
    caughtBy: ['oembed.proxy.anonymous-validation'],
    request(req) {
      if (isGet(req, PROXY) && !req.authenticated) return json(401, { code: 'rest_forbidden', message: 'Sorry, you are not allowed to make proxied oEmbed requests.', data: { status: 401 } });
    },
  },
];
