/**
 * The ledger of a run: every item the run creates on the target, by id, written down as soon as
 * the run knows it, so that the run deletes each one by its id at the end whatever the target's
 * listings answer (the sweep by tag, src/sdk/fixtures.ts, is the second net), and says what it
 * could not delete.
 *
 * One append-only NDJSON file per run in the temporary folder (ledgerPath), written by whichever
 * process learns of an item (the suite workers, from the answers of the creates they send:
 * src/http/ledger-watch.ts; the CLI, for what it deletes), and read by the CLI at the end of the
 * run. It outlives a crashed worker and a killed run: `cms-conformance cleanup --tag` reads it.
 * Each line is one small append (atomic on local file systems), one of:
 *
 *   {"run":{"tag","target","profile","startedAt"}}   the first line, by the CLI
 *   {"made":{"type","route","id","tag"?,"by"?,"parent"?}}   an item the run created (its route in spec names)
 *   {"gone":"/cms/v2/posts/12"}                       an item deleted (a delete answered 2xx, or 404/410 at the end)
 *   {"maybe":{"type","collection","tag"?,"by"?,"why"}}    a create that got no usable answer: it may have made an item
 *
 * It holds no credentials: routes, ids, the items' tagged titles and the behaviours that made them.
 */
import { appendFileSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the run creates: posts, pages, media items, contact forms, and autosaves (which go with their parent). */
export type ItemType = 'post' | 'page' | 'media' | 'contact-form' | 'autosave';

export interface MadeItem {
  type: ItemType;
  /** Its route in spec names: /cms/v2/posts/12, /contactform/v1/contact-forms/7, /cms/v2/posts/12/autosaves/40. */
  route: string;
  id: number;
  /** The tagged title or slug it was given (`cmsc-<run>-<hint>-<n>`), when it has one. */
  tag?: string;
  /** The behaviour that created it ("fixtures" for a suite file's shared fixtures). */
  by?: string;
  /** An autosave's parent (its route): deleting the parent deletes it. */
  parent?: string;
}

/** A create that got no usable answer (no answer, a gateway's 5xx, a page that is not its JSON): it may have made an item, whose id is not known. */
export interface MaybeItem {
  type: Exclude<ItemType, 'autosave'>;
  /** The collection it was sent to (spec names). */
  collection: string;
  tag?: string;
  by?: string;
  /** What the create got. */
  why: string;
}

export interface LedgerHead {
  /** The run tag every item carries (`cmsc-<run id>`). */
  tag: string;
  /** The target's base URL: a ledger deletes ids only on the site it was written for. */
  target: string;
  profile: string;
  startedAt: string;
}

/** The collections the run creates items in (spec names), with the type of their items. */
export const ITEM_COLLECTIONS: readonly (readonly [collection: string, type: Exclude<ItemType, 'autosave'>])[] = [
  ['/cms/v2/posts', 'post'],
  ['/cms/v2/pages', 'page'],
  ['/cms/v2/media', 'media'],
  ['/contactform/v1/contact-forms', 'contact-form'],
];

/** The item an item route (spec names) stands for, or undefined when it is not one the run creates. */
export function itemAt(route: string, extra: Pick<MadeItem, 'tag' | 'by'> = {}): MadeItem | undefined {
  const m = /^(.+?)\/(\d+)(?:\/autosaves\/(\d+))?$/.exec(route);
  const type = m && ITEM_COLLECTIONS.find(([c]) => c === m[1])?.[1];
  if (!m || !type) return undefined;
  if (m[3] !== undefined) return type === 'post' || type === 'page' ? { type: 'autosave', route, id: Number(m[3]), parent: `${m[1]}/${m[2]}`, ...extra } : undefined;
  return { type, route, id: Number(m[2]), ...extra };
}

/** The tagged word (`cmsc-…`) of an item's titles and slugs: the longest, which names the item best (a slug made from a title `<run tag> words` carries the words too). */
export function taggedWord(...texts: unknown[]): string | undefined {
  let best: string | undefined;
  for (const t of texts) {
    const m = typeof t === 'string' ? /cmsc-[0-9a-z][0-9a-z-]*/i.exec(t) : null;
    if (m && m[0].length > (best?.length ?? 0)) best = m[0].toLowerCase();
  }
  return best;
}

/** Where the ledger of the run tagged `tag` is kept (the temporary folder, as the locks of src/sdk/worker-state.ts). */
export function ledgerPath(tag: string, dir = tmpdir()): string {
  return join(dir, `cmsc-ledger-${tag.replace(/[^\w-]/g, '_')}.ndjson`);
}

/** How long a ledger naming leftovers is kept in the temporary folder (by then the sweep of old leftovers before each run has found them by their tag). */
export const LEDGER_KEPT_MS = 7 * 24 * 3_600_000;

/** Remove the ledgers in `dir` not written to for `olderThanMs` (runs that left something, long ago). */
export function pruneLedgers(olderThanMs = LEDGER_KEPT_MS, dir = tmpdir(), now = Date.now()): void {
  try {
    for (const name of readdirSync(dir)) {
      if (!name.startsWith('cmsc-ledger-') || !name.endsWith('.ndjson')) continue;
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs > olderThanMs) rmSync(path, { force: true });
    }
  } catch {
    // A folder that cannot be read, a file gone meanwhile: nothing to prune.
  }
}

export interface LedgerContents {
  head?: LedgerHead;
  /** Each item once, in the order it was made. */
  made: MadeItem[];
  gone: Set<string>;
  /** Creates that may have made an item (not one made by the same tag since). */
  maybe: MaybeItem[];
}

export class Ledger {
  /** Routes recorded as made by this process (each is written once). */
  private readonly written = new Set<string>();

  constructor(readonly path: string) {}

  /** A new ledger for a run (an old file of the same name is replaced). */
  static start(path: string, head: LedgerHead): Ledger {
    writeFileSync(path, `${JSON.stringify({ run: head })}\n`);
    return new Ledger(path);
  }

  made(item: MadeItem | undefined): void {
    if (!item || this.written.has(item.route)) return;
    this.written.add(item.route);
    this.append({ made: item });
  }

  gone(route: string): void {
    this.append({ gone: route });
  }

  maybe(item: MaybeItem): void {
    this.append({ maybe: item });
  }

  /** What the file says (a line cut off by a killed process is skipped); empty when there is no file. */
  read(): LedgerContents {
    const out: LedgerContents = { made: [], gone: new Set(), maybe: [] };
    let text = '';
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return out;
    }
    const seen = new Set<string>();
    for (const line of text.split('\n')) {
      if (!line) continue;
      let v: { run?: LedgerHead; made?: MadeItem; gone?: string; maybe?: MaybeItem };
      try {
        v = JSON.parse(line);
      } catch {
        continue;
      }
      if (v.run) out.head ??= v.run;
      if (v.made && typeof v.made.route === 'string' && !seen.has(v.made.route)) {
        seen.add(v.made.route);
        out.made.push(v.made);
      }
      if (typeof v.gone === 'string') out.gone.add(v.gone);
      if (v.maybe && typeof v.maybe.collection === 'string') out.maybe.push(v.maybe);
    }
    // A create sent again (src/sdk/fixtures.ts createRecovering), or found by its tag: not a maybe any more.
    const tags = new Set(out.made.map((i) => i.tag));
    out.maybe = out.maybe.filter((m, i, all) => !(m.tag && tags.has(m.tag)) && all.findIndex((x) => x.tag === m.tag && x.collection === m.collection) === i);
    return out;
  }

  /** The items made and not (yet) known to be deleted; an autosave is gone with its parent. */
  outstanding(contents = this.read()): MadeItem[] {
    const { made, gone } = contents;
    return made.filter((i) => !gone.has(i.route) && !(i.parent && gone.has(i.parent)));
  }

  remove(): void {
    rmSync(this.path, { force: true });
  }

  private append(v: object): void {
    try {
      appendFileSync(this.path, `${JSON.stringify(v)}\n`);
    } catch {
      // The ledger is gone or cannot be written (the run has ended, a full disk): the sweep by tag remains.
    }
  }
}

/** The ledger of the run this process works for (a suite worker: set by src/sdk/behaviour.ts for each suite file). */
let active: Ledger | undefined;
export const runLedger = (): Ledger | undefined => active;
export const useLedger = (ledger: Ledger | undefined): void => void (active = ledger);
