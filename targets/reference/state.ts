/**
 * The in-memory state of one reference site: users and their application passwords, site
 * options, and the stores of each namespace. Nothing is persisted; a new process (or a new
 * handler) starts from the same seed.
 */
import { randomInt } from 'node:crypto';
import { seedBlog } from './blog.ts';
import { themeTestContent } from './theme-test.ts';
import { ContentStore } from './content-store.ts';
import { FormStore } from './contactform-store.ts';
import { SpamFilterState } from './spamfilter-state.ts';
import { SuiteState } from './suite-state.ts';
import { DEFAULT_DIALECT, type Dialect } from './dialect.ts';

export interface User {
  id: number;
  login: string;
  email: string;
  name: string;
  slug: string;
  /** Application passwords (24 alphanumerics each). */
  appPasswords: string[];
  roles: string[];
}

export interface SiteOptions {
  user?: string;
  appPassword?: string;
  /** Fixed clock for tests (ms since epoch at start). */
  now?: () => number;
  /** The readings of the documents this site serves (dialect.ts); WordPress's by default. */
  dialect?: Partial<Dialect>;
  /**
   * The site timezone (default UTC, gmt_offset 0): `date` and `modified` are written and read in
   * it, `date_gmt` and `modified_gmt` in GMT. A zone without daylight saving time, so that its
   * offset is gmt_offset at every date (e.g. { gmtOffset: 5.5, timezoneString: 'Asia/Kolkata' }).
   */
  timezone?: { gmtOffset: number; timezoneString: string };
  /**
   * The content it starts with: `sample` (default) a post, two pages and twelve media items, as a
   * new WordPress has; `blog` also the content of a small real blog (blog.ts), for read-only runs;
   * `theme-test` also content with the features of WordPress's theme test content (theme-test.ts).
   */
  content?: SiteContent;
}

export type SiteContent = 'sample' | 'blog' | 'theme-test';
export const SITE_CONTENTS: readonly SiteContent[] = ['sample', 'blog', 'theme-test'];

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 24 random alphanumerics, like WP_Application_Passwords::create_new_application_password(). */
export function randomAppPassword(): string {
  let s = '';
  for (let i = 0; i < 24; i++) s += ALNUM[randomInt(ALNUM.length)];
  return s;
}

/** The spaced form WordPress shows (`abcd efgh ...`). */
export const chunkPassword = (p: string): string => p.replace(/(.{4})(?=.)/g, '$1 ');

export class Site {
  readonly name = 'Reference Site';
  readonly description = 'A reference implementation of the Content Site REST Interface';
  /** The site timezone: UTC (gmt_offset 0) unless told. The extension document says timezone_string is non-empty. */
  readonly timezoneString: string;
  readonly gmtOffset: number;
  /** Admin path of the authorization URL ({base_url}/<admin_path>/authorize-application.php). */
  readonly adminPath = 'cms-admin';
  readonly users: User[];
  readonly now: () => number;
  readonly content: ContentStore;
  readonly forms: FormStore;
  readonly spam: SpamFilterState;
  readonly suite: SuiteState;
  /** The readings of the documents this site serves (dialect.ts). */
  readonly dialect: Readonly<Dialect>;

  constructor(opts: SiteOptions = {}) {
    this.now = opts.now ?? (() => Date.now());
    this.dialect = Object.freeze({ ...DEFAULT_DIALECT, ...opts.dialect });
    this.gmtOffset = opts.timezone?.gmtOffset ?? 0;
    this.timezoneString = opts.timezone?.timezoneString ?? 'UTC';
    const login = opts.user ?? 'admin';
    this.users = [
      {
        id: 1,
        login,
        email: `${login}@example.org`,
        name: login,
        slug: login.toLowerCase().replace(/[^a-z0-9_-]+/g, '-'),
        appPasswords: [opts.appPassword ?? randomAppPassword()],
        roles: ['administrator'],
      },
      // A second author without credentials, so that author filters have something to tell apart.
      { id: 2, login: 'editor', email: 'editor@example.org', name: 'Editor', slug: 'editor', appPasswords: [], roles: ['editor'] },
    ];
    this.content = new ContentStore(this.now);
    if (opts.content === 'blog') seedBlog(this.content);
    if (opts.content === 'theme-test') seedBlog(this.content, themeTestContent());
    this.forms = new FormStore(this.content);
    this.spam = new SpamFilterState();
    this.suite = new SuiteState();
  }

  get admin(): User {
    return this.users[0]!;
  }

  userById(id: number): User | undefined {
    return this.users.find((u) => u.id === id);
  }
}
