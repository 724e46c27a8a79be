/**
 * Which extension faults are proven where, and which share a round (one CLI run through one
 * proxy). Faults share a round only when each breaks requests that only the behaviours it names
 * send, and no other fault of the round changes those requests or what those behaviours need
 * (a fault that stops forms from being created never shares a round with one whose behaviours
 * read a form, and so on). Each round runs against a fresh target state (the reference server is
 * started anew for every round; the WordPress faults store nothing).
 */

/** On the embedded WordPress (Akismet): the spam filter behaviours that pass there. */
export const WORDPRESS_ROUNDS: string[][] = [
  // POST /settings (non-booleans; booleans); GET /stats?interval=6-months; GET /spamfilter/v1:
  // disjoint requests, each named behaviour fails through its own fault. (DELETE /key is proven on
  // the reference server: offline Akismet stores no key, so there is nothing to delete here.)
  [
    'ext.spamfilter.settings-non-boolean-accepted',
    'ext.spamfilter.settings-not-stored',
    'ext.spamfilter.stats-query-rejects-documented',
    'ext.spamfilter.index-missing',
  ],
  // Anonymous reads and anonymous writes served as the administrator's: the read behaviours send
  // only anonymous GETs, the write behaviours only anonymous writes (their reads carry credentials).
  ['ext.spamfilter.anonymous-reads-served', 'ext.spamfilter.anonymous-writes-served'],
];

/** On the reference server: everything else (all three namespaces). */
export const REFERENCE_ROUNDS: string[][] = [
  [
    // Keys of other lengths (stored anyway) / DELETE ignored: different requests.
    'ext.spamfilter.key-wrong-length-stored',
    'ext.spamfilter.key-delete-ignored',
    // ?interval=<bad>, /stats/<documented>, /stats/<bad>, /stats without interval: four disjoint request sets.
    'ext.spamfilter.stats-interval-not-enforced',
    'ext.spamfilter.stats-path-rejects-documented',
    'ext.spamfilter.stats-path-permissive',
    'ext.spamfilter.stats-default-wrong',
    // Requests for an id no form has (forms of our own are still created).
    'ext.contactform.missing-id-accepted',
    // Values outside an enum (strings of the right type); lang_id left out of GET (no enum).
    'ext.suite.setting-outside-enum-accepted',
    'ext.suite.settings-read-missing',
    // Allowed values dropped (issue 40): the last of three or more through /settings, those other
    // than the default through /module/<slug>, every setting through /settings/<slug>. Disjoint
    // routes and values: the enum checks above send values outside the lists and write the current
    // one (the default on this fresh site) back, as the value checks' restores do.
    'ext.suite.setting-late-enum-value-not-stored',
    'ext.suite.module-route-enum-values-ignored',
    'ext.suite.per-module-route-ignored',
    // /module/<slug>/active only.
    'ext.suite.module-toggle-ignored',
    // The namespace index, bad path segments, and missing / mistyped / out-of-enum parameters of
    // the parameter routes: disjoint requests.
    'ext.suite.index-missing',
    'ext.suite.route-pattern-permissive',
    'ext.suite.required-param-not-enforced',
    'ext.suite.param-type-not-enforced',
    'ext.suite.param-enum-not-enforced',
    // The last documented value of an enum refused: only the enum-values checks send one.
    'ext.suite.param-enum-value-refused',
  ],
  [
    // 12-character keys only.
    'ext.spamfilter.key-not-stored',
    // GET of an existing form; list and sub-routes (the shared form is still created); the index.
    'ext.contactform.read-broken',
    'ext.contactform.routes-missing',
    'ext.contactform.index-missing',
    // Wrong-type setting writes; valid setting writes (disjoint); writes through /module/<slug>
    // (its module is activated through /active, untouched here).
    'ext.suite.setting-wrong-type-accepted',
    'ext.suite.setting-not-stored',
    'ext.suite.module-write-ignored',
    // POST /settings with toggles only; /module/all/active without a modules array, or without active; /active without active.
    'ext.suite.settings-toggle-ignored',
    'ext.suite.all-active-modules-not-validated',
    'ext.suite.all-active-wrong-default',
    'ext.suite.module-active-default-ignored',
    // The params of 400 answers (only the SHOULD behaviours look at them); GET /plugins.
    'ext.suite.param-errors-unnamed',
    'ext.suite.plugins-list-broken',
    // GET /connection/test (GET /site still answers, so the target still counts as connected).
    'ext.suite.connection-test-broken',
  ],
  [
    // GET /key (no other spam filter fault here: every key behaviour reads the key).
    'ext.spamfilter.key-read-broken',
    // PATCH on a form; the list; titles on update; DELETE of a form: disjoint requests.
    'ext.contactform.patch-missing',
    'ext.contactform.not-listed',
    'ext.contactform.title-not-updated',
    'ext.contactform.form-not-deleted',
    // Wrong-type booleans rewritten (no other setting fault here: one would swallow the rewritten request).
    'ext.suite.setting-wrong-type-stored',
    'ext.suite.all-active-ignores-active',
    'ext.suite.module-active-type-accepted',
    // GET /site (the connection test still passes); every other suite GET but /plugins (no behaviour
    // named in this round reads them).
    'ext.suite.site-broken',
    'ext.suite.reads-broken',
    // The latex module missing: its toggle on GET /settings and GET /module/latex (no toggle
    // fault here, whose behaviours would include latex's, which then skips).
    'ext.suite.module-unknown',
  ],
  [
    // Positive controls, 1: every setting value on GET /settings (only the value checks run),
    // every statistics request, every request with a path segment, every parameter route, and
    // creating a form (the only contact form behaviour named): disjoint requests.
    'ext.suite.settings-values-wrong-type',
    'ext.spamfilter.stats-refuse-all',
    'ext.suite.pattern-routes-refuse-all',
    'ext.suite.param-routes-missing',
    'ext.contactform.create-without-id',
    // Keys of other lengths accepted (no other key fault here).
    'ext.spamfilter.key-wrong-length-accepted',
    // The module toggles missing from GET /settings (only their value checks run; the settings'
    // values are another fault's, disjoint keys).
    'ext.suite.module-toggles-missing',
  ],
  [
    // Positive controls, 2: GET /settings not an object (only its owner runs); every key and
    // spam filter settings write; every request for a form by id (forms are still created).
    'ext.suite.settings-not-object',
    'ext.spamfilter.writes-refused',
    'ext.contactform.items-not-found',
  ],
  [
    // Positive controls, 3: every POST /settings (type and enum checks), every /module/all/active
    // request, every request to the parameter routes (no other fault touches them here).
    'ext.suite.settings-writes-refused',
    'ext.suite.all-active-refuse-all',
    'ext.suite.params-refuse-all',
    // Submissions answered without a status (the shared form is still created and read); form
    // updates answered as dry runs (only the update behaviours write a form by id).
    'ext.contactform.feedback-without-status',
    'ext.contactform.update-dry-run',
    // DELETE /key failing (no other key fault here).
    'ext.spamfilter.key-delete-broken',
  ],
  [
    // Positive controls, 4: every /module/<slug>/active request (alone: the module behaviours of
    // the other rounds set modules up through it).
    'ext.suite.module-active-refuse-all',
  ],
  [
    // Settings of the wrong type through /module/<slug> (no toggle in those bodies); every write
    // method of the other write routes missing (disjoint routes).
    'ext.suite.module-route-wrong-type-accepted',
    'ext.suite.write-methods-missing',
  ],
  [
    // Toggles that are not booleans on /settings and /module/<slug>; every request to the other
    // write routes refused (disjoint routes).
    'ext.suite.toggle-wrong-type-accepted',
    'ext.suite.write-methods-refuse-all',
  ],
  [
    // The read defaults (GET .../data without range; POST .../key/check without api_key), alone:
    // the refusal above would swallow key/check.
    'ext.suite.read-defaults-wrong',
  ],
  [
    // Positive controls, 5: every write to /module/<slug> (its setting and toggle checks); the
    // namespace indexes of spamfilter, contactform and suite without context; the indexes of the
    // other extension namespaces (disjoint requests).
    'ext.suite.module-route-refuse-all',
    'ext.index-defaults-wrong',
    'ext.namespaces-missing',
  ],
  [
    // Anonymous requests served as the administrator's, per namespace: each fault touches only
    // anonymous requests of its own namespace and kind (GET, or the write methods), which only its
    // own security behaviours send (the statistics fault: anonymous GETs of /spamfilter/v1/stats*).
    'ext.spamfilter.anonymous-stats-served',
    'ext.contactform.anonymous-reads-served',
    'ext.contactform.anonymous-writes-served',
    'ext.suite.anonymous-reads-served',
    'ext.suite.anonymous-writes-served',
  ],
];

/**
 * On the reference server with --fresh-site (test/extensions/fresh-site.test.ts): the defaults of
 * site state, checked only on a fresh site.
 */
export const FRESH_SITE_ROUNDS: string[][] = [['ext.suite.settings-defaults-wrong']];
