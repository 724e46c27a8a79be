/**
 * Which fault runs together with which (one proxy, one CLI run per group), and where.
 *
 * A group is sound when no fault of it changes what the behaviours named by another fault of
 * it observe (each fault only touches requests the other faults' named behaviours never
 * send); the reason is given per group. `CMSC_ISOLATED_FAULTS=1` runs every fault alone
 * instead (the slow, unconditional check of the same claims).
 *
 * WordPress 6.5.5 proves every fault whose behaviours pass on it. The others (their
 * behaviours fail or skip on WordPress for genuine reasons) are proven on the reference server.
 */

/** Faults proven against the embedded WordPress, by test file. */
export const WORDPRESS_GROUPS: Record<'queries' | 'writes', string[][]> = {
  queries: [
    // Every argument refused on its own: each fault only touches requests carrying its argument
    // (per_page other than 1, an empty include, a search without a hyphen: the values the suite
    // sends alongside other arguments are per_page=1, a non-empty include and the run tag).
    [
      ...['context', 'search_columns', 'after', 'before', 'modified_after', 'modified_before', 'author', 'author_exclude', 'exclude', 'slug', 'status', 'tax_relation'],
      ...['categories', 'categories_exclude', 'tags', 'tags_exclude', 'sticky', 'menu_order', 'parent', 'parent_exclude', 'order'],
      ...['per_page', 'include', 'search', 'page', 'offset', 'orderby'],
    ].map((a) => `cms.arg-rejected.${a}`),
    // Filters ignored one each: every filter behaviour judges only what its own argument explains
    // (suites/cms/lib/query-check.ts), so another filter ignored in the same combination leaves
    // its verdict as it is; their scopes (include, slug) are honoured here.
    [
      ...['exclude', 'search', 'search_columns', 'author', 'author_exclude', 'status', 'after', 'before', 'modified_after', 'offset', 'page', 'sticky'],
      ...['categories', 'categories_exclude', 'tags', 'tags_exclude', 'parent', 'parent_exclude', 'menu_order'],
    ].map((a) => `cms.filter-ignored.${a}`),
    // Defaults and the 500 fault: the default behaviours each send the arguments the other
    // defaults fill in, or the filled-in value leaves their result as it is (status=any within an
    // include of published items, per_page=100 on 11 items, order on a count); none expects a 400.
    // And modified dates that updates do not move: only the modified filter checks send modified_*
    // or orderby=modified, and they list a set of published items (order and status immaterial).
    ['cms.invalid-as-500', 'cms.order-default-asc', 'cms.status-default-any', 'cms.per-page-default-ignored', 'cms.update-keeps-modified'],
    // The two scopes, include and slug: the include behaviour scopes by include alone, the slug
    // behaviour by slug alone. The title left out of embed answers: only the context behaviours read context=embed.
    ['cms.filter-ignored.include', 'cms.filter-ignored.slug', 'cms.title-dropped-in-embed'],
    // orderby and tax_relation (authenticated filter reads) with the anonymous-request faults
    // (which only touch requests sent without credentials; revisions and autosaves are read
    // anonymously only by their own behaviours). And modified_before, whose check needs
    // modified_after honoured (filter.modified_after owns that an update moves modified): not in
    // the group above, where modified_after is dropped; it sends no orderby.
    ['cms.filter-ignored.orderby', 'cms.filter-ignored.tax_relation', 'cms.anonymous-write-accepted', 'cms.edit-context-anonymous', 'cms.status-listed-anonymously', 'cms.revisions-served-anonymously', 'cms.filter-ignored.modified_before'],
    // Item rewrites per context: each touches the field its behaviours check in one context
    // (author in every context, which the sub-property checks of the others do not look at).
    // And orderby=date read as id (only orderby.date sends it; it reads ids, no field of an item).
    ['cms.raw-in-view', 'cms.content-in-embed', 'cms.raw-missing-in-edit', 'cms.author-field-dropped', 'cms.orderby-date-as-id'],
    // per_page dropped from every post and page listing (issue 25): alone, since most listings
    // of the other faults' behaviours send per_page.
    ['cms.per-page-ignored'],
  ],
  writes: [
    // Bounds (per_page out of range, page below 1), the write faults (bodies of creates and
    // title-only updates) and autosave answers: disjoint requests; the lifecycle behaviours never
    // send out-of-range per_page or page, nor autosaves.
    [
      'cms.per-page-clamped',
      'cms.page-zero-accepted',
      'cms.trash-status-accepted',
      'cms.unknown-status-accepted',
      'cms.title-required',
      'cms.update-ignored.post',
      'cms.update-ignored.put',
      'cms.autosave-not-own',
      // Slugs of creates and updates that sent a slug in use by another item (issue 26): only the
      // slug-unique behaviours send one; every other write sends a fresh slug or none.
      'cms.slug-echoed-on-create',
      'cms.slug-not-unique-on-update',
      // anonymous reads of a protected item only (no other named behaviour reads one anonymously):
      // the flags (read by password.protected-flag alone) and the content (password.protects looks
      // only for the protected words, not at the flags)
      'cms.protected-flag-dropped',
      'cms.protected-content-served',
    ],
    // Faults on what a create stores, each alone: the fixtures verify themselves when made
    // (src/sdk/fixtures.ts), so a fault that changes a stored field makes every behaviour whose
    // fixture carries it skip (depending on the field's owner), whatever other fault it names.
    ['cms.pending-stored-as-draft'],
    ['cms.password-dropped'],
    // order dropped and orderby=author|parent refused (filter reads), title-only PATCH ignored,
    // the password query dropped (single reads), force=true ignored (deletes): disjoint requests.
    ['cms.filter-ignored.order', 'cms.orderby-rejected', 'cms.update-ignored.patch', 'cms.password-query-ignored', 'cms.delete-force-ignored'],
    // Deletion without force, revisions (deletion, parent, reads under another parent) and
    // autosave lists and reads: distinct routes and methods; edit context by default, where no
    // named behaviour of the others looks at fields of a post or page read without context.
    [
      'cms.delete-without-force-permanent',
      'cms.revision-parent-wrong',
      'cms.revision-any-parent',
      'cms.autosave-not-listed',
      'cms.autosave-not-found',
      'cms.default-context-edit',
      // any password unlocks a protected item's single read (only password.protects sends a wrong one)
      'cms.wrong-password-unlocks',
    ],
    // Revision lists, autosave POSTs turned into updates (with content), page 2 by default,
    // updates without content emptying it: disjoint requests.
    ['cms.revision-not-created', 'cms.autosave-overwrites', 'cms.page-default-second', 'cms.update-clears-content'],
    // A create that ignores status: alone, since it changes every create (the other behaviours'
    // fixtures are verified when made: they skip, depending on write.statuses).
    ['cms.create-ignores-status'],
  ],
};

/** Faults proven against the reference server (their behaviours do not pass on WordPress 6.5.5). */
export const REFERENCE_GROUPS: string[][] = [
  // format, ignore_sticky and search_semantics are not implemented by WordPress 6.5.5; revision
  // deletion is refused to everyone there. Disjoint arguments and routes.
  [
    'cms.arg-rejected.format',
    'cms.arg-rejected.ignore_sticky',
    'cms.arg-rejected.search_semantics',
    'cms.filter-ignored.format',
    'cms.filter-ignored.search_semantics',
    'cms.revision-delete-force-ignored',
    // WordPress itself refuses a post without title, content and excerpt.
    'cms.empty-post-refused',
    // The meanings of the taxonomy filters' values (issue 40; tags and child categories are not in
    // use on WordPress as booted): the categories operator dropped, the tags operator swapped, an
    // include_children added where none is said. Disjoint keys: the operator checks send no
    // include_children, the include_children check no operator.
    'cms.operator-ignored.categories',
    'cms.operator-swapped.tags',
    'cms.include-children-default-true',
  ],
  // The writable fields one by one (suites/cms/lib/write-fields.ts), proven here for speed (they
  // pass on WordPress 7.1 too). Disjoint: valid comment_status values dropped vs invalid values
  // dropped; footnotes "" answered null (only the never-written default: the other behaviours
  // write non-empty footnotes); slugs of creates that sent one; excerpt_length on single GETs.
  // Also (suites/cms/lib/subroutes.ts) identifiers that are not decimal answered as items, and
  // any context accepted on revision and autosave reads: routes and values no other sends.
  [
    'cms.write-field-dropped.comment_status',
    // formats other than aside dropped on post creates (fields.create-stored sends aside; the
    // invalid values of the next fault are not documented formats)
    'cms.create-format-dropped',
    'cms.field-values-unchecked',
    'cms.footnotes-default-missing',
    'cms.slug-not-unique',
    'cms.excerpt-length-ignored',
    'cms.non-decimal-id-routed',
    'cms.subroute-context-unchecked',
    // revision lists without order (only the defaults check sends them in this group); with
    // orderby=id or orderby=include (only the revisions' orderby checks send them)
    'cms.revisions-order-default-asc',
    'cms.revisions-orderby-id-default-order',
    'cms.revisions-orderby-include-ignored',
    // the password field served to anonymous readers of a protected item (only password.protects reads one anonymously here)
    'cms.password-served',
    // No object form read (issue 40; no other fault here touches listings with objects) and
    // tax_relation swapped (its check sends arrays only).
    'cms.object-form-unread',
    'cms.tax-relation-swapped',
  ],
  // Refusal bodies under cms/v2 (only cms.errors.body-shape reads them; a refusal's code is read
  // by nothing else in this group) and X-WP-Total of post and page lists (read by nothing else here);
  // dates written with an offset of their own (only fields.dates writes one); and the autosave
  // routes missing (issue 34), named by the route checks, which read only the index.
  // And the post-only fields served on pages (only fields.absent looks for fields a page lacks;
  // the others read the fields they wrote or the documented ones), and post lists by a format other
  // than standard and aside answered as standard (only filter.format.values sends one).
  ['cms.error-body-bare', 'cms.pagination-total-wrong', 'cms.date-offset-dropped', 'cms.autosaves-missing', 'cms.page-post-only-fields', 'cms.format-filter-partial'],
  // Dates and slugs (issue 36; the reference server's timezone is not GMT, support.ts): date_gmt
  // written alone (fields.dates and the update of fields.update-stored, which set no slug on a
  // draft and no accented one), slugs of drafts, accented slugs, a published child's slug held
  // across parents (disjoint requests).
  ['cms.date-gmt-as-local', 'cms.draft-slug-not-unique', 'cms.slug-accents-kept', 'cms.slug-unique-among-siblings'],
  // Post lists without ignore_sticky answered as ignore_sticky=false (it reorders every post list),
  // and the post-only fields advertised among the page write args (read only by fields.absent).
  ['cms.sticky-first-by-default', 'cms.page-write-args-post-only'],
  // One post field of the wrong type: alone, since it changes every post read.
  ['cms.post-field-wrong-type'],
  // A cache in front of single item reads that writes do not purge: alone, since it changes every item read.
  ['cms.item-cache-stale'],
  // Deviations (issue 25): the footnotes meta key missing (answers, writes and the advertised meta
  // properties of create and update), the format argument neither advertised nor honoured (post
  // listings and their index entry), PUT and PATCH updates that store nothing. Disjoint: the meta
  // rewrite leaves the fields PATCH and the format filter look at as they are, the format fault
  // only touches listings, and PUT and PATCH are distinct methods.
  ['cms.footnotes-missing', 'cms.arg-unsupported.format', 'cms.update-stores-nothing.put', 'cms.update-stores-nothing.patch'],
  // Issue 40: combinations, bounds at their edge, read paths. Disjoint behaviours (the pair of include
  // and exclude; the date bounds; the orderby values; the anonymous read paths), each judging only
  // its own argument in a combination that holds another fault's (lib/query-check.ts); the read
  // paths are anonymous, the others not.
  ['cms.exclude-ignored-with-include', 'cms.date-bounds-inclusive', 'cms.page-cut-before-sort', 'cms.excerpt-length-unprotected'],
  // The read paths again: slug lists of hidden items (the same behaviour as the excerpt's).
  ['cms.slug-lists-hidden-anonymously'],
  // Revision DELETE without force accepted: its behaviour's positive control deletes with
  // force=true, which WordPress refuses to every user (the behaviour skips there); alone, since
  // the force fault of the first group would change what the control observes.
  ['cms.revision-delete-without-force-accepted'],
];

/**
 * Behaviours of cms/ that fail against WordPress 6.5.5 because WordPress genuinely deviates
 * from the spec, and why.
 */
export const WORDPRESS_GENUINE: Record<string, string> = {
  'cms.posts.query.format.values': 'WordPress 6.5.5 has no format filter on posts: any value is accepted (ignored)',
  'cms.posts.filter.format': 'WordPress 6.5.5 has no format filter on posts: the list is not narrowed',
  'cms.posts.filter.format.values': 'WordPress 6.5.5 has no format filter on posts: the list is not narrowed',
  'cms.posts.query.ignore_sticky.values': 'WordPress 6.5.5 has no ignore_sticky argument (added in 6.8): any value is accepted (ignored)',
  'cms.posts.query.search_semantics.values': 'WordPress 6.5.5 has no search_semantics argument (added in 6.7): any value is accepted (ignored)',
  'cms.pages.query.search_semantics.values': 'WordPress 6.5.5 has no search_semantics argument (added in 6.7): any value is accepted (ignored)',
  'cms.posts.create.slug-only': 'WordPress refuses a post without title, content and excerpt (400 empty_content); the spec makes every writable field optional',
  'cms.posts.fields.invalid-refused': 'WordPress 6.5.5 answers password=["x"] on an update of a password-protected post with 500, not a refusal (7.1 answers 400)',
  'cms.pages.fields.invalid-refused': 'WordPress 6.5.5 answers password=["x"] on an update of a password-protected page with 500, not a refusal (7.1 answers 400)',
  'cms.posts.filter.include-exclude': 'WordPress ignores exclude whenever include is given (WP_Query applies post__not_in only when post__in is empty)',
  'cms.pages.filter.include-exclude': 'WordPress ignores exclude whenever include is given (WP_Query applies post__not_in only when post__in is empty)',
  'cms.pages.fields.slug-unique-child': 'WordPress keeps page slugs unique among siblings only: a child page keeps the slug of a top-level page',
};

/** Behaviours that skip against WordPress 6.5.5, and why. */
export const WORDPRESS_SKIPPED: Record<string, string> = {
  'cms.posts.filter.search_semantics': 'search_semantics is not advertised (checked only where advertised)',
  'cms.pages.filter.search_semantics': 'search_semantics is not advertised (checked only where advertised)',
  'cms.posts.query.ignore_sticky.default': 'ignore_sticky is not advertised by WordPress 6.5.5 (checked only where advertised)',
  'cms.posts.read.excerpt-length': 'excerpt_length is not advertised by WordPress 6.5.5 (checked only where advertised)',
  'cms.pages.read.excerpt-length': 'excerpt_length is not advertised by WordPress 6.5.5 (checked only where advertised)',
  'cms.posts.revisions.delete.force': 'WordPress refuses revision deletion to every user (403), a capability matter the spec does not show',
  'cms.pages.revisions.delete.force': 'WordPress refuses revision deletion to every user (403), a capability matter the spec does not show',
  'cms.posts.revisions.delete.without-force': 'WordPress refuses revision deletion even with force=true (403): its refusal without force says nothing about force',
  'cms.pages.revisions.delete.without-force': 'WordPress refuses revision deletion even with force=true (403): its refusal without force says nothing about force',
  'cms.posts.filter.orderby.author': 'every post has author 1 (users cannot be created through documented routes): orderby=author orders nothing there',
  'cms.pages.filter.orderby.author': 'every page has author 1 (as for posts)',
  'cms.posts.filter.orderby.parent': 'posts have no parent: orderby=parent on posts orders nothing',
  'cms.posts.filter.categories.include_children': 'WordPress as booted has no child category: include_children changes nothing there',
};

/**
 * The fault tests' WordPress also holds what the suite cannot create through documented routes
 * (made through WordPress's own routes before the baseline): 11 media items and a tag in use.
 * The embedded WordPress as booted has neither: there these behaviours skip (real-targets.embedded-6.5.5.test.ts).
 */
export const SKIPPED_WITHOUT_MEDIA_AND_TAGS: Record<string, string> = {
  'cms.media.query.per_page.default': 'no media on the target, and uploading is not documented',
  'cms.posts.filter.tags_exclude': 'no tag term exists and terms cannot be created through documented routes',
};

/**
 * Behaviours no fault is shown to break, because no target at hand passes them (a fault proof
 * needs the behaviour to pass without the fault).
 */
export const UNPROVEN: Record<string, string> = {
  // It still fails where orderby=parent is refused (cms.orderby-rejected is caught by the values check).
  'cms.posts.filter.orderby.parent': 'posts carry no parent (every one is 0): orderby=parent ties them all, so the check skips as not observable on every target',
  // orderby=author needs items by several authors; users cannot be created through documented
  // routes, so every fixture of the fault proofs' targets has author 1 (a refusal of the value is
  // caught by the orderby values checks: cms.orderby-rejected).
  'cms.posts.filter.orderby.author': 'every fixture on the fault proofs\' targets has one author: orderby=author is not observable there (it runs on a blog by several authors)',
  'cms.pages.filter.orderby.author': 'every fixture on the fault proofs\' targets has one author: orderby=author is not observable there (it runs on a blog by several authors)',
};

/**
 * The faults of the read behaviours proven a second time read-only (issue 35): a run that may not
 * write (`--read-only`, with credentials) on the reference server with a small real blog
 * (targets/reference/blog.ts), where the behaviours take their subjects from the site's content
 * (suites/cms/lib/sample.ts). A group is sound as above, and besides its faults must leave the
 * sample the behaviours pick from alone where another fault of the group needs it: the sample is
 * read with per_page=100 and page=1, statuses draft, pending, private and future, and the
 * revision and autosave lists of edited items.
 *
 * Not here: the write faults (their behaviours skip read-only), cms.update-keeps-modified (what an
 * update does to the modified date), cms.autosave-not-listed (a read-only run finds the site's
 * autosaves by listing them, so an autosave left out of its list is one it cannot know of).
 */
export const READ_ONLY_GROUPS: string[][] = [
  // Every argument refused on its own (the sample may go unread: the values checks need no item).
  ['context', 'search_columns', 'after', 'before', 'modified_after', 'modified_before', 'author', 'author_exclude', 'exclude', 'slug', 'status', 'tax_relation', 'categories', 'categories_exclude', 'tags', 'tags_exclude', 'sticky', 'menu_order', 'parent', 'parent_exclude', 'order', 'per_page', 'include', 'search', 'page', 'offset', 'orderby', 'format', 'ignore_sticky', 'search_semantics'].map((a) => `cms.arg-rejected.${a}`),
  // Filters ignored one each (each behaviour judges only its own argument; the scopes include and
  // slug are honoured here; the status check finds no item in another status when status is
  // dropped, and then lists published items for status=draft); per_page and page out of range.
  [
    ...['exclude', 'search_columns', 'search_semantics', 'author', 'author_exclude', 'status', 'after', 'before', 'modified_after', 'modified_before', 'offset', 'page', 'sticky', 'format'].map((a) => `cms.filter-ignored.${a}`),
    ...['categories', 'categories_exclude', 'tags', 'tags_exclude', 'parent', 'parent_exclude', 'menu_order'].map((a) => `cms.filter-ignored.${a}`),
    'cms.per-page-clamped',
    'cms.page-zero-accepted',
  ],
  // The defaults: the sample says per_page, page and status (an added status=any is read back by
  // each item's status); an added order=asc only reverses which items are newest.
  ['cms.invalid-as-500', 'cms.order-default-asc', 'cms.status-default-any', 'cms.per-page-default-ignored', 'cms.page-default-second'],
  // The scopes include and slug (each filter behaviour's own scope is one of them; the context checks
  // read the single item first, so a title missing from embed answers is theirs).
  ['cms.filter-ignored.include', 'cms.filter-ignored.slug', 'cms.title-dropped-in-embed'],
  // orderby and tax_relation with the anonymous-read faults (which only touch requests sent
  // without credentials).
  ['cms.filter-ignored.orderby', 'cms.filter-ignored.tax_relation', 'cms.edit-context-anonymous', 'cms.status-listed-anonymously'],
  // search alone: orderby=relevance is sent with a search, so a search dropped leaves the relevance
  // check nothing to judge (it skips, depending on filter.search); and the filters group above
  // holds search_columns, whose check owns what a search sent with search_columns lists.
  ['cms.filter-ignored.search'],
  // Item rewrites per context, and orderby=date read as id.
  ['cms.raw-in-view', 'cms.content-in-embed', 'cms.raw-missing-in-edit', 'cms.author-field-dropped', 'cms.orderby-date-as-id'],
  ['cms.per-page-ignored'],
  // order, orderby refused, the password of protected items, revisions under the wrong parent,
  // autosave reads, authenticated reads without context in edit: distinct requests.
  ['cms.filter-ignored.order', 'cms.orderby-rejected', 'cms.password-query-ignored', 'cms.protected-flag-dropped', 'cms.revision-parent-wrong', 'cms.revision-any-parent', 'cms.autosave-not-found', 'cms.default-context-edit'],
  // Revision lists without order, the context of revision and autosave reads, excerpt_length,
  // identifiers that are not decimal, X-WP-Total, refusal bodies.
  ['cms.revisions-order-default-asc', 'cms.subroute-context-unchecked', 'cms.excerpt-length-ignored', 'cms.non-decimal-id-routed', 'cms.pagination-total-wrong', 'cms.error-body-bare'],
  ['cms.sticky-first-by-default'],
  ['cms.post-field-wrong-type'],
];
