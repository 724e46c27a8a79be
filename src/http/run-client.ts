/**
 * The one place a run's configuration becomes a client (src/http/client.ts): the target's URL,
 * the credentials, --header, the proxy (--proxy, HTTPS_PROXY ...: src/http/connection.ts), --insecure,
 * --timeout, --retries, --max-body, --concurrency and --max-rps. The run's setup
 * and sweeps (src/run/) and every suite worker (src/sdk/behaviour.ts) build their clients here,
 * each saying only what it does differently (one request at a time, its share of the workers'
 * pace, the profile's route names, where its exchanges are logged).
 */
import type { RunConfig } from '../core/config.ts';
import { Client, type ClientOptions } from './client.ts';
import { proxyFor } from './connection.ts';

export type ClientConfig = Pick<RunConfig, 'user' | 'appPassword' | 'authHeader' | 'headers' | 'proxy' | 'insecure' | 'timeoutMs' | 'retries' | 'maxBodyBytes' | 'concurrency' | 'maxRps'>;

export function clientFor(url: string, cfg: ClientConfig, own: Omit<ClientOptions, 'baseUrl' | 'credentials'> = {}): Client {
  const proxy = proxyFor(url, cfg.proxy);
  return new Client({
    baseUrl: url,
    credentials: { user: cfg.user, appPassword: cfg.appPassword, authHeader: cfg.authHeader },
    ...(cfg.headers ? { headers: cfg.headers } : {}),
    ...(proxy ? { proxy: proxy.uri } : {}),
    ...(cfg.insecure ? { insecure: true } : {}),
    timeoutMs: cfg.timeoutMs,
    retries: cfg.retries,
    maxBodyBytes: cfg.maxBodyBytes,
    concurrency: cfg.concurrency,
    maxRps: cfg.maxRps,
    ...own,
  });
}
