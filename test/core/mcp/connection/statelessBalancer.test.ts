import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { tempDir } from '../../../helpers/tempDir.js';

/**
 * A 2026-07-28 server is stateless (docs/rules/mcp-yaml.md#protocol-eras): no `initialize`, no session id, every
 * request carrying what the server needs. So it may run as several processes behind a load balancer that sends
 * each request wherever it likes. Here: two real processes of a server built with the v2 server package, and a
 * small HTTP proxy in front of them that alternates requests between them.
 */

const ERA_SERVER = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'servers', 'eraServer.mjs');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** One process of the server over stateless HTTP; resolves with its url once it says it listens. */
async function startServerProcess(eraFile: string): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [ERA_SERVER, eraFile, 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  });
  let out = '';
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    const url = /listening (\S+)\n/.exec(out)?.[1];
    if (url) return url;
  }
  throw new Error(`the server process ended before it listened: ${out}`);
}

interface Forwarded {
  upstream: number;
  method: string | undefined;
  session: string | undefined;
}

/** The load balancer stand-in: each request goes to the next upstream in turn, body and answer streamed through. */
async function startAlternatingProxy(upstreams: string[]): Promise<{ url: string; forwarded: Forwarded[] }> {
  const forwarded: Forwarded[] = [];
  let next = 0;
  const proxy = http.createServer((request, response) => {
    const upstream = next++ % upstreams.length;
    forwarded.push({ upstream, method: request.headers['mcp-method'] as string | undefined, session: request.headers['mcp-session-id'] as string | undefined });
    const target = new URL(upstreams[upstream]!);
    const out = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    out.on('error', () => response.destroy());
    request.pipe(out);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => (proxy.closeAllConnections(), proxy.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`, forwarded };
}

describe('a stateless 2026-07-28 server behind a load balancer', { timeout: 60_000 }, () => {
  it('works with its requests alternating between two processes, because no session is assumed', async () => {
    const eraFile = path.join(tempDir('chatos-balancer-'), 'era');
    fs.writeFileSync(eraFile, 'modern');
    const upstreams = await Promise.all([startServerProcess(eraFile), startServerProcess(eraFile)]);
    const balancer = await startAlternatingProxy(upstreams);
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { balanced: { transport: 'streamable_http', url: balancer.url } }));

    const answers: string[] = [];
    for (let call = 0; call < 4; call++) answers.push(textOf((await host.tools.call(caller('conv-balanced'), 'mcp_balanced_era', {})).result));

    // Every call answered, by both processes: one instance of the host spoke to two servers as to one.
    expect(answers.every((answer) => /^modern server, pid \d+$/.test(answer))).toBe(true);
    expect(new Set(answers).size).toBe(2);
    expect(host.mcp.servers.list().find((server) => server.id === 'chatos::balanced')?.protocol).toEqual({ era: 'modern', version: '2026-07-28' });
    // The discovery went to one process, the listen stream for tool list changes (the server declares them) to the
    // other and the listing to the first again; no request carried a session.
    expect(balancer.forwarded.slice(0, 3)).toEqual([
      { upstream: 0, method: 'server/discover', session: undefined },
      { upstream: 1, method: 'subscriptions/listen', session: undefined },
      { upstream: 0, method: 'tools/list', session: undefined },
    ]);
    expect(balancer.forwarded.filter((request) => request.method === 'tools/call').map((request) => request.upstream)).toEqual([1, 0, 1, 0]);
    expect(balancer.forwarded.every((request) => request.session === undefined)).toBe(true);
  });
});
