/**
 * The report files of a run and where they go. results.json, report.html, report.md and
 * junit.xml are rendered from the results alone; events.ndjson is appended during the run by
 * whoever sends a request (src/http/events.ts).
 */
import { cpSync, existsSync, lstatSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { dirname } from 'node:path';
import type { ReportFormat, Results } from '../results/results.ts';
import { renderHtml } from './html.ts';
import { renderJUnit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';

export function writeResults(path: string, results: Results): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(results, null, 2) + '\n');
}

export const REPORT_FILES: Record<ReportFormat, string> = {
  json: 'results.json',
  html: 'report.html',
  md: 'report.md',
  junit: 'junit.xml',
  events: 'events.ndjson',
};

/** Write the formats rendered from results; returns every report file of the run that exists (events included). */
export function writeReports(dir: string, results: Results, formats: readonly ReportFormat[]): string[] {
  mkdirSync(dir, { recursive: true });
  const order: ReportFormat[] = ['html', 'md', 'junit', 'json', 'events'];
  const written: string[] = [];
  const files = order.filter((f) => formats.includes(f)).map((f) => join(dir, REPORT_FILES[f]));
  for (const f of order.filter((x) => formats.includes(x))) {
    const path = join(dir, REPORT_FILES[f]);
    if (f === 'json') writeResults(path, results);
    else if (f === 'html') writeFileSync(path, renderHtml(results));
    else if (f === 'md') writeFileSync(path, renderMarkdown(results, { reportFiles: files.map((p) => basename(p)) }));
    else if (f === 'junit') writeFileSync(path, renderJUnit(results));
    else if (!existsSync(path)) continue; // events: written during the run (only when a request was made)
    written.push(path);
  }
  return written;
}

/** A new directory reports/<UTC timestamp>[-n]/ under `root`. */
export function timestampedDir(root: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  mkdirSync(root, { recursive: true });
  for (let n = 0; ; n++) {
    const dir = join(root, n ? `${stamp}-${n}` : stamp);
    try {
      mkdirSync(dir);
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/**
 * Point `<root>/latest` at `dir` (a relative symlink, replaced atomically). An older
 * `latest` that is a real directory (earlier versions wrote there) is removed; where symlinks are
 * not allowed, the files are copied instead.
 */
export function updateLatest(root: string, dir: string, name = 'latest'): string {
  const latest = join(root, name);
  const tmp = join(root, `.${name}-${process.pid}`);
  try {
    const st = lstatSync(latest, { throwIfNoEntry: false });
    if (st?.isDirectory()) rmSync(latest, { recursive: true, force: true });
    rmSync(tmp, { force: true });
    symlinkSync(basename(dir), tmp, 'dir');
    renameSync(tmp, latest);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to remove
    }
    rmSync(latest, { recursive: true, force: true });
    cpSync(dir, latest, { recursive: true });
  }
  return latest;
}

/**
 * The name of the link to the newest run against one target, beside `latest` (the newest run of
 * any): `latest-wordpress-6.5.5` (the embedded WordPress), `latest-reference`, `latest-127.0.0.1-9840`
 * (a URL: its host, port and path). So two targets checked in turn each keep their newest report.
 */
export function latestNameFor(target: Pick<Results['target'], 'url' | 'embedded'>): string {
  const e = target.embedded as { kind?: string; version?: string } | null;
  const what = e ? `${e.kind ?? 'embedded'}${e.kind === 'wordpress' && e.version ? `-${e.version}` : ''}` : target.url.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');
  return `latest-${what.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80)}`;
}

/** Where reports go when --report-dir is not given (relative to the current folder). */
export const DEFAULT_REPORTS_ROOT = 'reports';
