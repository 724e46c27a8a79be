/**
 * The CI examples (examples/): the GitHub Actions workflows (a fleet, one site) and the Kubernetes
 * manifests are valid YAML, every cms-conformance command they run parses as valid flags of this
 * CLI, their shard counts agree with their matrix / completions, the merge step reads what the
 * shards write, and the single-site workflow puts report.md in the step summary and junit.xml in
 * the test results, also when the run fails, with the exit codes it states being the CLI's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseFlags, resolveConfig } from '../src/core/config.ts';
import { parseTargets } from '../src/fleet/fleet.ts';
import { parseShard } from '../src/core/shard.ts';
import { ROOT } from './helpers/cli.ts';
import { EXIT } from '../results/verdict.ts';

const EXAMPLES = join(ROOT, 'examples');

function load(file: string): any[] {
  const docs = parseAllDocuments(readFileSync(join(EXAMPLES, file), 'utf8'));
  for (const d of docs) expect(d.errors.map((e) => e.message), file).toEqual([]);
  return docs.map((d) => d.toJS());
}

/** Every string in a parsed YAML value. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

/** Sample values for what CI fills in: GitHub expressions, shell arithmetic, variables. */
function substitute(script: string): string {
  return script
    .replace(/\\\n/g, ' ')
    .replace(/\$\{\{\s*matrix\.shard\s*\}\}/g, '3')
    .replace(/\$\{\{\s*github\.run_number\s*\}\}/g, '42')
    .replace(/\$\{\{[^}]*\}\}/g, 'x')
    .replace(/\$\(\([^)]*\)\)/g, '3')
    .replace(/"\$\{?(\w+)\}?"/g, (_, v: string) => (v === 'SEED' ? '20261124' : 'x'))
    .replace(/\$\{?(\w+)\}?/g, 'x');
}

/** Shell words of a command line, up to the first operator (||, &&, ;, |, >). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|(\|\||&&|[;|>])|([^\s'"|;&>]+))/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) && m[0].trim()) {
    if (m[3]) break;
    out.push(m[1] ?? m[2] ?? m[4]!);
  }
  return out;
}

/** Every cms-conformance command in the given strings, as argv after the program name. */
function commands(texts: string[]): string[][] {
  const found: string[][] = [];
  for (const t of texts) {
    const flat = substitute(t).replace(/\n(?=\s*--)/g, ' ');
    for (const line of flat.split('\n')) {
      const at = line.indexOf('cms-conformance ');
      if (at < 0 || line.trimStart().startsWith('#')) continue;
      found.push(words(line.slice(at + 'cms-conformance '.length)));
    }
  }
  return found;
}

/** The command parses as this CLI parses it; returns the flags. */
function check(argv: string[]): Record<string, unknown> {
  const [command, ...rest] = argv;
  expect(['run', 'merge']).toContain(command);
  const { values, positionals } = parseFlags(rest);
  const cfg = resolveConfig(values as Record<string, string | boolean | undefined>, {}, '/nonexistent');
  if (command === 'run') {
    expect(positionals, argv.join(' ')).toEqual([]);
    expect(cfg.targets, argv.join(' ')).toBeDefined();
    expect(cfg.shard, argv.join(' ')).toBeDefined();
  } else expect(positionals.length, argv.join(' ')).toBeGreaterThan(0);
  return { ...values, positionals };
}

describe('examples/github-actions/fleet.yml', () => {
  const [wf] = load('github-actions/fleet.yml');

  it('is a workflow with a matrix of shards and a merge job that runs after them, also when one failed', () => {
    const shard = wf.jobs.shard;
    const merge = wf.jobs.merge;
    expect(shard.strategy.matrix.shard).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(shard.strategy['fail-fast']).toBe(false);
    expect(merge.needs).toBe('shard');
    expect(merge.if).toMatch(/!cancelled\(\)/);
    const download = merge.steps.find((s: any) => String(s.uses).startsWith('actions/download-artifact'));
    const upload = shard.steps.find((s: any) => String(s.uses).startsWith('actions/upload-artifact'));
    expect(upload.with.name).toBe('shard-${{ matrix.shard }}');
    expect(download.with.pattern).toBe('shard-*');
  });

  it('runs only valid cms-conformance commands: each shard its share with one seed, then the merge', () => {
    const cmds = commands(strings(wf.jobs));
    expect(cmds.map((c) => c[0])).toEqual(['run', 'merge']);
    const run = check(cmds[0]!);
    expect(parseShard(run.shard as string)).toEqual({ index: 3, count: wf.jobs.shard.strategy.matrix.shard.length });
    expect(run.seed).toBe('42');
    expect(run['report-dir']).toBe('out/shard-3');
    const merge = check(cmds[1]!);
    expect(merge.positionals).toEqual(['out']);
    expect(merge['report-dir']).toBe('out/fleet');
  });
});

describe('examples/github-actions/single-site.yml', () => {
  const [wf] = load('github-actions/single-site.yml');
  const text = readFileSync(join(EXAMPLES, 'github-actions/single-site.yml'), 'utf8');
  const steps: any[] = wf.jobs.conformance.steps;

  it('runs one valid cms-conformance command against the site, with a baseline and a report folder', () => {
    const cmds = commands(strings(wf.jobs));
    expect(cmds.map((c) => c[0])).toEqual(['run']);
    const [command, ...rest] = cmds[0]!;
    expect(command).toBe('run');
    // "$TARGET_URL" (the site's URL, a repository variable) stands as x: give it a URL
    const { values, positionals } = parseFlags(rest.map((a, i) => (rest[i - 1] === '--target' ? 'https://staging.example' : a)));
    expect(positionals).toEqual([]);
    const cfg = resolveConfig(values as Record<string, string | boolean | undefined>, {}, '/nonexistent');
    expect(cfg.target).toBe('https://staging.example');
    expect(cfg.baseline).toBe('conformance/baseline.json');
    expect(cfg.reportDir).toBe('out');
    expect(cfg.seed).toBe(42);
    // credentials come from the environment of the step (secrets), never from the command line
    const run = steps.find((s) => String(s.run).includes('cms-conformance'));
    expect(Object.keys(run.env)).toEqual(['TARGET_URL', 'TARGET_USER', 'TARGET_APP_PASSWORD']);
    expect(run.env.TARGET_APP_PASSWORD).toMatch(/secrets\./);
  });

  it('writes report.md to the step summary and publishes junit.xml, also when the run fails', () => {
    const summary = steps.find((s) => String(s.run).includes('GITHUB_STEP_SUMMARY'));
    expect(summary.run).toBe('cat out/report.md >> "$GITHUB_STEP_SUMMARY"');
    expect(summary.if).toMatch(/!cancelled\(\)/);
    const junit = steps.find((s) => s.with?.report_paths);
    expect(junit.with.report_paths).toBe('out/junit.xml');
    expect(junit.if).toMatch(/!cancelled\(\)/);
    const upload = steps.find((s) => String(s.uses).startsWith('actions/upload-artifact'));
    expect(upload.with.path).toBe('out');
  });

  it('states the exit codes of run as the CLI has them', () => {
    const stated = [...text.matchAll(/^#\s+(\d)\s+(.+)$/gm)].map((m) => Number(m[1]));
    expect(stated).toEqual([EXIT.ok, EXIT.failed, EXIT.usage, EXIT.unreachable, EXIT.internal]);
  });
});

describe('examples/kubernetes', () => {
  const shardDocs = load('kubernetes/fleet-shards.yaml');
  const [mergeJob] = load('kubernetes/fleet-merge.yaml');
  const job = shardDocs.find((d) => d.kind === 'Job');
  const config = shardDocs.find((d) => d.kind === 'ConfigMap');
  const pvc = shardDocs.find((d) => d.kind === 'PersistentVolumeClaim');

  it('an Indexed Job with one pod per shard, writing to a volume the merge Job reads', () => {
    expect(shardDocs.map((d) => d.kind)).toEqual(['ConfigMap', 'PersistentVolumeClaim', 'Job']);
    expect(job.spec.completionMode).toBe('Indexed');
    expect(job.spec.parallelism).toBeLessThanOrEqual(job.spec.completions);
    const claim = (j: any) => j.spec.template.spec.volumes.find((v: any) => v.persistentVolumeClaim).persistentVolumeClaim.claimName;
    expect(claim(job)).toBe(pvc.metadata.name);
    expect(claim(mergeJob)).toBe(pvc.metadata.name);
    expect(mergeJob.kind).toBe('Job');
  });

  it('runs only valid cms-conformance commands; the shard count is the number of completions; the targets file parses', () => {
    const [run] = commands(strings(job.spec.template.spec.containers));
    const flags = check(run!);
    expect(parseShard(flags.shard as string)).toEqual({ index: 3, count: job.spec.completions });
    expect(flags.seed).toBe('20261124');
    const [merge] = commands(strings(mergeJob.spec.template.spec.containers));
    expect(check(merge!).positionals).toEqual(['/reports']);
    const sites = parseTargets(config.data['sites.txt'], 'sites.txt', '/fleet');
    expect(sites.map((s) => s.id)).toEqual(['shop-a.example', 'shop-b', 'blog.example']);
  });
});

describe('the example checks catch a broken example', () => {
  it('an unknown flag, a bad shard or a missing targets file does not parse', () => {
    expect(() => check(['run', '--targets', 'x', '--shard', '9/8'])).toThrow(/INDEX must be between 1 and COUNT/);
    expect(() => check(['run', '--targets', 'x', '--shard', '1/8', '--shards', '8'])).toThrow(/Unknown option '--shards'/);
    expect(() => check(['run', '--shard', '1/8'])).toThrow();
    expect(words('npx cms-conformance run --a "b c" \'d\' || [ $? -eq 1 ]')).toEqual(['npx', 'cms-conformance', 'run', '--a', 'b c', 'd']);
  });
});
