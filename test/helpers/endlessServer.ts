import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEachTest } from './afterEachTest.js';

/**
 * A hostile server whose answer never ends: a real HTTP server on
 * 127.0.0.1 that writes `head`, then the same piece over and over, as fast
 * as the client reads, until the client goes away (or `total` bytes are
 * written: a reader without a bound then fails in finite time instead of
 * filling memory). `written` counts the bytes sent; `closed` resolves when
 * the connection ended: a reader that stopped at its limit closed it.
 */
export interface EndlessServer {
  /** The server's url, with a path that holds a secret (an error must not name it); every path answers the same. */
  url: string;
  origin: string;
  readonly written: number;
  /** How many requests it was sent (a client that retried a refused body sent more than one). */
  readonly requests: number;
  closed: Promise<void>;
}

export interface EndlessOptions {
  status?: number;
  headers?: Record<string, string>;
  /** Written first (e.g. the start of a JSON document or of an event). */
  head?: string;
  /** The piece written again and again. */
  piece?: string;
  /** Stops (ending the body) after this many bytes; endless otherwise. */
  total?: number;
}

export const SECRET_PATH = '/secret-tenant-1234/v1';

const servers: http.Server[] = [];
afterEachTest(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
});

export async function startEndlessServer(options: EndlessOptions = {}): Promise<EndlessServer> {
  let written = 0;
  let requests = 0;
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const piece = options.piece ?? 'a'.repeat(64 * 1024);
  const total = options.total ?? Infinity;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    res.on('close', done);
    res.writeHead(options.status ?? 200, { 'content-type': 'application/json', ...options.headers });
    if (options.head) res.write(options.head);
    const more = () => {
      while (!res.destroyed && written < total) {
        written += piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end();
    };
    more();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${SECRET_PATH}`,
    origin,
    get written() {
      return written;
    },
    get requests() {
      return requests;
    },
    closed,
  };
}
