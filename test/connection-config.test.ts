// What a staging or production site needs to be reached (issue 41): --header, --proxy (and the
// environment's HTTPS_PROXY / HTTP_PROXY / NO_PROXY), --insecure. The configuration and the proxy
// choice here; runs through a local proxy and against a local HTTPS server in test/connection.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { optionsHelp, parseFlags, redactConfig, redactUrl, resolveConfig } from '../src/core/config.ts';
import { UsageError } from '../src/core/errors.ts';
import { noProxy, proxyFor } from '../src/http/connection.ts';
import { connectionLines } from '../src/run/session.ts';
import { workerConfig, type Plan } from '../src/run/plan.ts';
import type { Target } from '../src/run/target.ts';

const dir = mkdtempSync(join(tmpdir(), 'cmsc-conn-'));
const resolve = (argv: string[], env: NodeJS.ProcessEnv = {}) => resolveConfig(parseFlags(argv).values as Record<string, string | boolean | string[] | undefined>, env, dir);

describe('--header', () => {
  it('is repeatable, from flags or from CONFORMANCE_HEADERS (one a line), kept as given', () => {
    const c = resolve(['--header', 'X-Gateway-Token: s3cr3t:with:colons', '--header', 'CF-Access-Client-Id:abc']);
    expect(c.headers).toEqual({ 'X-Gateway-Token': 's3cr3t:with:colons', 'CF-Access-Client-Id': 'abc' });
    expect(resolve([], { CONFORMANCE_HEADERS: 'X-A: 1\r\n\nX-B: two words \n' }).headers).toEqual({ 'X-A': '1', 'X-B': 'two words' });
    // A flag wins over the environment (the whole list).
    expect(resolve(['--header', 'X-C: 3'], { CONFORMANCE_HEADERS: 'X-A: 1' }).headers).toEqual({ 'X-C': '3' });
    expect(resolve([]).headers).toBeUndefined();
  });

  it('refuses what is not a header, and headers the suite sets itself, in one line naming no value', () => {
    const bad: [string, RegExp][] = [
      ['X-Token', /--header takes 'Name: value', got "X-Token" without a colon/],
      ['X Token: 1', /"X" is not a valid header name|without a colon/],
      ['Authorization: Bearer s3cr3t', /give the Authorization header with --auth-header/],
      ['accept: text/html', /accept is set by the suite itself/],
      ['Content-Type: text/plain', /Content-Type is set by the suite itself/],
      ['Host: other.example', /Host is set by the suite itself/],
      ['X-HTTP-Method-Override: DELETE', /set by the suite itself/],
      ['Proxy-Authorization: Basic s3cr3t', /in the --proxy URL/],
    ];
    for (const [h, re] of bad) {
      let err: unknown;
      try {
        resolve(['--header', h]);
      } catch (e) {
        err = e;
      }
      expect(err, h).toBeInstanceOf(UsageError);
      expect((err as Error).message, h).toMatch(re);
      expect((err as Error).message).not.toContain('s3cr3t');
    }
    expect(() => resolve(['--header', 'X-A: 1', '--header', 'x-a: 2'])).toThrow(/x-a is given twice/);
    expect(() => resolve([], { CONFORMANCE_HEADERS: 'X-A 1' })).toThrow(/^CONFORMANCE_HEADERS takes 'Name: value'/);
  });

  it('is recorded by name only: the values are redacted wherever the configuration is shown', () => {
    const c = resolve(['--header', 'X-Gateway-Token: s3cr3t', '--target', 'https://staging.example']);
    const shown = redactConfig(c);
    expect(shown.headers).toEqual({ 'X-Gateway-Token': '[redacted]' });
    expect(JSON.stringify(shown)).not.toContain('s3cr3t');
    expect(connectionLines('https://staging.example', c)).toEqual(['headers sent with every request: X-Gateway-Token (values not shown)']);
  });
});

describe('--proxy and the environment', () => {
  it('takes an http(s) URL; its password is never shown', () => {
    expect(resolve(['--proxy', 'http://proxy.corp:3128']).proxy).toBe('http://proxy.corp:3128');
    expect(resolve([], { CONFORMANCE_PROXY: 'https://u:p4ss@proxy.corp' }).proxy).toBe('https://u:p4ss@proxy.corp');
    expect(() => resolve(['--proxy', 'socks5://u:p4ss@proxy:1080'])).toThrow(/--proxy must be an http:\/\/ or https:\/\/ URL, got "socks5:\/\/u:\[redacted\]@proxy:1080"/);
    expect(() => resolve(['--proxy', 'proxy.corp:3128'])).toThrow(/--proxy must be/);
    expect(redactConfig(resolve(['--proxy', 'http://me:p4ss@proxy.corp:3128'])).proxy).toBe('http://me:[redacted]@proxy.corp:3128');
    expect(redactUrl('http://proxy.corp:3128')).toBe('http://proxy.corp:3128');
  });

  it('chooses --proxy, else HTTPS_PROXY for https and HTTP_PROXY for http targets, lower case first', () => {
    expect(proxyFor('https://staging.example', 'http://p:1', {})).toMatchObject({ uri: 'http://p:1', from: '--proxy' });
    expect(proxyFor('https://staging.example', undefined, { HTTPS_PROXY: 'http://big:1', https_proxy: 'http://small:1', HTTP_PROXY: 'http://h:1' })).toMatchObject({ uri: 'http://small:1', from: 'https_proxy' });
    expect(proxyFor('http://staging.example', undefined, { HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'http://h:1' })).toMatchObject({ uri: 'http://h:1', from: 'HTTP_PROXY' });
    expect(proxyFor('http://staging.example', undefined, { HTTPS_PROXY: 'http://s:1' })).toBeUndefined();
    expect(proxyFor('https://staging.example', undefined, { HTTPS_PROXY: 'http://u:p4ss@s:1' })?.shown).toBe('http://u:[redacted]@s:1');
  });

  it('reaches loopback directly unless --proxy says otherwise, and NO_PROXY hosts directly always', () => {
    const env = { HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'http://p:1' };
    expect(proxyFor('http://127.0.0.1:8080', undefined, env)).toBeUndefined();
    expect(proxyFor('http://localhost:8080', undefined, env)).toBeUndefined();
    expect(proxyFor('http://[::1]:8080', undefined, env)).toBeUndefined();
    expect(proxyFor('http://127.0.0.1:8080', 'http://p:1', {})).toMatchObject({ from: '--proxy' });
    expect(proxyFor('https://staging.example', 'http://p:1', { NO_PROXY: 'example' })).toBeUndefined();
    expect(proxyFor('https://staging.example', undefined, { ...env, no_proxy: '.staging.example' })).toBeUndefined();
    expect(proxyFor('https://www.example', undefined, { ...env, NO_PROXY: 'staging.example' })).toMatchObject({ from: 'HTTPS_PROXY' });
  });

  it('matches NO_PROXY as undici does: host, its subdomains, a port, *', () => {
    const u = (s: string) => new URL(s);
    expect(noProxy(u('https://a.staging.example'), 'localhost, staging.example')).toBe(true);
    expect(noProxy(u('https://staging.example'), '*.staging.example')).toBe(true);
    expect(noProxy(u('https://notstaging.example'), 'staging.example')).toBe(false);
    expect(noProxy(u('https://staging.example'), 'staging.example:443')).toBe(true);
    expect(noProxy(u('https://staging.example:8443'), 'staging.example:443')).toBe(false);
    expect(noProxy(u('http://staging.example'), 'staging.example:80')).toBe(true);
    expect(noProxy(u('http://anything'), '*')).toBe(true);
    expect(noProxy(u('http://10.0.0.5:8080'), '10.0.0.5')).toBe(true);
    expect(noProxy(u('http://[::1]:8080'), '[::1]')).toBe(true);
    expect(noProxy(u('http://anything'), '')).toBe(false);
  });

  it('is said at the start of the run (without the password)', () => {
    const c = resolve(['--proxy', 'http://me:p4ss@proxy.corp:3128', '--target', 'https://staging.example']);
    expect(connectionLines('https://staging.example', c)).toEqual(['through the proxy http://me:[redacted]@proxy.corp:3128 (--proxy)']);
  });
});

describe('--insecure', () => {
  it('is a flag or CONFORMANCE_INSECURE, recorded in the configuration and said at the start of every run', () => {
    const c = resolve(['--insecure', '--target', 'https://staging.example']);
    expect(c.insecure).toBe(true);
    expect(redactConfig(c).insecure).toBe(true);
    expect(resolve([], { CONFORMANCE_INSECURE: '1' }).insecure).toBe(true);
    expect(resolve([]).insecure).toBeUndefined();
    expect(connectionLines('https://staging.example', c)).toEqual(["TLS verification is OFF (--insecure): the target's certificate is not checked"]);
    expect(connectionLines('https://staging.example', resolve([]))).toEqual([]);
  });

  it('and the others are in --help with their variables, NODE_EXTRA_CA_CERTS named', () => {
    const help = optionsHelp();
    for (const s of ["--header 'NAME: VALUE'", 'CONFORMANCE_HEADERS', '--proxy URL', 'HTTPS_PROXY', 'NO_PROXY', '--insecure', 'CONFORMANCE_INSECURE', 'NODE_EXTRA_CA_CERTS']) expect(help).toContain(s);
  });
});

describe('a target the CLI started itself', () => {
  it('is reached directly, never through --proxy, and with at least the timeout it asks for', () => {
    const config = resolve(['--proxy', 'http://proxy.corp:3128', '--header', 'X-A: 1', '--timeout', '5s']);
    const plan = { config } as Plan;
    const wasm = { user: 'admin', appPassword: 'pw', requestTimeoutMs: 60_000 } as Target;
    expect(workerConfig(plan, wasm)).toMatchObject({ proxy: undefined, timeoutMs: 60_000, headers: { 'X-A': '1' }, user: 'admin' });
    expect(workerConfig(plan, { user: 'admin', appPassword: 'pw' } as Target)).toMatchObject({ proxy: undefined, timeoutMs: 5000 });
    expect(workerConfig({ config: resolve(['--timeout', '90s']) } as Plan, wasm).timeoutMs).toBe(90_000);
    // A site given by its URL: as configured.
    expect(workerConfig(plan, undefined)).toMatchObject({ proxy: 'http://proxy.corp:3128', timeoutMs: 5000 });
  });
});
