/**
 * The flaky mode of the fault proxy (faults/proxy.ts): the trouble of a real network between the
 * suite and a healthy site, and a huge body, for the proofs of issue 24 (test/flaky.test.ts).
 */
import type { ServerResponse } from 'node:http';

/**
 * Flaky: the trouble of a real network between the suite and a healthy site, deterministic by
 * request count (the Nth request to arrive, 1-based; the first rule that matches applies). No
 * rule changes what the application answers: each one only replaces, delays or cuts it.
 */
export interface FlakyOptions {
  /** Every Nth request is answered by an HTML `502 Bad Gateway` page, after the target answered it (the application did the work). */
  gatewayEvery?: number;
  /** Every Nth request: the connection is reset before the request is forwarded. */
  resetEvery?: number;
  /** Every Nth request is held `stallMs` before it is forwarded (longer than --timeout: no answer in time). */
  stallEvery?: number;
  stallMs?: number;
  /** Every Nth request is answered `503` with `Retry-After: retryAfterSec` and an HTML page, not forwarded. */
  unavailableEvery?: number;
  /** Every Nth request is forwarded, and the target's answer replaced by `503` with `Retry-After` and an HTML page: a gateway that answers so after the application acted. */
  unavailableAfterEvery?: number;
  retryAfterSec?: number;
  /** Every Nth request is answered `200` with an HTML page (a captive portal), not forwarded. */
  captiveEvery?: number;
  /** Every Nth request: the target's answer is cut off mid-body (half of Content-Length sent, then the connection closed). */
  truncateEvery?: number;
  /** Every Nth request: the target's answer is sent slowly (in 8 pieces, `slowBodyMs` apart). */
  slowBodyEvery?: number;
  slowBodyMs?: number;
}

export interface FlakyStats {
  gateway: number;
  reset: number;
  stalled: number;
  unavailable: number;
  unavailableAfter: number;
  captive: number;
  truncated: number;
  slow: number;
}

/** A body of `bytes` bytes (a JSON array of posts), streamed to whoever asks for a route `route` matches. */
export interface HugeBodyOptions {
  route: RegExp;
  /** Only requests of this method (default: any): `GET` answers the listings of a collection so, not its creates. */
  method?: string;
  bytes: number;
  /** Send Content-Length (else chunked). */
  contentLength?: boolean;
}

/** What nginx answers for a bad gateway, and for a temporarily unavailable upstream. */
export const GATEWAY_PAGE = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
export const UNAVAILABLE_PAGE = '<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>';
/** A captive portal's sign-in page, answered with 200. */
export const CAPTIVE_PAGE = '<!DOCTYPE html><html><head><title>Sign in to the network</title></head><body><form action="/login"><input name="user"></form></body></html>';

/** Stream a huge JSON array (posts) of `opts.bytes` bytes, with backpressure, until done or the client goes away. */
export async function sendHuge(res: ServerResponse, opts: HugeBodyOptions, sent: (bytes: number) => void): Promise<void> {
  const item = Buffer.from(`{"id":1,"title":{"rendered":"${'x'.repeat(900)}"}},`);
  const chunk = Buffer.concat(Array.from({ length: 64 }, () => item));
  res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', ...(opts.contentLength ? { 'content-length': String(opts.bytes) } : {}) });
  let left = opts.bytes;
  const write = (b: Buffer) => {
    left -= b.length;
    sent(b.length);
    return res.write(b);
  };
  write(Buffer.from('['));
  while (left > 1 && !res.destroyed) {
    const b = left - 1 > chunk.length ? chunk : Buffer.from(`${'\n'.repeat(left - 1)}`);
    if (!write(b))
      await new Promise<void>((r) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          r();
        };
        res.on('drain', done);
        res.on('close', done);
      });
  }
  if (!res.destroyed) res.end(']');
}

