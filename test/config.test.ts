import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpRows, isLoopback, joinNegativeValues, optionsHelp, parseFlags, redactConfig, resolveConfig } from '../src/core/config.ts';
import { UsageError } from '../src/core/errors.ts';

const emptyDir = () => mkdtempSync(join(tmpdir(), 'cmsc-cfg-'));

describe('configuration', () => {
  it('takes flags over environment over .env', () => {
    const dir = emptyDir();
    writeFileSync(join(dir, '.env'), 'TARGET_URL=http://from-dotenv:1\nCONFORMANCE_SEED=7\nTARGET_PROFILE=spec\n');
    const fromFile = resolveConfig({}, {}, dir);
    expect(fromFile.target).toBe('http://from-dotenv:1');
    expect(fromFile.seed).toBe(7);
    const fromEnv = resolveConfig({}, { TARGET_URL: 'http://from-env:2' }, dir);
    expect(fromEnv.target).toBe('http://from-env:2');
    expect(fromEnv.profile).toBe('spec');
    const fromFlag = resolveConfig({ target: 'http://from-flag:3/' }, { TARGET_URL: 'http://from-env:2' }, dir);
    expect(fromFlag.target).toBe('http://from-flag:3');
  });
  it('has documented defaults and a random seed', () => {
    const c = resolveConfig({}, {}, emptyDir());
    expect(c).toMatchObject({ target: null, profile: 'auto', concurrency: 4, timeoutMs: 10_000, report: ['html', 'junit', 'md', 'json', 'events'], failOn: 'must', allowWrites: false });
    expect(c.reportDir).toBeUndefined(); // reports/<timestamp>/ with reports/latest
    expect(Number.isInteger(c.seed)).toBe(true);
  });
  it('parses durations and rejects bad values with one clear message', () => {
    expect(resolveConfig({ timeout: '2s' }, {}, emptyDir()).timeoutMs).toBe(2000);
    expect(resolveConfig({ timeout: '250ms' }, {}, emptyDir()).timeoutMs).toBe(250);
    const bad: [Record<string, string>, RegExp][] = [
      [{ concurrency: '0' }, /--concurrency must be at least 1/],
      [{ concurrency: 'x' }, /whole number/],
      [{ profile: 'drupal' }, /--profile must be one of auto, spec, wordpress/],
      [{ target: 'ftp://x' }, /http/],
      [{ target: 'http://u:p@host' }, /credentials/],
      [{ user: 'admin' }, /go together/],
      [{ only: '(' }, /regular expression/],
      [{ 'fail-on': 'may' }, /must, should/],
    ];
    for (const [flags, msg] of bad) expect(() => resolveConfig(flags, {}, emptyDir())).toThrow(msg);
    expect(() => resolveConfig({}, { CONFORMANCE_CONCURRENCY: '-1' }, emptyDir())).toThrow(/CONFORMANCE_CONCURRENCY/);
  });
  it('takes a negative number as the value of a flag, so validation can say what is wrong with it', () => {
    expect(joinNegativeValues(['--concurrency', '-3', '--seed', '7', '--only', '^x'], new Set(['concurrency', 'seed', 'only']))).toEqual(['--concurrency=-3', '--seed', '7', '--only', '^x']);
    expect(parseFlags(['--concurrency', '-3']).values.concurrency).toBe('-3');
    expect(() => resolveConfig({ concurrency: '-3' }, {}, emptyDir())).toThrow('--concurrency must be at least 1, got -3');
    expect(() => parseFlags(['--timeout'])).toThrow('--timeout needs a value (see cms-conformance run --help)');
  });
  it('--quiet: from the flag or CONFORMANCE_QUIET, off by default', () => {
    expect(resolveConfig({}, {}, emptyDir()).quiet).toBe(false);
    expect(resolveConfig({ quiet: true }, {}, emptyDir()).quiet).toBe(true);
    expect(resolveConfig({}, { CONFORMANCE_QUIET: '1' }, emptyDir()).quiet).toBe(true);
  });
  it('lays help out in two aligned columns wrapped at 100 characters', () => {
    const text = helpRows([
      ['--a', 'short'],
      ['--longer-flag VALUE', `${'word '.repeat(40)}\nenv: X`],
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toBe('  --a                  short');
    expect(lines.every((l) => l.length <= 100)).toBe(true);
    expect(lines.slice(2).every((l) => l.startsWith(' '.repeat(23)) && l[23] !== ' ')).toBe(true);
    expect(lines.at(-1)).toBe(`${' '.repeat(23)}env: X`);
  });
  it('rejects unknown flags as a usage error', () => {
    expect(() => parseFlags(['--bogus'])).toThrow(UsageError);
  });
  it('redacts secrets and documents every option', () => {
    const c = resolveConfig({ user: 'admin', 'app-password': 'abcd efgh' }, {}, emptyDir());
    expect(JSON.stringify(redactConfig(c))).not.toContain('abcd');
    for (const flag of ['--target', '--user', '--app-password', '--auth-header', '--profile', '--only', '--concurrency', '--timeout', '--seed', '--report-dir', '--runs', '--allow-writes', '--fail-on', '--quiet'])
      expect(optionsHelp()).toContain(flag);
  });
  it('knows loopback addresses', () => {
    expect(isLoopback('http://127.0.0.1:8080')).toBe(true);
    expect(isLoopback('http://localhost')).toBe(true);
    expect(isLoopback('http://[::1]:80')).toBe(true);
    expect(isLoopback('https://example.org')).toBe(false);
  });
});
