import { afterAll } from 'vitest';

/**
 * A fresh connection pool for each file's `fetch`. Files share a worker
 * (vitest.config.ts, `isolate: false`) and with it Node's global undici
 * dispatcher, whose keep-alive sockets outlive the file that opened them: a
 * server a test closed with `server.close()` keeps the connections it had
 * accepted, and when a later file's free port is that port again, its
 * request goes down the old socket to the old server (ECONNRESET where a
 * closed port's ECONNREFUSED was due, a request sent twice when the socket
 * dies under it). After a file, the dispatcher it used is destroyed, its
 * sockets with it, and the next file's fetches start a new one.
 */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Dispatcher {
  destroy(): Promise<void>;
}

afterAll(async () => {
  const holder = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  const used = holder[GLOBAL_DISPATCHER];
  if (used === undefined) return;
  // Node's own Agent class, so fetch keeps its defaults: undici keeps no other reference to the old one.
  holder[GLOBAL_DISPATCHER] = new (used.constructor as new () => Dispatcher)();
  await used.destroy();
});
