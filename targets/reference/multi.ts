/**
 * Many reference sites behind one port, for trying fleets on one machine: site N lives under the
 * base path `/site-N` (`http://127.0.0.1:8080/site-7/index.php?rest_route=/`) with its own
 * in-memory state, made on its first request. All sites share one administrator and application
 * password. `cms-conformance serve --sites N` runs it and writes a targets file for the fleet
 * (`run --targets`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createReferenceHandler, listenHttp, type ReferenceHandler } from './index.ts';
import { randomAppPassword } from './state.ts';

export interface ReferenceSites {
  /** The server's origin, e.g. http://127.0.0.1:8080 */
  origin: string;
  port: number;
  /** Base URL of every site, site 1 first. */
  urls: string[];
  user: string;
  appPassword: string;
  /** How many sites have been made so far (state exists for them). */
  made(): number;
  stop(): Promise<void>;
}

export interface ReferenceSitesOptions {
  count: number;
  port?: number;
  host?: string;
  user?: string;
  appPassword?: string;
}

/** The names of the environment variables the written targets file refers to. */
export const SITES_USER_ENV = 'CMSC_SITES_USER';
export const SITES_APP_PASSWORD_ENV = 'CMSC_SITES_APP_PASSWORD';

export async function startReferenceSites(opts: ReferenceSitesOptions): Promise<ReferenceSites> {
  if (!Number.isInteger(opts.count) || opts.count < 1) throw new Error(`the number of sites must be a whole number of at least 1, got ${opts.count}`);
  const host = opts.host ?? '127.0.0.1';
  const user = opts.user ?? 'admin';
  const appPassword = opts.appPassword ?? randomAppPassword();
  const { server, port, url: origin, stop } = await listenHttp(opts.port ?? 0, host);
  const sites = new Map<number, ReferenceHandler>();
  const site = (n: number): ReferenceHandler => {
    let h = sites.get(n);
    if (!h) sites.set(n, (h = createReferenceHandler({ url: `${origin}/site-${n}`, user, appPassword })));
    return h;
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const m = /^\/site-(\d+)(\/[^?]*)?(\?.*)?$/.exec(req.url ?? '/');
    const n = m ? Number(m[1]) : 0;
    if (!m || n < 1 || n > opts.count || String(n) !== m[1]) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=UTF-8');
      res.end(`no site here: the sites are ${origin}/site-1 to ${origin}/site-${opts.count}\n`);
      return;
    }
    // The site sees itself at the root of its base path.
    req.url = `${m[2] || '/'}${m[3] ?? ''}`;
    site(n)(req, res);
  });
  return {
    origin,
    port,
    urls: Array.from({ length: opts.count }, (_, i) => `${origin}/site-${i + 1}`),
    user,
    appPassword,
    made: () => sites.size,
    stop,
  };
}

/** A targets file (`run --targets`) listing the sites, their credentials named by environment variable. */
export function writeSitesTargetsFile(path: string, urls: readonly string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const lines = [
    `# ${urls.length} reference sites (cms-conformance serve --sites). Credentials: ${SITES_USER_ENV} and ${SITES_APP_PASSWORD_ENV}.`,
    ...urls.map((u, i) => `${u} ${SITES_USER_ENV} ${SITES_APP_PASSWORD_ENV} name=site-${i + 1}`),
  ];
  writeFileSync(path, `${lines.join('\n')}\n`);
}
