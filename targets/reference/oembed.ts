/**
 * oEmbed routes (`oembed/1.0`). Args come from the catalog; what the spec does not show follows
 * WP_oEmbed_Controller and get_oembed_response_data() (wordpress-behaviour.md §9): embed data for
 * the site's own published items, width clamped to 200..600, height max(ceil(width·9/16), 200),
 * 404 oembed_invalid_url otherwise, XML when format=xml; the proxy needs a logged-in user.
 */
import { RestError, authCode, restError } from './errors.ts';
import { linkOf, uploadPath } from './content-render.ts';
import type { PostRecord } from './content-store.ts';
import { RestResponse, type HandlerContext, type HandlerTable, type RestRequest } from './types.ts';

const notFound = (): RestError => restError('oembed_invalid_url', 'Not Found', 404);

const escHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');

/** url_to_postid() for plain permalinks of this site: ?p=, ?page_id=, ?attachment_id=. */
function postForUrl(url: string, ctx: HandlerContext): PostRecord | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const home = new URL(ctx.base);
  if (u.hostname.replace(/^www\./, '') !== home.hostname.replace(/^www\./, '')) return undefined;
  const m = /[?&](p|page_id|attachment_id)=(\d+)/.exec(url);
  if (!m) return undefined;
  const rec = ctx.site.content.get(Number(m[2]));
  if (!rec || !['post', 'page', 'attachment'].includes(rec.type)) return undefined;
  // is_post_publicly_viewable(): published items (attachments inherit a viewable status).
  if (rec.type === 'attachment' ? rec.status !== 'inherit' : rec.status !== 'publish') return undefined;
  return rec;
}

/** get_oembed_response_data(). */
export function oembedData(rec: PostRecord, maxwidth: number, ctx: HandlerContext): Record<string, unknown> {
  const width = Math.min(Math.max(200, maxwidth), 600);
  const height = Math.max(Math.ceil((width / 16) * 9), 200);
  const author = ctx.site.userById(rec.author);
  const link = linkOf(rec, ctx.base);
  const secret = 'reference';
  const title = rec.title;
  const data: Record<string, unknown> = {
    version: '1.0',
    provider_name: ctx.site.name,
    provider_url: ctx.base,
    author_name: author?.name ?? '',
    author_url: `${ctx.base}/?author=${rec.author}`,
    title,
    type: 'rich',
    width,
    height,
    html:
      `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${escHtml(link)}">${escHtml(title)}</a></blockquote>` +
      `<iframe sandbox="allow-scripts" security="restricted" src="${escHtml(`${link}&embed=true`)}#?secret=${secret}" width="${width}" height="${height}" ` +
      `title="&#8220;${escHtml(title)}&#8221; &#8212; ${escHtml(ctx.site.name)}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`,
  };
  const thumb = rec.type === 'attachment' ? rec : rec.featured_media ? ctx.site.content.get(rec.featured_media, 'attachment') : undefined;
  if (thumb && (thumb.mime_type ?? '').startsWith('image/')) {
    data.thumbnail_url = `${ctx.base}${uploadPath(thumb)}`;
    data.thumbnail_width = 1;
    data.thumbnail_height = 1;
  }
  return data;
}

/** _oembed_create_xml(). */
export function oembedXml(data: unknown): string {
  const node = (value: unknown): string => {
    if (value === null || value === undefined || value === false) return '';
    if (typeof value === 'object')
      return Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => {
          const tag = /^\d+$/.test(k) ? 'oembed' : k;
          return `<${tag}>${node(v)}</${tag}>`;
        })
        .join('');
    return escHtml(value === true ? '1' : String(value));
  };
  return `<?xml version="1.0"?>\n<oembed>${node(data)}</oembed>\n`;
}

/** Serve an /oembed/1.0/embed response as XML when format=xml (the rest_pre_serve_request filter). */
export function maybeXml(req: RestRequest, res: RestResponse): RestResponse {
  if (req.route !== '/oembed/1.0/embed' || req.method !== 'GET' || req.get('format') !== 'xml') return res;
  res.raw = { body: oembedXml(res.data), contentType: 'text/xml; charset=UTF-8' };
  return res;
}

/** maxwidth sanitized with absint. */
const absint = (v: unknown): number => Math.abs(Math.trunc(Number(v))) || 0;

export const oembedHandlers: HandlerTable = {
  'oembed.embed.read': {
    hooks: {
      // wp_oembed_ensure_format(): anything but xml becomes json (no error).
      format: { validate: () => true, sanitize: (v) => (v === 'xml' ? 'xml' : 'json') },
      maxwidth: { validate: () => true, sanitize: absint },
    },
    handler(req, ctx) {
      const rec = postForUrl(String(req.get('url') ?? ''), ctx);
      if (!rec) return notFound();
      return oembedData(rec, Number(req.get('maxwidth') ?? 600), ctx);
    },
  },
  'oembed.proxy.read': {
    permission: (req) =>
      req.loggedIn ? true : restError('rest_forbidden', 'Sorry, you are not allowed to make proxied oEmbed requests.', authCode(false)),
    handler(req, ctx) {
      // Local URLs are answered directly; external providers cannot be reached from here, which
      // WordPress reports as 404 oembed_invalid_url.
      const rec = postForUrl(String(req.get('url') ?? ''), ctx);
      if (!rec) return notFound();
      const data = oembedData(rec, Number(req.get('maxwidth') ?? 600), ctx);
      const maxheight = req.get('maxheight');
      if (typeof maxheight === 'number' && maxheight > 0 && (data.height as number) > maxheight) data.height = maxheight;
      return new RestResponse(data);
    },
  },
};
