/** A reference server per test file, and a small fetch client for it. */
import type { Dialect } from '../../targets/reference/dialect.ts';
import { startReferenceServer, type ReferenceServer } from '../../targets/reference/index.ts';

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface Api {
  server: ReferenceServer;
  /** `auth`: true = the admin credential (default for writes), false = anonymous, string = a raw Authorization header. */
  call(method: string, route: string, opts?: { query?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string>; auth?: boolean | string }): Promise<Reply>;
  get(route: string, query?: string, auth?: boolean | string): Promise<Reply>;
  post(route: string, json: unknown, auth?: boolean | string): Promise<Reply>;
  stop(): Promise<void>;
}

export async function startApi(dialect?: Partial<Dialect>): Promise<Api> {
  const server = await startReferenceServer({ port: 0, ...(dialect ? { dialect } : {}) });
  const basic = `Basic ${Buffer.from(`${server.user}:${server.appPassword}`).toString('base64')}`;
  const call: Api['call'] = async (method, route, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    const auth = opts.auth ?? true;
    if (auth === true) headers.authorization = basic;
    else if (typeof auth === 'string') headers.authorization = auth;
    let body = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    const url = `${server.url}/index.php?rest_route=${route}${opts.query ? `&${opts.query}` : ''}`;
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    server,
    call,
    get: (route, query, auth = false) => call('GET', route, { query, auth }),
    post: (route, json, auth = true) => call('POST', route, { json, auth }),
    stop: () => server.stop(),
  };
}
