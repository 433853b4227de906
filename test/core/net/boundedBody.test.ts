import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyTooLargeError, cutBody, readBodyBytes, readBodyText } from '../../../src/core/net/boundedBody.js';
import { SECRET_PATH, startEndlessServer } from '../../helpers/endlessServer.js';

/**
 * The one reader for a body from outside, against real HTTP: a body that
 * never ends is refused at the limit and its connection closed (the server
 * sees it go away: the reader did not read on), one within it is read whole.
 */

const MiB = 1024 * 1024;
const QUERY = '?key=sk-in-query-5678';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
});

/** A server answering every request with `answer`; `closed` resolves when the first connection ended. */
async function serve(answer: (res: http.ServerResponse) => void) {
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const server = http.createServer((req, res) => {
    req.resume();
    res.on('close', done);
    answer(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${SECRET_PATH}`, closed };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the body was read'),
    (error: unknown) => error as BodyTooLargeError,
  );

describe('a body from outside is read up to its limit', { timeout: 60_000 }, () => {
  it('a body that never ends is refused at the limit, naming the origin only; the connection is closed there', async () => {
    const server = await startEndlessServer();
    const error = await refusal(readBodyText(await fetch(server.url + QUERY), { maxBytes: MiB }));
    await server.closed;
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect(error.message).toContain(`the answer from ${server.origin} is larger than 1 MiB`);
    expect(error.message).not.toContain(SECRET_PATH);
    expect(error.message).not.toContain('sk-in-query');
    // What the socket buffers held when the reader stopped, not what the server would have sent.
    expect(server.written).toBeLessThan(16 * MiB);
  });

  it("a caller's own error is thrown in its place", async () => {
    const server = await startEndlessServer();
    const error = await refusal(readBodyBytes(await fetch(server.url), { maxBytes: 64 * 1024, tooLarge: (refused) => new Error(`mine: ${refused.maxBytes}`) }));
    await server.closed;
    expect((error as Error).message).toBe('mine: 65536');
  });

  it('a body within the limit, or exactly at it, is read whole', async () => {
    const within = await startEndlessServer({ total: 256 * 1024, piece: 'b'.repeat(64 * 1024) });
    expect(await readBodyText(await fetch(within.url), { maxBytes: MiB })).toBe('b'.repeat(256 * 1024));
    const exact = await startEndlessServer({ total: MiB });
    expect((await readBodyBytes(await fetch(exact.url), { maxBytes: MiB })).byteLength).toBe(MiB);
  });

  it('a declared length past the limit fails before the body is waited for', async () => {
    // Declares 100 MiB, sends a byte and holds the connection open: a reader that waited for the body would never end.
    const server = await serve((res) => {
      res.writeHead(200, { 'content-length': String(100 * MiB) });
      res.write('{');
    });
    const error = await refusal(readBodyText(await fetch(server.url), { maxBytes: MiB }));
    await server.closed;
    expect(error.message).toContain('larger than 1 MiB');
  });

  it('a small gzip that unpacks past the limit is refused: the unpacked bytes are counted', async () => {
    const bomb = gzipSync(Buffer.alloc(16 * MiB));
    expect(bomb.byteLength).toBeLessThan(MiB);
    const server = await serve((res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.byteLength) });
      res.end(bomb);
    });
    const error = await refusal(readBodyBytes(await fetch(server.url), { maxBytes: MiB }));
    expect(error.message).toContain('larger than 1 MiB');
  });

  it('an error body is cut at its limit, the rest not read', async () => {
    const server = await startEndlessServer({ status: 500, head: 'overloaded ' });
    const text = await cutBody(await fetch(server.url), 64 * 1024).text();
    await server.closed;
    expect(text.length).toBe(64 * 1024);
    expect(text.startsWith('overloaded aaa')).toBe(true);
    expect(server.written).toBeLessThan(16 * MiB);
  });
});
