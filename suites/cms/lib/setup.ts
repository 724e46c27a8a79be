/**
 * File-level fixtures for the cms suites: created once in a `beforeAll` (only when writes are
 * allowed and credentials were given), tagged with the run ID, force-deleted after the file
 * by the behaviour helper's cleanup (and swept by the CLI after the run).
 */
import type { Faker } from '@faker-js/faker';
import { beforeAll } from 'vitest';
import { mixSeed, seededFaker } from '../../../generators/index.ts';
import { fixtures, runContext, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Client } from '../../../src/sdk/http.ts';
import { rawText, textFields } from '../../../src/sdk/http.ts';
import { FixtureError, createRecovering, fixtureOwner, verifyStored, type Fixtures } from '../../../src/sdk/fixtures.ts';
import type { PostType } from './collections.ts';
import { siteDateTime } from '../../../src/sdk/timezone.ts';

export interface SetupContext {
  client: Client;
  fx: Fixtures;
  /** The run's tag (`cmsc-<run>`): every item carries it in its title. */
  tag: string;
  faker: Faker;
  /**
   * Create a post or page titled `<tag> <title>` (so titles sort by `title`), tracked for deletion.
   * The fixture verifies itself (src/sdk/fixtures.ts verifyStored): a field sent but not stored throws
   * a FixtureError naming the behaviour that owns storing it; `unchecked` fields are not verified
   * (the caller handles what the target made of them).
   */
  create(collection: string, fields?: Record<string, unknown>, unchecked?: readonly string[]): Promise<any>;
  /** Create with exactly this body (its title or slug must carry the tag; text fields as objects), tracked for deletion; verified as `create`. */
  createExact(collection: string, body: Record<string, unknown>): Promise<any>;
  /** A word no other item on the target contains (for search). */
  token(): string;
  /** Realistic title / HTML content / excerpt from the seeded Faker. */
  text(): { title: string; content: string; excerpt: string };
  /** A wall-clock time of the site's timezone with the site's offset (src/sdk/timezone.ts siteDateTime): how a fixture's `date` is written. */
  siteDate(wall: string): string;
}

type State<T> = { kind: 'ready'; value: T } | { kind: 'skip'; reason: string } | { kind: 'error'; error: unknown } | { kind: 'pending' };

export interface FileSetup<T> {
  /** The fixtures, or skip / fail the behaviour when they could not be made. */
  get(t: BehaviourContext): T;
  /** Why there are no fixtures when they were not made on purpose (writes not allowed, no credentials). */
  skipped(): string | undefined;
}

/** Create tagged items through `client`, titled `<tag> <title>` (text fields sent as the documented objects, src/http/wire.ts). */
export async function createTagged(client: Client, fx: Fixtures, collection: string, fields: Record<string, unknown> = {}, unchecked: readonly string[] = []): Promise<any> {
  const title = `${fx.tag} ${rawText(fields.title) ?? fx.label(collection.split('/').pop())}`.trim();
  const body = textFields({ status: 'publish', content: `<p>${fx.tag}</p>`, ...fields, title });
  const res = await createRecovering(client, collection, body);
  if (res.status >= 200 && res.status < 300 && typeof res.body?.id === 'number') {
    fx.track(`${collection}/${res.body.id}`);
    return verifyStored(client, collection, body, res.body, unchecked);
  }
  throw new FixtureError(`could not create a fixture in ${collection} (${JSON.stringify(body).slice(0, 160)}): ${res.status} ${res.text.slice(0, 200)}`, fixtureOwner(collection));
}

/** Create with exactly `body`; its title or slug must carry the tag (so that a sweep finds it). */
export async function createExact(client: Client, fx: Fixtures, collection: string, given: Record<string, unknown>): Promise<any> {
  const body = textFields(given);
  if (![rawText(body.title), body.slug].some((v) => typeof v === 'string' && v.includes(fx.tag))) throw new Error(`fixture body without the run tag: ${JSON.stringify(body).slice(0, 120)}`);
  const res = await createRecovering(client, collection, body);
  if (res.status >= 200 && res.status < 300 && typeof res.body?.id === 'number') {
    fx.track(`${collection}/${res.body.id}`);
    return verifyStored(client, collection, body, res.body);
  }
  throw new FixtureError(`could not create a fixture in ${collection} (${JSON.stringify(body).slice(0, 160)}): ${res.status} ${res.text.slice(0, 200)}`, fixtureOwner(collection));
}

/**
 * The setups declared by the suite file being loaded (this module is evaluated afresh for every
 * suite file): all of them are built at the same time, in one `beforeAll`, because some wait for
 * the clock (dates of second resolution) and a suite worker runs nothing else meanwhile.
 */
const declaredSetups: (() => Promise<void>)[] = [];

/** Declare the file's fixtures; `build` runs once before the file's behaviours (with the file's other setups). */
export function fileSetup<T>(name: string, build: (s: SetupContext) => Promise<T>, opts: { needsCredentials?: boolean } = {}): FileSetup<T> {
  let state: State<T> = { kind: 'pending' };
  if (declaredSetups.length === 0) beforeAll(() => Promise.all(declaredSetups.map((f) => f())).then(() => undefined));
  declaredSetups.push(async () => {
    const run = runContext();
    if (!run.info.writes.allowed) {
      state = { kind: 'skip', reason: `writes not allowed: ${run.info.writes.reason}` };
      return;
    }
    if ((opts.needsCredentials ?? true) && !run.client.hasCredentials) {
      state = { kind: 'skip', reason: 'no credentials: give --user and --app-password (or --auth-header) to create fixtures' };
      return;
    }
    const fx = fixtures();
    const client = run.client.fork('fixtures');
    const faker = seededFaker(mixSeed(run.info.config.seed, name));
    let tokens = 0;
    const compact = fx.tag.replace(/[^a-z0-9]/gi, '');
    const ctx: SetupContext = {
      client,
      fx,
      tag: fx.tag,
      faker,
      create: (collection, fields, unchecked) => createTagged(client, fx, collection, fields, unchecked),
      createExact: (collection, body) => createExact(client, fx, collection, body),
      token: () => `${compact}${faker.string.alpha({ length: 6, casing: 'lower' })}${++tokens}`,
      siteDate: (wall) => siteDateTime(run.index, wall),
      text: () => ({
        title: faker.lorem.words(3),
        content: `<p>${faker.lorem.sentence()}</p>`,
        excerpt: faker.lorem.sentence(),
      }),
    };
    try {
      state = { kind: 'ready', value: await build(ctx) };
    } catch (error) {
      state = { kind: 'error', error };
    }
  });
  return {
    skipped: () => (state.kind === 'skip' ? state.reason : undefined),
    get(t) {
      if (state.kind === 'ready') {
        t.subjects('fixtures');
        return state.value;
      }
      if (state.kind === 'skip') t.skip(state.reason);
      // A FixtureError makes the behaviour skip, naming the behaviour that owns what failed (src/sdk/behaviour.ts).
      if (state.kind === 'error') throw state.error;
      throw new Error('fixtures were not set up (beforeAll did not run)');
    },
  };
}

/** Wait until `ms` milliseconds have passed since `since` (Date.now() value). */
export async function waitSince(since: number, ms: number): Promise<void> {
  const left = since + ms - Date.now();
  if (left > 0) await new Promise((r) => setTimeout(r, left));
}

/**
 * Fixtures of each post type, made at the same time: a type whose fixtures could not be made (or
 * came out different, FixtureError) holds that error, thrown when one of its behaviours asks for
 * them, so that a deviation of posts does not make the page behaviours skip (nor the reverse).
 */
export async function eachType<T>(types: readonly PostType[], build: (type: PostType) => Promise<T>): Promise<Record<string, T>> {
  const out: Record<string, T> = {};
  const settled = await Promise.allSettled(types.map(build));
  settled.forEach((r, i) => {
    const name = types[i]!.name;
    if (r.status === 'fulfilled') out[name] = r.value;
    else if ((r.reason as Error)?.name === 'FixtureError')
      Object.defineProperty(out, name, {
        enumerable: true,
        get() {
          throw r.reason;
        },
      });
    else throw r.reason;
  });
  return out;
}
