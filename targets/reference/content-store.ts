/**
 * Posts, pages, revisions, autosaves and media items in memory (one ID sequence, like
 * WordPress's posts table), the category and tag terms, and the text helpers that turn stored
 * values into their rendered forms.
 */

export type PostType = 'post' | 'page' | 'revision' | 'attachment' | 'contact_form';

export interface PostRecord {
  id: number;
  type: PostType;
  /** publish, future, draft, pending, private, trash, inherit, auto-draft */
  status: string;
  /** Status before trashing (restored by nothing here, kept as WordPress keeps _wp_trash_meta_status). */
  trashedFrom?: string;
  /** Publication date (ms since epoch, whole seconds). The site timezone is UTC. */
  date: number;
  modified: number;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  password: string;
  author: number;
  featured_media: number;
  comment_status: string;
  ping_status: string;
  format: string;
  sticky: boolean;
  template: string;
  meta: { footnotes: string };
  categories: number[];
  tags: number[];
  /** Page parent, revision parent, attachment's post. */
  parent: number;
  menu_order: number;
  /** Revisions: true for an autosave (`{parent}-autosave-v1`). */
  autosave?: boolean;
  /** Attachments. */
  mime_type?: string;
  file_name?: string;
  file_size?: number;
  alt_text?: string;
  caption?: string;
  description?: string;
}

export interface Term {
  id: number;
  taxonomy: 'category' | 'post_tag';
  name: string;
  slug: string;
  parent: number;
}

/** The whole seconds of a time (WordPress stores dates to the second). */
export const toSeconds = (ms: number): number => Math.floor(ms / 1000) * 1000;

/** `YYYY-MM-DDTHH:MM:SS`, no offset (how WordPress prints dates); in GMT, or `gmtOffset` hours ahead of it (site time). */
export const fmtDate = (ms: number, gmtOffset = 0): string => new Date(ms + gmtOffset * 3_600_000).toISOString().slice(0, 19);

/**
 * A date-time input as a time: rest_get_date_with_gmt(). `date` is site-local (`gmtOffset` hours
 * ahead of GMT) unless it carries an offset; `date_gmt` is GMT, and an explicit ±offset on it is
 * replaced by +00:00 (rest_parse_date with force_utc).
 */
export function parseInputDate(value: string, gmt: boolean, gmtOffset = 0): number | undefined {
  let v = value.trim();
  if (gmt) v = v.replace(/[+-]\d+:?\d+$/, '+00:00');
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(v);
  if (!m) return undefined;
  let tz = m[4] ?? 'Z';
  if (/^[+-]\d{2}$/.test(tz)) tz += ':00';
  if (/^[+-]\d{4}$/.test(tz)) tz = `${tz.slice(0, 3)}:${tz.slice(3)}`;
  const t = Date.parse(`${m[1]}T${m[2]}${tz}`);
  // A site-local time without a zone: that many hours behind in GMT.
  const local = !gmt && m[4] === undefined ? gmtOffset * 3_600_000 : 0;
  return Number.isNaN(t) ? undefined : toSeconds(t - local);
}

/** sanitize_title(): lowercase, accents dropped, spaces to hyphens, only [a-z0-9_-]. */
export function sanitizeTitle(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/<[^>]*>/g, '')
    .toLowerCase()
    .replace(/&.+?;/g, '')
    .replace(/[\s.]+/g, '-')
    .replace(/[^a-z0-9_-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Where an attachment's file is served, under the site URL. */
export function uploadPath(rec: PostRecord): string {
  const d = new Date(rec.date);
  return `/cms-content/uploads/${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${rec.file_name ?? `${rec.slug}.bin`}`;
}

/** A 1×1 transparent PNG: the seeded media item's file. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Block delimiters (written with \x3C / \x3E: an HTML comment opener is not allowed in a module). */
const BLOCK_COMMENT = /\x3C!--\s*\/?wp:[^>]*?--\x3E\n?/g;
const BLOCK_TAG = /^<\/?(p|div|h[1-6]|ul|ol|li|blockquote|pre|figure|table|hr|section|address|dl|form|fieldset|details|iframe)\b/i;

/** A small wpautop() after do_blocks(): block comments removed, loose paragraphs wrapped in <p>. */
export function autop(text: string): string {
  const t = text.replace(BLOCK_COMMENT, '').replace(/\r\n?/g, '\n').trim();
  if (t === '') return '';
  const parts = t.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  return `${parts.map((p) => (BLOCK_TAG.test(p) ? p : `<p>${p.replace(/\n/g, '<br />\n')}</p>`)).join('\n')}\n`;
}

/** wp_trim_excerpt(): text of the content, `length` words, then ` [&hellip;]`. */
export function generatedExcerpt(content: string, length = 55): string {
  const text = content
    .replace(BLOCK_COMMENT, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return '';
  const words = text.split(' ');
  return words.length > length ? `${words.slice(0, length).join(' ')} [&hellip;]` : text;
}

export class ContentStore {
  readonly posts = new Map<number, PostRecord>();
  readonly terms: Term[] = [
    { id: 1, taxonomy: 'category', name: 'Uncategorized', slug: 'uncategorized', parent: 0 },
    { id: 2, taxonomy: 'category', name: 'News', slug: 'news', parent: 0 },
    { id: 3, taxonomy: 'category', name: 'Local News', slug: 'local-news', parent: 2 },
    { id: 4, taxonomy: 'post_tag', name: 'Featured', slug: 'featured', parent: 0 },
    { id: 5, taxonomy: 'post_tag', name: 'Release', slug: 'release', parent: 0 },
  ];
  private nextId = 1;

  constructor(readonly now: () => number) {
    const t0 = toSeconds(now()) - 3600_000;
    this.insert({
      type: 'post',
      status: 'publish',
      date: t0,
      title: 'Hello world!',
      slug: 'hello-world',
      content:
        '<!-- wp:paragraph -->\n<p>Welcome to the reference site. This is your first post. Edit or delete it, then start writing!</p>\n<!-- /wp:paragraph -->',
      // Also in News and its child Local News, so that include_children can be observed, and a tag
      // in use, so that tag filters can: by a client that cannot create terms.
      categories: [1, 2, 3],
      tags: [4],
    });
    this.insert({
      type: 'page',
      status: 'publish',
      date: t0,
      title: 'Sample Page',
      slug: 'sample-page',
      content: '<!-- wp:paragraph -->\n<p>This is an example page.</p>\n<!-- /wp:paragraph -->',
    });
    this.insert({
      type: 'page',
      status: 'draft',
      date: t0,
      title: 'Privacy Policy',
      slug: 'privacy-policy',
      content: '<!-- wp:heading -->\n<h2>Who we are</h2>\n<!-- /wp:heading -->',
    });
    // Twelve sample images, so that the media collection has more than one default page (10).
    for (let n = 1; n <= 12; n++) {
      const image = this.insert({
        type: 'attachment',
        status: 'inherit',
        date: t0 + n * 1000,
        title: `sample-image-${n}`,
        slug: `sample-image-${n}`,
        mime_type: 'image/png',
        file_name: `sample-image-${n}.png`,
        file_size: PIXEL_PNG.length,
        alt_text: '',
        caption: '',
        description: '',
        comment_status: 'open',
        ping_status: 'closed',
      });
      this.files.set(uploadPath(image), { type: 'image/png', data: PIXEL_PNG });
    }
  }

  /** Store a built record. */
  put(rec: PostRecord): PostRecord {
    this.posts.set(rec.id, rec);
    return rec;
  }

  newId(): number {
    return this.nextId++;
  }

  /** Uploaded files by their path under the site URL. */
  readonly files = new Map<string, { type: string; data: Buffer }>();

  /** Insert a record with WordPress's defaults for what is not given. */
  insert(fields: Partial<PostRecord> & { type: PostType }): PostRecord {
    const rec = this.build(fields);
    this.posts.set(rec.id, rec);
    return rec;
  }

  /** A record with WordPress's defaults and a new ID, not stored yet. */
  build(fields: Partial<PostRecord> & { type: PostType }): PostRecord {
    const now = toSeconds(this.now());
    const rec: PostRecord = {
      id: fields.id ?? this.newId(),
      status: 'draft',
      date: now,
      modified: fields.date ?? now,
      slug: '',
      title: '',
      content: '',
      excerpt: '',
      password: '',
      author: 1,
      featured_media: 0,
      comment_status: fields.type === 'page' ? 'closed' : 'open',
      ping_status: fields.type === 'page' ? 'closed' : 'open',
      format: 'standard',
      sticky: false,
      template: '',
      meta: { footnotes: '' },
      categories: [],
      tags: [],
      parent: 0,
      menu_order: 0,
      ...fields,
    };
    return rec;
  }

  get(id: number, type?: PostType): PostRecord | undefined {
    const rec = this.posts.get(id);
    return rec && (type === undefined || rec.type === type) ? rec : undefined;
  }

  delete(id: number): void {
    this.posts.delete(id);
    // Revisions and autosaves go with their parent (wp_delete_post).
    for (const r of [...this.posts.values()]) if (r.type === 'revision' && r.parent === id) this.posts.delete(r.id);
  }

  /** Revisions of a post, autosaves included, newest first (`date ID` DESC). */
  revisionsOf(parent: number): PostRecord[] {
    return [...this.posts.values()]
      .filter((r) => r.type === 'revision' && r.parent === parent)
      .sort((a, b) => b.date - a.date || b.id - a.id);
  }

  autosaveOf(parent: number, author?: number): PostRecord | undefined {
    return this.revisionsOf(parent).find((r) => r.autosave && (author === undefined || r.author === author));
  }

  /**
   * wp_unique_post_slug(): `slug`, else `slug-2`, `slug-3` ... among all items of the type, pages
   * of every parent included (core part 2: "unique for the type"; WordPress keeps page slugs unique
   * among siblings only, which cms.pages.fields.slug-unique-child reports).
   */
  uniqueSlug(slug: string, type: PostType, selfId: number, _parent = 0): string {
    if (slug === '') return slug;
    const taken = (s: string) =>
      [...this.posts.values()].some(
        (p) =>
          p.id !== selfId &&
          p.type === type &&
          p.slug === s &&
          p.status !== 'trash' &&
          p.status !== 'auto-draft',
      );
    if (!taken(slug)) return slug;
    for (let n = 2; ; n++) if (!taken(`${slug}-${n}`)) return `${slug}-${n}`;
  }

  term(id: number, taxonomy?: Term['taxonomy']): Term | undefined {
    return this.terms.find((t) => t.id === id && (taxonomy === undefined || t.taxonomy === taxonomy));
  }

  /** The term and all its descendants (include_children). */
  withChildren(ids: number[]): number[] {
    const out = new Set(ids);
    let grew = true;
    while (grew) {
      grew = false;
      for (const t of this.terms) if (out.has(t.parent) && !out.has(t.id)) (out.add(t.id), (grew = true));
    }
    return [...out];
  }
}
