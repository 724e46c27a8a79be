/**
 * Content with the features of the standard WordPress theme test content (the "theme unit test"
 * data theme authors import), for a reference site to be read as a production site is (`serve
 * --content theme-test`, `startReferenceServer({ content: 'theme-test' })`), and for the project's
 * tests to give a real WordPress the same through its own API (test/helpers/live-site.ts): what
 * such a site has that a tidy blog has not.
 *
 * - a post protected by a password whose title names the password ("the password is 'enter'"),
 *   and a protected page;
 * - pages three levels deep, siblings ordered by menu_order, a page with a long title;
 * - two sticky posts, a scheduled (future) post far ahead, drafts, a pending and a private post;
 * - a category tree three levels deep and many flat categories, many tags; a post in every
 *   category and one with every tag; posts in a child category only;
 * - titles that are long, hold one very long word, special characters, markup, quotes, non-Latin
 *   letters; a post without a title and one without content; every post format;
 * - a defined excerpt, a generated one, a more tag, a paginated post (nextpage), block and classic
 *   markup; posts imported with the same date (ties) and never modified;
 * - comments (a real WordPress gets them through its comments route), comments closed on some.
 *
 * Deterministic: the same every time (fixed dates, a fixed PRNG), in the blog's description format
 * (blog.ts), so seedBlog gives it to a reference site.
 */
import { prng } from '../../schemas/prng.ts';
import type { Blog, BlogItem, BlogTerm } from './blog.ts';

const DAY = 86_400_000;
/** Imported content: most items on a few days of 2010-2013, several at the very same second. */
const at = (y: number, m: number, d: number, h = 9, min = 0) => Date.UTC(y, m - 1, d, h, min, 0);

const WORDS =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim minim veniam quis nostrud exercitation ullamco laboris nisi aliquip commodo consequat duis aute irure reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat proident sunt culpa officia deserunt mollit anim est laborum'.split(
    ' ',
  );

const CATEGORIES: BlogTerm[] = [
  { slug: 'parent-category', name: 'Parent Category' },
  { slug: 'child-category-01', name: 'Child Category 01', parent: 'parent-category' },
  { slug: 'child-category-02', name: 'Child Category 02', parent: 'parent-category' },
  { slug: 'child-category-03', name: 'Child Category 03', parent: 'parent-category' },
  { slug: 'grandchild-category', name: 'Grandchild Category', parent: 'child-category-03' },
  ...['Alpha Cat', 'Bravo Cat', 'Charlie Cat', 'Delta Cat', 'Echo Cat', 'Foxtrot Cat', 'Golf Cat', 'Hotel Cat', 'India Cat', 'Juliet Cat', 'Kilo Cat', 'Lima Cat'].map((name) => ({
    slug: name.toLowerCase().replace(/ /g, '-'),
    name,
  })),
  { slug: 'edge-case-2', name: 'Edge Case' },
  { slug: 'markup', name: 'Markup' },
  { slug: 'post-formats', name: 'Post Formats' },
  { slug: 'template', name: 'Template' },
  { slug: 'unpublished', name: 'Unpublished' },
];
const TAGS: BlogTerm[] = [
  '8BIT',
  'Articles',
  'dowork',
  'Fail',
  'FTW',
  'Fun',
  'Love',
  'Mothership',
  'Must Read',
  'Nailed It',
  'Pictures',
  'Success',
  'Swagger',
  'Tags',
  'Unseen',
  'WordPress',
  'alignment',
  'captions',
  'comments',
  'content',
  'css',
  'edge case',
  'embeds',
  'excerpt',
  'formatting',
  'html',
  'image',
  'jetpack',
  'layout',
  'markup',
  'password',
  'pingbacks',
  'post formats',
  'readability',
  'shortcode',
  'sticky',
  'template',
  'title',
  'trackbacks',
  'video',
].map((name) => ({ slug: name.toLowerCase().replace(/ /g, '-'), name }));

const slugOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-');

/** The theme test content, the same on every call. */
export function themeTestContent(): Blog {
  const rnd = prng(20100810);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]!).join(' ');
  const sentence = (n: number) => `${words(n).replace(/^./, (c) => c.toUpperCase())}.`;
  const para = (n = 40) => `<!-- wp:paragraph -->\n<p>${sentence(n)}</p>\n<!-- /wp:paragraph -->`;
  const paras = (k: number) => Array.from({ length: k }, () => para(30 + Math.floor(rnd() * 40))).join('\n\n');
  const items: BlogItem[] = [];
  const used = new Set<string>();
  let n = 0;
  const item = (over: Partial<BlogItem> & { title: string; date: number }): BlogItem => {
    n++;
    let slug = over.slug ?? (slugOf(over.title) || `${n}-2`);
    while (used.has(slug)) slug = `${slug}-2`;
    used.add(slug);
    const it: BlogItem = {
      key: `${over.type ?? 'post'}-${n}`,
      type: 'post',
      status: 'publish',
      modified: over.date,
      slug,
      content: paras(2),
      excerpt: '',
      author: n % 3 === 0 ? 2 : 1,
      categories: [],
      tags: [],
      sticky: false,
      format: 'standard',
      password: '',
      menu_order: 0,
      revisions: [],
      ...over,
    };
    items.push(it);
    return it;
  };

  // --- posts: the templates
  const imported = at(2013, 1, 10, 10);
  item({ title: 'Template: Sticky', date: at(2012, 1, 7, 7, 7), sticky: true, categories: ['template'], tags: ['sticky', 'template'], content: paras(3) });
  item({ title: 'Template: Sticky (another)', date: at(2011, 6, 14), sticky: true, categories: ['template'], tags: ['sticky'] });
  item({
    title: 'Template: Password Protected (the password is “enter”)',
    date: at(2012, 1, 4, 9),
    password: 'enter',
    categories: ['template'],
    tags: ['password', 'template'],
    content: `<!-- wp:paragraph -->\n<p>This content, comments, pingbacks, and trackbacks should not be visible until the password is entered. ${sentence(20)}</p>\n<!-- /wp:paragraph -->`,
  });
  item({ title: 'Template: Excerpt (Defined)', date: at(2012, 3, 15), categories: ['template'], tags: ['excerpt', 'template'], excerpt: 'This is a user-defined post excerpt. It should be displayed in place of the post content in archive-index pages.', content: paras(3) });
  item({ title: 'Template: Excerpt (Generated)', date: at(2012, 3, 14), categories: ['template'], tags: ['excerpt', 'template'], content: paras(5) });
  item({ title: 'Template: More Tag', date: at(2012, 3, 15, 10), categories: ['template'], tags: ['template', 'content'], content: `${para(30)}\n\n<!-- wp:more -->\n<!--more-->\n<!-- /wp:more -->\n\n${paras(2)}` });
  item({ title: 'Template: Paginated', date: at(2012, 1, 8, 11), categories: ['template'], tags: ['template', 'content'], content: `${para(30)}\n\n<!-- wp:nextpage -->\n<!--nextpage-->\n<!-- /wp:nextpage -->\n\n${para(30)}\n\n<!-- wp:nextpage -->\n<!--nextpage-->\n<!-- /wp:nextpage -->\n\n${para(30)}` });
  item({ title: 'Template: Comments', date: at(2012, 1, 3, 10, 20), categories: ['template'], tags: ['comments', 'template'], comments: ['Great post.', 'I disagree, respectfully.', 'A reply with <em>markup</em> and a link: https://example.org/'] });
  item({ title: 'Template: Comments Disabled', date: at(2012, 1, 3, 10, 25), categories: ['template'], tags: ['comments', 'template'], comment_status: 'closed' });
  item({ title: 'Template: Pingbacks And Trackbacks', date: at(2012, 1, 1, 10), categories: ['template'], tags: ['pingbacks', 'trackbacks', 'template'] });
  // --- markup and titles
  item({ title: 'Markup: Title With Special Characters ~`!@#$%^&*()-_=+{}[]/;:\'"?,.>', slug: 'title-with-special-characters', date: at(2013, 1, 5), categories: ['markup'], tags: ['html', 'markup', 'title'] });
  item({ title: 'Markup: Title With Markup <em>emphasis</em> and <code>code</code>', slug: 'title-with-markup', date: at(2013, 1, 5, 10), categories: ['markup'], tags: ['html', 'markup', 'title'] });
  item({ title: 'Markup: HTML Tags and Formatting', date: at(2013, 1, 11), categories: ['markup'], tags: ['formatting', 'html', 'markup'], content: `<h2>Headings</h2>\n<p>${sentence(25)}</p>\n<blockquote><p>${sentence(12)}</p></blockquote>\n<ul><li>${words(3)}</li><li>${words(4)}</li></ul>\n<table><tr><td>${words(2)}</td><td>${words(2)}</td></tr></table>` });
  item({ title: 'Markup: Text Alignment', date: at(2013, 1, 10, 10), categories: ['markup'], tags: ['alignment', 'content', 'css', 'markup'], content: paras(4) });
  item({ title: 'Markup: Image Alignment', date: imported, categories: ['markup'], tags: ['alignment', 'captions', 'image', 'markup'] });
  item({ title: 'Markup: Title “Curly Quotes” & ‘Apostrophes’ – Dashes…', slug: 'title-curly-quotes', date: imported, categories: ['markup'], tags: ['title'] });
  item({ title: 'Markup: Über Ünïcödé Títlé — café, naïve, 日本語のタイトル', slug: 'unicode-title', date: imported, categories: ['markup'], tags: ['title', 'readability'] });
  // --- edge cases
  item({ title: '', slug: 'edge-case-no-title', date: at(2009, 9, 5, 9), categories: ['edge-case-2'], tags: ['edge-case', 'title'] });
  item({ title: 'Edge Case: No Content', date: at(2009, 8, 6, 9), categories: ['edge-case-2'], tags: ['content', 'edge-case'], content: '' });
  item({ title: 'Edge Case: Many Categories', date: at(2009, 7, 2), categories: CATEGORIES.map((c) => c.slug), tags: ['edge-case'] });
  item({ title: 'Edge Case: Many Tags', date: at(2009, 6, 1), categories: ['edge-case-2'], tags: TAGS.map((t) => t.slug) });
  item({ title: 'Edge Case: Nested And Mixed Lists', date: at(2009, 5, 15), categories: ['edge-case-2'], tags: ['content', 'css', 'edge-case', 'markup'], content: `<ul><li>${words(3)}<ol><li>${words(2)}<ul><li>${words(4)}</li></ul></li></ol></li><li>${words(2)}</li></ul>` });
  item({
    title: 'Title Should Not Overflow the Content Area: Antidisestablishmentarianismpneumonoultramicroscopicsilicovolcanoconiosis and a title that goes on and on well past what any layout expects of a single heading line',
    slug: 'title-should-not-overflow-the-content-area',
    date: at(2009, 10, 20),
    categories: ['edge-case-2'],
    tags: ['edge-case', 'layout', 'title'],
  });
  item({ title: 'Edge Case: Embedded Media', date: at(2009, 4, 3), categories: ['edge-case-2'], tags: ['embeds', 'video'], content: `<!-- wp:embed {"url":"https://example.org/video/1"} -->\n<figure class="wp-block-embed"><div class="wp-block-embed__wrapper">https://example.org/video/1</div></figure>\n<!-- /wp:embed -->\n\n${para()}` });
  // --- every post format
  for (const [i, format] of (['aside', 'audio', 'chat', 'gallery', 'image', 'link', 'quote', 'status', 'video'] as const).entries())
    item({ title: format === 'aside' || format === 'status' ? '' : `Post Format: ${format.charAt(0).toUpperCase()}${format.slice(1)}`, slug: `post-format-${format}`, date: at(2010, 8, 1 + i, 9), format, categories: ['post-formats'], tags: ['post-formats'], content: para(format === 'status' ? 14 : 40) });
  // --- the category tree: posts in a child only, the grandchild only, the parent only
  item({ title: 'Child Category Post', date: at(2011, 3, 1), categories: ['child-category-01'], tags: ['Fun'.toLowerCase()] });
  item({ title: 'Second Child Category Post', date: at(2011, 3, 2), categories: ['child-category-02', 'alpha-cat'] });
  item({ title: 'Grandchild Category Post', date: at(2011, 3, 3), categories: ['grandchild-category'], tags: ['success'] });
  item({ title: 'Parent Category Post', date: at(2011, 3, 4), categories: ['parent-category'], tags: ['love', 'fun'] });
  // --- imported at the same second, never modified: ties for every date order
  for (const [i, cat] of ['bravo-cat', 'charlie-cat', 'delta-cat', 'echo-cat', 'foxtrot-cat'].entries())
    item({ title: `Imported Post ${['One', 'Two', 'Three', 'Four', 'Five'][i]}`, date: at(2010, 10, 25, 12), categories: [cat], tags: [TAGS[(i * 7) % TAGS.length]!.slug, TAGS[(i * 11 + 3) % TAGS.length]!.slug] });
  // --- more ordinary posts, spread over three years, some edited later
  for (let k = 0; k < 16; k++) {
    const date = at(2010, 1, 1) + Math.floor((k * 1000 * DAY) / 16) + Math.floor(rnd() * 8) * 3600_000;
    const edited = k % 5 === 2;
    const cats = CATEGORIES.filter((c) => !c.parent && c.slug.endsWith('-cat'));
    const it = item({
      title: `${sentence(3 + (k % 5)).slice(0, -1)}`,
      date,
      modified: edited ? date + (30 + k) * DAY : date,
      categories: [cats[k % cats.length]!.slug, ...(k % 4 === 0 ? [cats[(k + 5) % cats.length]!.slug] : [])],
      tags: TAGS.filter((_, i) => (k * 3 + i) % 13 === 0).map((t) => t.slug),
      content: paras(2 + (k % 3)),
      excerpt: k % 7 === 3 ? sentence(18) : '',
    });
    if (edited) it.revisions = [{ date, title: `${it.title} (first draft)`, content: para(20) }];
  }
  // --- not published
  item({ title: 'Scheduled', date: at(2099, 1, 1, 12), status: 'future', categories: ['unpublished'] });
  item({ title: 'Draft', date: at(2013, 4, 1), status: 'draft', categories: ['unpublished'] });
  item({ title: 'Draft: a second one', date: at(2013, 4, 2), status: 'draft', categories: ['unpublished'] });
  item({ title: 'Pending Review', date: at(2013, 4, 3), status: 'pending', categories: ['unpublished'] });
  item({ title: 'Private Post', date: at(2013, 4, 4), status: 'private', categories: ['unpublished'] });
  // An autosave of the administrator's on an edited post.
  const edited = items.find((i) => i.revisions.length && i.author === 1);
  if (edited) edited.autosave = { title: `${edited.title} (autosave)`, content: para(15) };

  // --- pages: three levels, siblings by menu_order, a protected page, a long title, comments
  const page = (title: string, over: Partial<BlogItem> = {}) => item({ type: 'page', title, date: at(2011, 5, 20 + (n % 7), 9, n % 60), comment_status: 'closed', ...over });
  page('About The Tests', { menu_order: 1, content: paras(2) });
  const l1 = page('Level 1', { menu_order: 2 });
  const l2 = page('Level 2', { parent: l1.key, menu_order: 1 });
  page('Level 3', { parent: l2.key, menu_order: 1 });
  page('Level 3a', { parent: l2.key, menu_order: 2 });
  page('Level 3b', { parent: l2.key, menu_order: 3 });
  page('Level 2a', { parent: l1.key, menu_order: 2 });
  page('Level 2b', { parent: l1.key, menu_order: 3 });
  const a = page('Page A', { menu_order: 3 });
  page('Page B', { menu_order: 4 });
  page('Child of Page A', { parent: a.key, menu_order: 0 });
  page('Page Image Alignment', { menu_order: 5 });
  page('Page Markup And Formatting', { menu_order: 6, content: `<h2>Heading</h2>\n<p>${sentence(20)}</p>` });
  page('Page with comments', { menu_order: 7, comment_status: 'open', comments: ['A comment on a page.'] });
  page('Page with comments disabled', { menu_order: 8 });
  page('Clearing Floats', { menu_order: 9 });
  page('Lorem Ipsum', { menu_order: 10, content: paras(4) });
  page('A page with a title long enough to wrap onto a second and even a third line in the navigation menu of a theme', { menu_order: 11 });
  page('Protected Page (the password is “enter”)', { menu_order: 12, password: 'enter' });
  page('Draft Page', { status: 'draft', menu_order: 13 });
  page('Private Page', { status: 'private', menu_order: 14 });
  const edPage = page('Edited Page', { menu_order: 15 });
  edPage.revisions = [{ date: edPage.date, title: 'Edited Page (first draft)', content: para(10) }];
  edPage.modified = edPage.date + 40 * DAY;

  // Parents first (their keys are named by the children), pages after posts.
  const depth = (i: BlogItem): number => (i.parent ? 1 + depth(items.find((x) => x.key === i.parent)!) : 0);
  const ordered = [...items.filter((i) => i.type === 'post'), ...items.filter((i) => i.type === 'page').sort((x, y) => depth(x) - depth(y))];
  return { categories: CATEGORIES, tags: TAGS, items: ordered };
}
