/**
 * How a run connects to a target, beyond its URL. Which proxy its requests go through: --proxy, else the environment's HTTPS_PROXY (an
 * https target) or HTTP_PROXY (an http target), lower case first, as curl reads them. NO_PROXY (a
 * comma- or space-separated list of host[:port], a leading "." or "*." meaning the domain and its
 * subdomains, "*" every host; matched as undici's EnvHttpProxyAgent matches it) names hosts reached
 * directly, whichever way the proxy was given. A target on loopback is never sent to a proxy of the
 * environment (a proxy elsewhere cannot reach this machine's loopback; Go's net/http does the same);
 * --proxy is taken at its word. And what to do about a connection that failed for a reason of this
 * setup (a certificate Node does not trust, the proxy).
 */
import { isLoopback, redactUrl } from '../core/config.ts';

export interface ProxyChoice {
  /** The proxy's URL (its credentials included: never print it, use `shown`). */
  uri: string;
  /** Where it came from: "--proxy", "HTTPS_PROXY" ... */
  from: string;
  /** The URL as it may be printed (password redacted). */
  shown: string;
}

export function proxyFor(target: string, explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): ProxyChoice | undefined {
  const url = new URL(target);
  if (noProxy(url, env.no_proxy ?? env.NO_PROXY ?? '')) return undefined;
  if (explicit) return { uri: explicit, from: '--proxy', shown: redactUrl(explicit) };
  if (isLoopback(target)) return undefined;
  const names = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  const from = names.find((n) => env[n]);
  return from ? { uri: env[from]!, from, shown: redactUrl(env[from]!) } : undefined;
}

/** Is the URL's host in NO_PROXY? (undici's EnvHttpProxyAgent rules: an IPv6 host is written in brackets.) */
export function noProxy(url: URL, list: string): boolean {
  const host = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  for (const entry of list.split(/[,\s]/)) {
    if (!entry) continue;
    if (entry === '*') return true;
    const m = /^(.+):(\d+)$/.exec(entry);
    if (m && Number(m[2]) !== port) continue;
    const name = (m ? m[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** Certificate errors of Node's TLS: the target's certificate is not one Node trusts. */
const UNTRUSTED_CERTIFICATE = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED']);

/** What to do about a connection that failed for a reason of the setup (a certificate, the proxy), said after its code. */
export function connectionHint(code: string, proxied: boolean): string {
  if (UNTRUSTED_CERTIFICATE.has(code))
    return " (the target's TLS certificate is not trusted: trust it, or the CA that signed it, with NODE_EXTRA_CA_CERTS=/path/to/cert.pem, or turn verification off with --insecure)";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return " (the target's TLS certificate is for another host name; --insecure turns verification off)";
  if (code === 'CERT_HAS_EXPIRED') return " (the target's TLS certificate has expired; --insecure turns verification off)";
  if (code === 'PROXY_407') return " (the proxy wants credentials: give them in the proxy's URL, http://user:password@host:port)";
  if (/^PROXY_\d+$/.test(code)) return ' (the proxy refused to connect to the target)';
  if (proxied && (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')) return ' (through the proxy: is it running?)';
  return '';
}
