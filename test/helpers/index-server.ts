/** A minimal server that answers GET / with a given site index (for discovery tests). */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function serveIndex(index: unknown): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const route = url.searchParams.get('rest_route') ?? '';
    res.setHeader('content-type', 'application/json; charset=UTF-8');
    if (url.pathname === '/index.php' && (route === '/' || route === '') && req.method === 'GET') {
      res.end(JSON.stringify(index));
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
