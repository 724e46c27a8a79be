/**
 * Dates and slugs as part 2 states them (issue 36), on create and on update:
 * - `date` is the publication date in the site timezone, `date_gmt` the same date in GMT, and the
 *   index's `gmt_offset` (part 1: "numeric offset of the site timezone from GMT, in hours") is how
 *   far apart they are: an item written with only `date_gmt` reads back with the `date` the offset
 *   implies, one written with only `date` with the `date_gmt`, and a `date` that carries an offset
 *   of its own (a date-time may) names that instant;
 * - `slug` is "an alphanumeric identifier unique for the type": a draft asking for a slug in use
 *   gets another one (or is refused), as an update does, and accented letters are made plain.
 *
 * Items are created here (tagged, deleted after the file) and read back in edit context.
 */
import { behaviour, fixtures, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import { answerOf, whyNotAccepted } from '../../../src/sdk/controls.ts';
import { zoneOffsetHours, zoneText } from '../../../src/sdk/timezone.ts';
import type { Response } from '../../../src/sdk/http.ts';
import type { PostType } from './collections.ts';
import { cmsDecl } from './declare.ts';
import { checkStale, readItemEdit, tryCreateItem } from './read-back.ts';

const HOUR = 3_600_000;
const ok = (status: number) => status >= 200 && status <= 299;
const show = (v: unknown) => JSON.stringify(v)?.slice(0, 120);

/** `YYYY-MM-DDTHH:MM:SS` of an instant, `hours` ahead of GMT. */
const wallClock = (ms: number, hours: number) => new Date(ms + hours * HOUR).toISOString().slice(0, 19);

const zoneOf = zoneText;

/**
 * How a date read back (`got`) differs from the instant `ms` written in `hours` ahead of GMT, or
 * undefined when it is that instant so written: its wall clock must be `hours` ahead of GMT, and a
 * zone it carries must name the same instant (servers may leave the zone out: items.ts).
 */
function dateProblem(got: unknown, ms: number, hours: number): string | undefined {
  const want = wallClock(ms, hours);
  if (typeof got !== 'string') return `is ${show(got)}, expected ${want}`;
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(got);
  if (!m) return `is ${show(got)}, not a date-time`;
  const wall = `${m[1]}T${m[2]}`;
  if (wall !== want) return `is ${got}, expected ${want}`;
  if (m[3]) {
    const zone = m[3].toUpperCase() === 'Z' ? 'Z' : m[3].length === 5 ? `${m[3].slice(0, 3)}:${m[3].slice(3)}` : m[3];
    if (Date.parse(`${wall}${zone}`) !== ms) return `is ${got}, a zone that does not name the instant ${wall} stands for`;
  }
  return undefined;
}

export function defineDatesAndSlugs(type: PostType): void {
  const create = `cms.${type.name}.collection.create`;
  const update = `cms.${type.name}.item.update`;

  const tryCreate = (t: BehaviourContext, body: Record<string, unknown>) => tryCreateItem(t, type, body);
  const readEdit = (t: BehaviourContext, id: number) => readItemEdit(t, type, id);

  /** A tagged title and slug for a new item. */
  const names = (hint: string) => {
    const label = fixtures().label(hint);
    return { title: { raw: label }, slug: label };
  };

  behaviour(
    cmsDecl(type, 'fields.dates', {
      level: 'MUST',
      title: 'date (site timezone) and date_gmt (GMT) are gmt_offset apart on create and update: written with only date_gmt, only date, or a date carrying an offset of its own, both read back as that instant',
      route: type.paths.collection,
      spec: type.spec.fields,
      covers: [`field:${type.resource.id}.date`, `field:${type.resource.id}.date_gmt`, `arg:${create}.date#format`, `arg:${create}.date_gmt#format`, `arg:${update}.date#format`, `arg:${update}.date_gmt#format`],
    }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const raw = t.index?.gmt_offset;
      const indexHours = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(indexHours)) t.dependsOn('disc.index.field.gmt_offset', `the index's gmt_offset is ${show(raw)}, not numeric: the site's offset from GMT is not known`);
      // Instants of the last hours (whole seconds; past, so a published item stays published). Where
      // timezone_string names a zone, its offset at each instant (gmt_offset is today's, and a zone
      // may have changed its offset since: daylight saving time).
      const zone = typeof t.index?.timezone_string === 'string' ? t.index.timezone_string : '';
      const hoursAt = (ms: number) => (zone ? zoneOffsetHours(zone, ms) : undefined) ?? indexHours;
      const now = Math.floor(Date.now() / 1000) * 1000;
      const at = [now - 3 * HOUR, now - 3 * HOUR - 61_000, now - 3 * HOUR - 122_000, now - 2 * HOUR, now - 2 * HOUR - 61_000];
      // An offset of its own for the `date` that carries one: three hours from the site's.
      const own = Math.abs(hoursAt(at[2]!) + 3) <= 14 ? hoursAt(at[2]!) + 3 : hoursAt(at[2]!) - 3;
      const cases: { what: string; body: Record<string, unknown>; ms: number; id?: number }[] = [
        // Each date-time with its zone (RFC 3339, which every reading takes): date_gmt in GMT, date in
        // the site's offset at that instant, and one date in another offset.
        { what: 'created with only date_gmt', body: { date_gmt: `${wallClock(at[0]!, 0)}Z` }, ms: at[0]! },
        { what: 'created with only date', body: { date: `${wallClock(at[1]!, hoursAt(at[1]!))}${zoneOf(hoursAt(at[1]!))}` }, ms: at[1]! },
        { what: `created with a date carrying the offset ${zoneOf(own)}`, body: { date: `${wallClock(at[2]!, own)}${zoneOf(own)}` }, ms: at[2]! },
      ];
      const made = await Promise.all(cases.map((c, i) => tryCreate(t, { ...names(`dates-${i}`), status: 'publish', content: { raw: '<p>dates</p>' }, ...c.body })));
      made.forEach((res, i) => {
        if (!ok(res.status) || typeof res.body?.id !== 'number') t.fail(whyNotAccepted(res, `POST ${type.collection} ${show(cases[i]!.body)}`));
        cases[i]!.id = res.body.id;
      });
      // Updates: the item created with only date_gmt given only a date, and the other way round.
      const updates = [
        { what: `updated with only date`, id: cases[0]!.id!, body: { date: `${wallClock(at[3]!, hoursAt(at[3]!))}${zoneOf(hoursAt(at[3]!))}` }, ms: at[3]! },
        { what: `updated with only date_gmt`, id: cases[1]!.id!, body: { date_gmt: `${wallClock(at[4]!, 0)}Z` }, ms: at[4]! },
      ];
      const problems: string[] = [];
      /** The last read of each item: what an update's read-back (the same URL) is compared with. */
      const reads = new Map<number, Response>();
      const check = async (what: string, id: number, sent: Record<string, unknown>, ms: number, write?: string) => {
        const res = await t.client.get(type.item(id), { query: { context: 'edit' } });
        if (res.status !== 200) t.fail(whyNotAccepted(res, `GET ${type.item(id)}?context=edit`));
        const offset = hoursAt(ms);
        const d = dateProblem(res.body?.date, ms, offset);
        const g = dateProblem(res.body?.date_gmt, ms, 0);
        // A read-back that answers as before the update may be a stale copy (read-back.ts).
        if ((d || g) && write) await checkStale(t, type.item(id), { context: 'edit' }, reads.get(id), res, write);
        reads.set(id, res);
        const sentText = Object.entries(sent).map(([k, v]) => `${k} ${v}`).join(', ');
        if (d) problems.push(`${type.item(id)} ${what} (${sentText}): date ${d} (the instant in the site timezone, gmt_offset ${offset})`);
        if (g) problems.push(`${type.item(id)} ${what} (${sentText}): date_gmt ${g} (the instant in GMT)`);
      };
      for (const c of cases) await check(c.what, c.id!, c.body, c.ms);
      for (const u of updates) {
        const res = await t.client.request('PATCH', type.item(u.id), { body: u.body });
        if (!ok(res.status)) t.fail(whyNotAccepted(res, `PATCH ${type.item(u.id)} ${show(u.body)}`));
        await check(u.what, u.id, u.body, u.ms, `PATCH ${type.item(u.id)} ${show(u.body)}`);
      }
      if (problems.length) t.fail(problems.join('; '));
    },
    { concurrent: true },
  );

  /** Slugs of the type read back (edit context) for items `ids`. */
  const slugsOf = async (t: BehaviourContext, ids: number[]) => (await Promise.all(ids.map((id) => readEdit(t, id)))).map((i) => i?.slug);

  behaviour(
    cmsDecl(type, 'fields.slug-unique-draft', {
      level: 'MUST',
      title: `the slug is unique for the type whatever the status: a draft created with a slug in use, and a draft updated to one, get another (or are refused), answered and stored`,
      route: type.paths.collection,
      spec: type.spec.fields,
      covers: [`field:${type.resource.id}.slug`, `arg:${create}.slug#type`, `arg:${update}.slug#type`],
    }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const held = names('slug-held');
      const first = await tryCreate(t, { ...held, status: 'publish', content: { raw: '<p>slug held</p>' } });
      if (!ok(first.status)) t.fail(whyNotAccepted(first, `create with the free slug ${held.slug}`));
      const other = names('slug-draft-b');
      const [draft, second] = await Promise.all([
        tryCreate(t, { title: names('slug-draft-a').title, slug: held.slug, status: 'draft', content: { raw: '<p>draft with a slug in use</p>' } }),
        tryCreate(t, { ...other, status: 'draft', content: { raw: '<p>draft updated to a slug in use</p>' } }),
      ]);
      if (!ok(second.status)) t.fail(whyNotAccepted(second, `create a draft with the free slug ${other.slug}`));
      const upd = await t.client.request('PATCH', type.item(second.body.id), { body: { slug: held.slug } });
      const ids = [first.body.id, ...(ok(draft.status) ? [draft.body.id] : []), second.body.id];
      const slugs = await slugsOf(t, ids);
      if (slugs[0] !== held.slug) t.fail(`${type.item(first.body.id)} was created with the free slug ${held.slug} and reads back ${show(slugs[0])}`);
      const problems: string[] = [];
      if (ok(draft.status)) {
        if (slugs[1] === held.slug) problems.push(`a draft created with the slug ${held.slug} (held by ${first.body.id}) stored it too (${type.item(draft.body.id)})`);
        else if (typeof draft.body?.slug === 'string' && draft.body.slug !== slugs[1]) problems.push(`a draft created with the slug ${held.slug} (held by ${first.body.id}) answered slug ${show(draft.body?.slug)} but reads back ${show(slugs[1])}`);
      } else if (draft.status >= 500) problems.push(`a draft created with the slug ${held.slug} answered a server error ${answerOf(draft)}`);
      const updated = slugs[slugs.length - 1];
      if (ok(upd.status)) {
        if (updated === held.slug) problems.push(`PATCH ${type.item(second.body.id)} (a draft) {slug: ${show(held.slug)}} (held by ${first.body.id}) stored it: two ${type.name} share it`);
        else if (typeof upd.body?.slug === 'string' && upd.body.slug !== updated) problems.push(`PATCH ${type.item(second.body.id)} (a draft) {slug: ${show(held.slug)}} answered slug ${show(upd.body?.slug)} but reads back ${show(updated)}`);
      } else if (updated !== other.slug) problems.push(`the refused PATCH ${type.item(second.body.id)} {slug: ${show(held.slug)}} (${answerOf(upd)}) changed its slug from ${other.slug} to ${show(updated)}`);
      if (problems.length) t.fail(`${problems.join('; ')}: the slug is unique for the type`);
      // Refused both: a pass needs the nearest valid write accepted (a free slug for the draft).
      if (!ok(draft.status) && !ok(upd.status)) {
        const control = await t.client.request('PATCH', type.item(second.body.id), { body: { slug: `${other.slug}-free` } });
        if (!ok(control.status)) t.fail(`positive control: ${whyNotAccepted(control, `PATCH ${type.item(second.body.id)} {slug: ${show(`${other.slug}-free`)}}`)}; so the refusals of a slug in use show nothing`);
      }
    },
    { concurrent: true },
  );

  // A hierarchical type: unique for the type means across parents too (a child may not take the
  // slug of a page elsewhere in the tree; WordPress keeps slugs unique among siblings only).
  if (type.fields.parent)
    behaviour(
      cmsDecl(type, 'fields.slug-unique-child', {
        level: 'MUST',
        title: `the slug is unique for the type across parents: a published child ${type.noun} updated to the slug of a published ${type.noun} with another parent gets another one (or is refused), answered and stored`,
        route: type.paths.item,
        spec: type.spec.fields,
        // Counted under the tree it breaks (the parent), so that it stays one finding of its own: the
        // slug's items are covered by fields.slug-unique and -update, and a failure that covered them
        // would be grouped with every other check of the slug (the create with only a slug).
        covers: [`field:${type.resource.id}.parent`, `arg:${update}.parent#type`],
      }),
      async (t: BehaviourContext) => {
        t.requireWrites();
        t.requireCredentials();
        const held = names('slug-parent');
        const top = await tryCreate(t, { ...held, status: 'publish', content: { raw: '<p>slug held by a top-level item</p>' } });
        if (!ok(top.status)) t.fail(whyNotAccepted(top, `create with the free slug ${held.slug}`));
        const other = names('slug-child');
        const child = await tryCreate(t, { ...other, status: 'publish', parent: top.body.id, content: { raw: '<p>a child</p>' } });
        if (!ok(child.status)) t.fail(whyNotAccepted(child, `create a published child of ${top.body.id} with the free slug ${other.slug}`));
        const upd = await t.client.request('PATCH', type.item(child.body.id), { body: { slug: held.slug } });
        const [a, b] = await Promise.all([readEdit(t, top.body.id), readEdit(t, child.body.id)]);
        if (a?.slug !== held.slug) t.fail(`${type.item(top.body.id)} was created with the free slug ${held.slug} and reads back ${show(a?.slug)}`);
        if (b?.parent !== top.body.id) t.fail(`${type.item(child.body.id)} was created with parent ${top.body.id} and reads back parent ${show(b?.parent)}`);
        if (ok(upd.status)) {
          if (b?.slug === held.slug) t.fail(`PATCH ${type.item(child.body.id)} (parent ${top.body.id}) {slug: ${show(held.slug)}} (${answerOf(upd)}) stored it: ${type.item(top.body.id)} (no parent) and its child ${type.item(child.body.id)}, both published, share the slug; the slug is unique for the type`);
          if (typeof upd.body?.slug === 'string' && upd.body.slug !== b?.slug) t.fail(`PATCH ${type.item(child.body.id)} {slug: ${show(held.slug)}} answered slug ${show(upd.body.slug)} but reads back ${show(b?.slug)}`);
          // Accepted: the slug was written (another one than the held, e.g. ${held.slug}-2); keeping the old one stored nothing.
          if (b?.slug === other.slug) t.fail(`PATCH ${type.item(child.body.id)} {slug: ${show(held.slug)}} answered ${answerOf(upd)} but the item still reads back its old slug ${other.slug}: an accepted update stores the slug sent, or another one where it is taken`);
          return;
        }
        if (b?.slug !== other.slug) t.fail(`the refused PATCH ${type.item(child.body.id)} {slug: ${show(held.slug)}} (${answerOf(upd)}) changed its slug from ${other.slug} to ${show(b?.slug)}`);
        // Refused: a pass needs the nearest valid write accepted (a free slug).
        const control = await t.client.request('PATCH', type.item(child.body.id), { body: { slug: `${other.slug}-free` } });
        if (!ok(control.status)) t.fail(`positive control: ${whyNotAccepted(control, `PATCH ${type.item(child.body.id)} {slug: ${show(`${other.slug}-free`)}}`)}; so the refusal of a slug in use shows nothing`);
      },
      { concurrent: true },
    );

  behaviour(
    cmsDecl(type, 'fields.slug-alphanumeric', {
      level: 'MUST',
      title: 'a slug written with accented letters is made an alphanumeric identifier (letters and digits, words joined by hyphens), unique for the type: two items asking for it (a published one and a draft) read back two',
      route: type.paths.collection,
      spec: type.spec.fields,
      covers: [`field:${type.resource.id}.slug`, `arg:${create}.slug#type`],
    }),
    async (t: BehaviourContext) => {
      t.requireWrites();
      t.requireCredentials();
      const { slug: plain } = names('slug-accents');
      const asked = `${plain}-Café-Ñandú-Über-Øre`;
      // One after the other: the second asks for a slug the first holds.
      const made: Response[] = [];
      for (const status of ['publish', 'draft']) made.push(await tryCreate(t, { title: { raw: `${plain} ${status}` }, slug: asked, status, content: { raw: '<p>accented slug</p>' } }));
      made.forEach((res, i) => {
        if (!ok(res.status)) t.fail(whyNotAccepted(res, `create (${i ? 'a draft' : 'published'}) with the slug ${show(asked)}`));
      });
      const slugs = await slugsOf(t, made.map((r) => r.body.id));
      const problems: string[] = [];
      slugs.forEach((slug, i) => {
        const what = `${type.item(made[i]!.body.id)} created with the slug ${show(asked)}`;
        if (typeof slug !== 'string' || !/^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/.test(slug)) problems.push(`${what} reads back slug ${show(slug)}, not alphanumeric`);
        else if (!slug.toLowerCase().startsWith(plain.toLowerCase())) problems.push(`${what} reads back slug ${show(slug)}, which drops what was asked for (${plain})`);
        else if (typeof made[i]!.body?.slug === 'string' && made[i]!.body.slug !== slug) problems.push(`${what} answered slug ${show(made[i]!.body?.slug)} but reads back ${show(slug)}`);
      });
      if (!problems.length && slugs[0] === slugs[1]) problems.push(`${type.item(made[0]!.body.id)} and ${type.item(made[1]!.body.id)}, both created with the slug ${show(asked)}, share the slug ${show(slugs[0])}: the slug is unique for the type`);
      if (problems.length) t.fail(problems.join('; '));
    },
    { concurrent: true },
  );
}
