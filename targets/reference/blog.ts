/**
 * The content of a small real blog, for a reference site to be read as a production site is
 * (`serve --content blog`, `startReferenceServer({ content: 'blog' })`): 54 published posts over
 * two years in four categories (one with a child) and six tags, three of them sticky, a few
 * asides and quotes, one protected by a password, drafts, private, pending and future posts; 23
 * pages in a tree with menu_order (one protected, a draft and a private one among them); revisions
 * of the edited items and an autosave of a post and of a page. Deterministic: the same every time
 * (a fixed PRNG and fixed dates), so a run against it is repeatable.
 *
 * The description is plain data (terms by slug, parents by key), so that the project's tests can
 * give a real WordPress the same content through its own API.
 */
import { prng } from '../../schemas/prng.ts';
import type { ContentStore, PostRecord } from './content-store.ts';

export interface BlogTerm {
  slug: string;
  name: string;
  /** Slug of the parent category. */
  parent?: string;
}

export interface BlogRevision {
  date: number;
  title: string;
  content: string;
}

export interface BlogItem {
  /** Unique among the items: a page's children name it as `parent`. */
  key: string;
  type: 'post' | 'page';
  status: 'publish' | 'draft' | 'pending' | 'private' | 'future';
  /** Publication date, ms since epoch (whole seconds, UTC = the site's time zone). */
  date: number;
  modified: number;
  title: string;
  slug: string;
  /** Block markup, as an editor stores it. */
  content: string;
  /** A hand-written excerpt, or '' (generated from the content). */
  excerpt: string;
  /** 1: the administrator, 2: the editor. */
  author: 1 | 2;
  categories: string[];
  tags: string[];
  sticky: boolean;
  format: 'standard' | 'aside' | 'audio' | 'chat' | 'gallery' | 'image' | 'link' | 'quote' | 'status' | 'video';
  password: string;
  /** Default: open for posts, closed for pages (as WordPress). */
  comment_status?: 'open' | 'closed';
  /** Comments of readers (the spec documents no comments route: only a real WordPress gets them, through its own). */
  comments?: string[];
  /** Key of the parent page. */
  parent?: string;
  menu_order: number;
  /** Earlier versions, oldest first (the item's own title and content are the latest). */
  revisions: BlogRevision[];
  /** An autosave of the administrator's, newer than the item. */
  autosave?: { title: string; content: string };
}

export interface Blog {
  categories: BlogTerm[];
  tags: BlogTerm[];
  items: BlogItem[];
}

const DAY = 86_400_000;
const START = Date.UTC(2023, 0, 4, 8, 0, 0);
const SPAN_DAYS = 715;

const CATEGORIES: BlogTerm[] = [
  { slug: 'travel', name: 'Travel' },
  { slug: 'food', name: 'Food' },
  { slug: 'technology', name: 'Technology' },
  { slug: 'notes', name: 'Notes' },
  { slug: 'recipes', name: 'Recipes', parent: 'food' },
];
const TAGS: BlogTerm[] = [
  { slug: 'howto', name: 'How-to' },
  { slug: 'review', name: 'Review' },
  { slug: 'photos', name: 'Photos' },
  { slug: 'opinion', name: 'Opinion' },
  { slug: 'long-read', name: 'Long read' },
  { slug: 'weekend', name: 'Weekend' },
];

/** Title subjects per category (each title is unique: subject + setting). */
const SUBJECTS: Record<string, string[]> = {
  travel: ['harbour walks', 'mountain trails', 'night trains', 'coastal villages', 'market towns', 'island ferries', 'old lighthouses', 'river cruises'],
  food: ['sourdough bread', 'summer salads', 'autumn soups', 'spice blends', 'winter stews', 'fresh pasta', 'orchard fruit'],
  technology: ['keyboard layouts', 'static sites', 'backup routines', 'home servers', 'password managers', 'camera sensors', 'battery care'],
  notes: ['reading lists', 'garden diaries', 'quiet mornings', 'weekly reviews', 'letter writing', 'city sketches'],
};
const SETTINGS = ['in spring', 'after the rain', 'on a budget', 'for beginners', 'revisited', 'at dawn', 'in the north', 'by bicycle'];
const LEADS = ['Notes on', 'A guide to', 'Thoughts about', 'Lessons from', 'Field notes:', 'Why I like', 'Looking back at', 'Getting started with'];
/** Words of the bodies; several are also words of other items' titles (search finds an item by its content as well as by its title). */
const BODY_WORDS =
  'morning light harbour market bread trail station village coffee notebook journey window garden camera river lantern ferry bicycle orchard kitchen recipe backup server battery keyboard letter sketch reading quiet season weather support events archive newsletter'.split(
    ' ',
  );

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const slugOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-');

function paragraph(rnd: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(BODY_WORDS[Math.floor(rnd() * BODY_WORDS.length)]!);
  return `${cap(out.join(' '))}.`;
}

function body(rnd: () => number, paragraphs: number): string {
  const parts: string[] = [];
  for (let i = 0; i < paragraphs; i++) parts.push(`<!-- wp:paragraph -->\n<p>${paragraph(rnd, 18 + Math.floor(rnd() * 30))}</p>\n<!-- /wp:paragraph -->`);
  return parts.join('\n\n');
}

const atSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/** The blog, the same on every call. */
export function realisticBlog(): Blog {
  const rnd = prng(20230104);
  const items: BlogItem[] = [];
  const used = new Set<string>();
  const cats = Object.keys(SUBJECTS);

  const uniqueTitle = (cat: string, n: number): string => {
    for (let k = 0; ; k++) {
      const subject = SUBJECTS[cat]![(n + k) % SUBJECTS[cat]!.length]!;
      const lead = LEADS[Math.floor(rnd() * LEADS.length)]!;
      const setting = SETTINGS[Math.floor(rnd() * SETTINGS.length)]!;
      const title = `${lead} ${subject} ${setting}`;
      if (!used.has(title)) {
        used.add(title);
        return title;
      }
    }
  };

  const post = (n: number, status: BlogItem['status'], date: number): BlogItem => {
    const cat = cats[n % cats.length]!;
    const title = uniqueTitle(cat, n);
    const categories = [cat === 'food' && n % 3 === 0 ? 'recipes' : cat, ...(n % 11 === 0 ? ['notes'] : [])];
    if (cat === 'food' && n % 3 === 0 && n % 2 === 0) categories.push('food');
    const tags = TAGS.filter((_, i) => (n * 7 + i * 5) % 9 < 2).map((t) => t.slug);
    const edited = n % 4 === 1;
    const modified = edited ? atSecond(date + (3 + Math.floor(rnd() * 40)) * DAY + Math.floor(rnd() * 3600) * 1000) : date;
    const content = body(rnd, 2 + Math.floor(rnd() * 4));
    const revisions: BlogRevision[] = [];
    if (edited) {
      const count = 1 + (n % 4 === 1 && n % 8 === 1 ? 3 : Math.floor(rnd() * 2));
      for (let r = 0; r < count; r++) {
        revisions.push({ date: atSecond(date + ((modified - date) * r) / count), title: r === 0 ? `${title} (draft)` : title, content: body(rnd, 2) });
      }
    }
    return {
      key: `post-${n}`,
      type: 'post',
      status,
      date,
      modified,
      title,
      slug: slugOf(title),
      content,
      excerpt: n % 6 === 2 ? paragraph(rnd, 14) : '',
      author: n % 5 < 3 ? 1 : 2,
      categories: [...new Set(categories)],
      tags,
      sticky: false,
      format: 'standard',
      password: '',
      menu_order: 0,
      revisions,
    };
  };

  // 54 published posts, one every ~13 days over two years, at varied times of day.
  for (let n = 0; n < 54; n++) {
    const date = atSecond(START + Math.floor((n * SPAN_DAYS) / 54) * DAY + Math.floor(rnd() * 10 * 3600) * 1000);
    items.push(post(n, 'publish', date));
  }
  const published = items.filter((i) => i.type === 'post');
  // Three sticky posts, none of them among the newest.
  for (const n of [5, 17, 30]) published[n]!.sticky = true;
  for (const n of [8, 26, 44]) published[n]!.format = 'aside';
  for (const n of [13, 39]) published[n]!.format = 'quote';
  // A post with a one-word title (search_semantics=exact finds it by that word alone).
  published[21]!.title = 'Gratitude';
  published[21]!.slug = 'gratitude';
  // A post protected by a password.
  published[33]!.password = 'open-sesame';
  // An autosave of the administrator's on the post edited longest after its publication.
  const gap = (i: BlogItem) => i.modified - i.date;
  const autosaved = published.filter((p) => p.revisions.length >= 2 && p.author === 1).sort((a, b) => gap(b) - gap(a))[0]!;
  autosaved.autosave = { title: `${autosaved.title} (autosave)`, content: body(rnd, 1) };

  // Posts that are not public.
  const last = START + SPAN_DAYS * DAY;
  const hidden: [BlogItem['status'], number][] = [
    ['draft', last + 2 * DAY],
    ['draft', last + 5 * DAY],
    ['draft', START + 300 * DAY],
    ['draft', last + 9 * DAY],
    ['private', START + 120 * DAY],
    ['private', START + 480 * DAY],
    ['pending', last + 7 * DAY],
    ['future', Date.UTC(2099, 5, 1, 9, 0, 0)],
  ];
  hidden.forEach(([status, date], i) => {
    const p = post(60 + i, status, atSecond(date));
    p.key = `post-${status}-${i}`;
    items.push(p);
  });

  // Pages: a tree of 21 published pages (one protected by a password), a draft and a private one.
  const tree: [string, string | undefined, number][] = [
    ['About', undefined, 1],
    ['Team', 'About', 1],
    ['History', 'About', 2],
    ['Press', 'About', 3],
    ['Services', undefined, 2],
    ['Consulting', 'Services', 1],
    ['Workshops', 'Services', 2],
    ['Support', 'Services', 3],
    ['Guides', undefined, 3],
    ['Getting started', 'Guides', 1],
    ['Advanced topics', 'Guides', 2],
    ['Frequently asked questions', 'Guides', 3],
    ['Contact', undefined, 4],
    ['Legal', undefined, 5],
    ['Terms of use', 'Legal', 1],
    ['Cookie notice', 'Legal', 2],
    ['Archive', undefined, 6],
    ['Newsletter', undefined, 7],
    ['Events', undefined, 8],
    ['Colophon', undefined, 9],
    ['Members area', undefined, 10],
  ];
  tree.forEach(([title, parent, order], i) => {
    const date = atSecond(START + (i * 9 + 2) * DAY + 11 * 3600_000);
    const edited = i % 5 === 0;
    const modified = edited ? atSecond(date + (20 + i) * DAY) : date;
    items.push({
      key: `page-${slugOf(title)}`,
      type: 'page',
      status: 'publish',
      date,
      modified,
      title,
      slug: slugOf(title),
      content: body(rnd, 2 + (i % 3)),
      excerpt: '',
      author: i % 4 === 3 ? 2 : 1,
      categories: [],
      tags: [],
      sticky: false,
      format: 'standard',
      password: title === 'Members area' ? 'members-only' : '',
      ...(parent ? { parent: `page-${slugOf(parent)}` } : {}),
      menu_order: order,
      revisions: edited ? [{ date, title, content: body(rnd, 1) }, { date: atSecond(date + 2 * DAY), title, content: body(rnd, 2) }, { date: modified, title, content: body(rnd, 2) }] : [],
    });
  });
  // And one on the page edited longest after its publication.
  const page = items.filter((i) => i.type === 'page' && i.revisions.length).sort((a, b) => gap(b) - gap(a))[0]!;
  page.autosave = { title: `${page.title} (autosave)`, content: body(rnd, 1) };
  for (const [title, status, days] of [
    ['Upcoming launch', 'draft', SPAN_DAYS + 3],
    ['Internal notes', 'private', 200],
  ] as const) {
    const date = atSecond(START + days * DAY);
    items.push({ key: `page-${slugOf(title)}`, type: 'page', status, date, modified: date, title, slug: slugOf(title), content: body(rnd, 2), excerpt: '', author: 1, categories: [], tags: [], sticky: false, format: 'standard', password: '', menu_order: 10, revisions: [] });
  }
  // Items were not written in the order of their dates (drafts published later, pages added to
  // the tree over time): their identifiers, given in this order, do not follow the dates. Parents first.
  const shuffled = <T>(list: T[]): T[] => list.map((x) => ({ x, r: rnd() })).sort((a, b) => a.r - b.r).map(({ x }) => x);
  const posts = shuffled(items.filter((i) => i.type === 'post'));
  const tops = shuffled(items.filter((i) => i.type === 'page' && !i.parent));
  const children = shuffled(items.filter((i) => i.type === 'page' && i.parent));
  return { categories: CATEGORIES, tags: TAGS, items: [...posts, ...tops, ...children] };
}

/**
 * Give a store the blog: its terms after the store's own, its items with their revisions (the
 * earlier versions, then one of the item as it is, as WordPress keeps after every update) and the
 * autosave.
 */
/**
 * What the blog holds, in words, counted from the blog itself (help texts and the README say this,
 * never a number typed by hand): "54 published posts over two years in categories and tags, …,
 * 21 published pages in a tree (and a draft and a private one), …".
 */
export function describeBlog(blog: Blog = realisticBlog()): string {
  const n = (type: BlogItem['type'], status: BlogItem['status']) => blog.items.filter((i) => i.type === type && i.status === status).length;
  const others = (type: BlogItem['type']) => (['draft', 'pending', 'private', 'future'] as const).filter((s) => n(type, s)).map((s) => `${n(type, s)} ${s}`);
  const years = new Set(blog.items.filter((i) => i.type === 'post' && i.status === 'publish').map((i) => new Date(i.date).getUTCFullYear())).size;
  return `${n('post', 'publish')} published posts over ${years} years in categories and tags (sticky, aside, quote and protected ones among them; and ${others('post').join(', ')}), ${n('page', 'publish')} published pages in a tree (and ${others('page').join(', ')}), revisions and autosaves`;
}

export function seedBlog(store: ContentStore, blog: Blog = realisticBlog()): void {
  const termIds = new Map<string, number>();
  let next = Math.max(...store.terms.map((t) => t.id)) + 1;
  for (const [taxonomy, list] of [['category', blog.categories], ['post_tag', blog.tags]] as const)
    for (const t of list) {
      const id = next++;
      termIds.set(`${taxonomy}:${t.slug}`, id);
      store.terms.push({ id, taxonomy, name: t.name, slug: t.slug, parent: t.parent ? termIds.get(`category:${t.parent}`)! : 0 });
    }
  const ids = new Map<string, number>();
  for (const item of blog.items) {
    const rec = store.insert({
      type: item.type,
      status: item.status,
      date: item.date,
      modified: item.modified,
      title: item.title,
      slug: item.slug,
      content: item.content,
      excerpt: item.excerpt,
      password: item.password,
      author: item.author,
      categories: item.categories.map((s) => termIds.get(`category:${s}`)!),
      tags: item.tags.map((s) => termIds.get(`post_tag:${s}`)!),
      sticky: item.sticky,
      format: item.format,
      ...(item.comment_status ? { comment_status: item.comment_status } : {}),
      parent: item.parent ? ids.get(item.parent)! : 0,
      menu_order: item.menu_order,
    });
    ids.set(item.key, rec.id);
    const versions = item.revisions.length ? [...item.revisions, { date: item.modified, title: item.title, content: item.content }] : [];
    for (const v of versions) store.insert(revisionOf(rec, v));
    if (item.autosave) store.insert({ ...revisionOf(rec, { date: item.modified + 3_600_000, ...item.autosave }), slug: `${rec.id}-autosave-v1`, autosave: true, author: 1 });
  }
}

function revisionOf(rec: PostRecord, v: BlogRevision): Partial<PostRecord> & { type: 'revision' } {
  return { type: 'revision', status: 'inherit', parent: rec.id, slug: `${rec.id}-revision-v1`, title: v.title, content: v.content, excerpt: rec.excerpt, author: rec.author, date: v.date, modified: v.date, comment_status: 'closed', ping_status: 'closed' };
}
