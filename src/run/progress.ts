/**
 * What a run shows while it goes, in place of vitest's own output: behaviours done of the total
 * per namespace, requests, elapsed time and an estimate of what is left, and each failure (or
 * check that could not be made) as it happens. On a terminal one live line is redrawn in place;
 * elsewhere (CI logs, pipes) a line is printed every few seconds. `quiet` prints nothing.
 *
 * The total is known before the run when the suites' declarations are cached (src/engine/declared.ts);
 * otherwise it grows as the suite files are loaded and is shown as "at least" until all are.
 */
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import { statusOfCase } from '../engine/collect.ts';
import { catalogueTotals, totalsByNamespace } from '../engine/declared.ts';
import type { Selection } from '../engine/selection.ts';

export interface ProgressStream {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  stream: ProgressStream;
  quiet?: boolean;
  /** Selected behaviours per namespace ('(site)' for the index and batch), when known before the run. */
  totals?: Record<string, number>;
  /**
   * When `totals` is not known (a first run: no cache of the declarations yet), what the run is expected to
   * select per namespace (the catalogue, conformance/behaviours.yaml): the estimate of the time left uses it
   * while the count is still shown as "at least".
   */
  expected?: Record<string, number>;
  /** Seconds between two lines when the stream is not a terminal (default 5). */
  intervalMs?: number;
  /** Live line redraws on a terminal at most this often (default 200 ms). */
  redrawMs?: number;
  /** Clock (tests). */
  now?: () => number;
}

interface Tally {
  done: number;
  total: number;
  /** Done with requests of their own: skips, and checks of the index the run read once, cost next to nothing. */
  checked: number;
}

const LONGEST_REASON = 300;

/** 75 s -> "1:15", 3725 s -> "1:02:05". */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** The order of the reports: the site index and batch, the core namespace, then the others by name. */
const nsRank = (ns: string) => (ns === '(site)' ? 0 : ns === 'cms/v2' ? 1 : 2);

const nsOf = (tc: TestCase) => tc.meta().behaviour?.namespace || '(site)';

export class ProgressReporter implements Reporter {
  private readonly stream: ProgressStream;
  private readonly live: boolean;
  private readonly now: () => number;
  private readonly known: boolean;
  private readonly ns = new Map<string, Tally>();
  private files = 0;
  private filesCollected = 0;
  private started = 0;
  private counts = { passed: 0, failed: 0, skipped: 0, error: 0 };
  private requests = 0;
  private timer?: NodeJS.Timeout;
  private drawn = false;
  private lastDraw = 0;

  constructor(private readonly opts: ProgressOptions) {
    this.stream = opts.stream;
    this.live = !!opts.stream.isTTY && process.env.TERM !== 'dumb';
    this.now = opts.now ?? Date.now;
    this.known = opts.totals !== undefined;
    for (const [ns, total] of Object.entries(opts.totals ?? {})) this.ns.set(ns, { done: 0, total, checked: 0 });
  }

  private get quiet(): boolean {
    return !!this.opts.quiet;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.started = this.now();
    this.files = specifications.length;
    if (this.quiet) return;
    const every = this.live ? 1000 : (this.opts.intervalMs ?? 5000);
    this.timer = setInterval(() => this.tick(), every);
    this.timer.unref();
    if (this.live) this.draw();
  }

  onTestModuleCollected(m: TestModule): void {
    this.filesCollected++;
    if (this.known) return;
    for (const tc of m.children.allTests()) {
      if (tc.options.mode !== 'run') continue;
      const t = this.tally(nsOf(tc));
      t.total++;
    }
  }

  onTestCaseResult(tc: TestCase): void {
    if (tc.options.mode !== 'run') return; // not selected by --only
    const status = statusOfCase(tc);
    if (!status) return;
    this.counts[status]++;
    const t = this.tally(nsOf(tc));
    t.done++;
    if (status !== 'skipped' && (tc.meta().behaviour?.requests ?? 1) > 0) t.checked++;
    this.requests += tc.meta().behaviour?.requests ?? 0;
    if (this.quiet) return;
    if (status === 'failed' || status === 'error') {
      const b = tc.meta().behaviour;
      const reason = String(tc.result().errors?.[0]?.message ?? '').split('\n')[0]!.trim();
      const short = reason.length > LONGEST_REASON ? `${reason.slice(0, LONGEST_REASON - 1)}…` : reason;
      this.print(`${status === 'failed' ? 'FAIL ' : 'ERROR'} ${(b?.level ?? '').padEnd(8)} ${b?.id ?? tc.name}: ${short}`);
    }
    if (this.live && this.now() - this.lastDraw >= (this.opts.redrawMs ?? 200)) this.draw();
  }

  /** A suite file that could not be loaded: said as it happens, too. */
  onTestModuleEnd(m: TestModule): void {
    if (this.quiet) return;
    for (const e of m.errors()) this.print(`ERROR ${m.relativeModuleId}: ${String(e.message ?? e).split('\n')[0]}`);
  }

  onTestRunEnd(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.quiet) return;
    if (this.live) this.clear();
    else if (this.done() > 0) this.stream.write(`${this.line()}\n`);
  }

  /** Erase the live line (before someone else writes to the stream); it comes back at the next redraw. */
  clear(): void {
    if (this.drawn) this.stream.write('\r\x1b[K');
    this.drawn = false;
  }

  private tally(ns: string): Tally {
    let t = this.ns.get(ns);
    if (!t) this.ns.set(ns, (t = { done: 0, total: 0, checked: 0 }));
    return t;
  }

  private done(): number {
    return this.counts.passed + this.counts.failed + this.counts.skipped + this.counts.error;
  }

  /** Is the total final (known before the run, or every suite file loaded)? */
  private final(): boolean {
    return this.known || (this.files > 0 && this.filesCollected >= this.files);
  }

  private tick(): void {
    if (this.live) this.draw();
    else this.stream.write(`${this.line()}\n`);
  }

  private print(text: string): void {
    this.clear();
    this.stream.write(`${text}\n`);
    if (this.live) this.draw();
  }

  private draw(): void {
    const width = Math.max(40, (this.stream.columns || 100) - 1);
    let text = this.line(true);
    if (text.length > width) text = `${text.slice(0, width - 1)}…`;
    this.stream.write(`\r\x1b[K${text}`);
    this.drawn = true;
    this.lastDraw = this.now();
  }

  /**
   * The time left: the pace of the behaviours that sent requests so far, times the behaviours still to do
   * that will. Skips and checks of the index read once cost next to nothing (a namespace the target does not
   * advertise skips its hundreds of behaviours in a second; discovery checks hundreds of items of the index
   * without a request), so each namespace's remaining behaviours count by the share of its done ones that
   * sent requests (the whole run's share for a namespace not yet begun; none for one the index does not
   * advertise). Counting every behaviour alike said
   * "about 0:30 left" on a slow target after the skips of a large namespace came early, with minutes to go.
   */
  private left(elapsed: number, expected?: Record<string, number>): number | undefined {
    const checked = [...this.ns.values()].reduce((n, t) => n + t.checked, 0);
    if (checked < 3) return undefined;
    const share = checked / this.done();
    let toCheck = 0;
    for (const ns of new Set([...this.ns.keys(), ...Object.keys(expected ?? {})])) {
      const t = this.ns.get(ns) ?? { done: 0, total: 0, checked: 0 };
      const total = Math.max(t.total, expected?.[ns] ?? 0);
      // A namespace the target does not advertise skips (as the run's are told once the index is read).
      const guess = ns !== '(site)' && this.isAdvertised && !this.isAdvertised(ns) ? 0 : share;
      toCheck += Math.max(0, total - t.done) * (t.done >= 3 ? t.checked / t.done : guess);
    }
    return (elapsed / checked) * toCheck;
  }

  private isAdvertised?: (namespace: string) => boolean;
  /** The target's index is read: which (documented) namespaces it advertises, for the estimate. */
  advertised(isAdvertised: (namespace: string) => boolean): void {
    this.isAdvertised = isAdvertised;
  }

  /** The progress line. `compact`: namespaces that are finished are left out (a terminal line is short). */
  line(compact = false): string {
    const done = this.done();
    const total = [...this.ns.values()].reduce((n, t) => n + t.total, 0);
    const final = this.final();
    const of = (n: number) => (final ? String(n) : `≥${n}`);
    const elapsed = this.now() - this.started;
    const parts = [`${done}/${of(total)} behaviours${final && total ? ` (${Math.floor((done / total) * 100)} %)` : ''}`];
    const c = this.counts;
    parts.push(`${c.failed} failed`);
    if (c.error) parts.push(`${c.error} could not be checked`);
    parts.push(`${c.skipped} skipped`, `${this.requests} requests`);
    let time = `${clock(elapsed)} elapsed`;
    const expected = final ? undefined : this.opts.expected;
    const sure = final || (expected !== undefined && this.files > 0);
    const outOf = expected ? Math.max(total, Object.values(expected).reduce((n, x) => n + x, 0)) : total;
    const left = sure && outOf > done && done >= Math.max(5, outOf * 0.03) && elapsed >= 2000 ? this.left(elapsed, expected) : undefined;
    if (left !== undefined) time += `, about ${clock(left)} left`;
    parts.push(time);
    if (!final && this.files) parts.push(`${this.filesCollected} of ${this.files} suite files loaded`);
    const namespaces = [...this.ns.entries()]
      .filter(([, t]) => !compact || t.done < t.total || !final)
      .sort(([a], [b]) => nsRank(a) - nsRank(b) || a.localeCompare(b))
      .map(([ns, t]) => `${ns} ${t.done}/${of(t.total)}`);
    return `${parts.join(' · ')}${namespaces.length ? ` | ${namespaces.join(' · ')}` : ''}`;
  }
}

/**
 * The progress of a run of this selection: its totals per namespace when the declarations are
 * known, else (every behaviour selected) the catalogue's as an expectation; shown where `shown`
 * says (nothing by default).
 */
export function progressFor(selection: Selection, shown?: Omit<ProgressOptions, 'totals'>): ProgressReporter {
  const { declared, only } = selection;
  return new ProgressReporter({ stream: { write: () => true }, quiet: true, ...shown, ...(declared ? { totals: totalsByNamespace(declared.selected) } : only === undefined ? { expected: catalogueTotals() } : {}) });
}
