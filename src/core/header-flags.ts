/** The values of --header and --proxy as the CLI takes them: header lines checked, URLs shown without their password. */
import { UsageError } from './errors.ts';

/**
 * Headers the suite sets itself, or that would change what a request means (its method, its body, the
 * connection): not taken from --header.
 */
const OWN_HEADERS = new Set(['accept', 'authorization', 'content-type', 'content-length', 'host', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-authorization', 'x-http-method-override']);

/** `Name: value` of --header: a valid name, a value without line breaks. */
export function parseHeader(line: string, where: string): [string, string] {
  const m = /^([^:\s]+)\s*:\s?(.*)$/.exec(line.trim());
  if (!m) throw new UsageError(`${where} takes 'Name: value', got "${line.split(':')[0]!.trim()}" without a colon`);
  const name = m[1]!;
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`${where}: "${name}" is not a valid header name`);
  const lower = name.toLowerCase();
  if (lower === 'authorization') throw new UsageError(`${where}: give the Authorization header with --auth-header (or --user/--app-password), not --header`);
  if (lower === 'proxy-authorization') throw new UsageError(`${where}: give the proxy's credentials in the --proxy URL (http://user:password@host:port), not --header`);
  if (OWN_HEADERS.has(lower)) throw new UsageError(`${where}: ${name} is set by the suite itself and cannot be given`);
  if (/[\r\n\0]/.test(m[2]!)) throw new UsageError(`${where}: the value of ${name} has a line break`);
  return [name, m[2]!.trim()];
}

/** A URL as it may be shown, as given but for its password. */
export function redactUrl(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:[redacted]@');
}
