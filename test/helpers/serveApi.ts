import * as http from 'node:http';
import type { ServeProcess } from './browser.js';

/**
 * `POST /api` of a running `chatos serve`, on a fresh connection each time:
 * CLI runs in between block a test's event loop for seconds, and a
 * kept-alive socket the server closed meanwhile would fail the next request
 * for no reason of the host's. `headers` are sent as well (a tab's client id).
 */
export async function serveApi<T = any>(serve: Pick<ServeProcess, 'origin' | 'token'>, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<T> {
  const url = new URL('/api', serve.origin);
  const body = JSON.stringify({ method, params });
  const text = await new Promise<string>((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', agent: false, headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
  const reply = JSON.parse(text) as { ok: boolean; result?: T; error?: { code: string; message: string } };
  if (!reply.ok) throw new Error(`${method}: ${reply.error?.code} ${reply.error?.message}`);
  return reply.result as T;
}
