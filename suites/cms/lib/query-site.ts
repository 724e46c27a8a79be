/**
 * The collection query model over the site's own items (issue 35: a run that may not write):
 * the settled part of the newest published items the site lists and, with credentials, some in
 * other statuses, read once per run (lib/sample.ts). What only their rendered text shows is held
 * loosely (a word in their content may not be in what is stored), and a check that fails is made
 * again when the items it relied on changed meanwhile (sample.ts onSite: read again, up to five
 * times, then the target's error).
 */
import type { BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { PostType } from './collections.ts';
import { modelCtx, type ModelCtx } from './query-combos.ts';
import { modelItem } from './query-items.ts';
import type { Query } from './query-model.ts';
import type { RunOptions } from './query-check.ts';
import { changedSubjects, describeItems, hidden, itemSubjects, onSite, publishedOrSkip, searchableOf, settled, titleOf, type SiteItem, type Subject } from './sample.ts';

/**
 * Words that may stand in the stored markup of any item without being shown (block attributes,
 * class names): a search for them could match items whose rendered text does not carry them.
 */
export const MARKUP_WORDS = new Set(
  'align large medium small image images gallery heading paragraph level class style color colors columns column button buttons group layout width height media sizes sizeslug linkdestination content textalign fontsize wide full center left right anchor block blocks latest quote list separator spacer cover embed caption figure table title excerpt'.split(
    ' ',
  ),
);
/** WordPress drops these from searches (WP_Query::get_search_stopwords). */
export const STOPWORDS = new Set('about,an,are,as,at,be,by,com,for,from,how,in,is,it,of,on,or,that,the,this,to,was,what,when,where,who,will,with,www'.split(','));

/** Published items of the site the model holds (a scope is a part of them). */
const SITE_ITEMS = 30;
/** Items in other statuses (with credentials). */
const SITE_HIDDEN = 10;

/**
 * Words of the titles that some of the items carry and others not, rarest first; last, where there
 * is one, a word in the title of one item and in the text (not the title) of a newer one: what
 * orderby=relevance tells from the date order (lib/query-edges.ts sends it with the last word).
 */
export function siteWords(items: readonly SiteItem[], n = 2): string[] {
  const usable = (w: string) => w.length >= 5 && !MARKUP_WORDS.has(w) && !STOPWORDS.has(w);
  const words = new Set(items.flatMap((i) => titleOf(i).split(/[^a-z]+/)).filter(usable));
  const carriers = (w: string) => items.filter((i) => searchableOf(i).includes(w)).length;
  const rare = [...words]
    .filter((w) => carriers(w) < items.length)
    .sort((a, b) => carriers(a) - carriers(b) || (a < b ? -1 : 1))
    .slice(0, n);
  const time = (i: SiteItem) => Date.parse(String(i.date_gmt ?? i.date ?? ''));
  const relevant = [...words]
    .sort()
    .find((w) => {
      const inTitle = items.filter((i) => titleOf(i).includes(w));
      return inTitle.length === 1 && items.some((i) => !titleOf(i).includes(w) && searchableOf(i).includes(w) && time(i) > time(inTitle[0]!));
    });
  return [...rare.filter((w) => w !== relevant), ...(relevant ? [relevant] : [])];
}

interface SiteModel {
  ctx: ModelCtx;
  items: SiteItem[];
  /** The items of the combination last sent: what a failure relied on. */
  used: Subject[];
}

/**
 * Make a check on the site's model: `check` gets the model and reports the items each combination
 * relies on (so that a failure on items that changed meanwhile is made again, not reported).
 */
export async function onSiteModel(t: BehaviourContext, type: PostType, check: (ctx: ModelCtx, site: Pick<RunOptions, 'onQuery' | 'changed'>) => Promise<void>): Promise<void> {
  await onSite(
    t,
    async (fresh): Promise<SiteModel> => {
      const pub = settled(await publishedOrSkip(t, type, fresh, 2), SITE_ITEMS);
      const hid = t.client.hasCredentials ? settled((await hidden(type, fresh)).items, SITE_HIDDEN) : [];
      const items = [...pub, ...hid];
      const ctx = modelCtx(type, items.map((i) => modelItem(i, t.index, false)), t.client.hasCredentials, siteWords(pub));
      return { ctx, items, used: [] };
    },
    (s) => ({ subjects: s.used, detail: describeItems(type, s.items, t.client.hasCredentials ? 'published, and in other statuses as the site lists them with the credentials' : 'published') }),
    (s) => {
      const subjectsOf = (q: Query) => {
        const ids = new Set([...(Array.isArray(q.include) ? (q.include as number[]) : []), ...s.items.filter((i) => Array.isArray(q.slug) && (q.slug as string[]).includes(i.slug)).map((i) => i.id)]);
        return itemSubjects(type, s.items.filter((i) => ids.has(i.id)));
      };
      return check(s.ctx, {
        onQuery: (q) => void s.used.splice(0, s.used.length, ...subjectsOf(q)),
        changed: (q) => changedSubjects(t.client, subjectsOf(q)),
      });
    },
  );
}
