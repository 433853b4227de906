import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { repoRoot } from './tempDir.js';

/**
 * A local MCP Registry: serves test/fixtures/mcp-registry/servers.json as
 * the official registry's API does (GET /v0/servers with search, cursor,
 * limit and version=latest, pages as `{ servers, metadata: { nextCursor,
 * count } }`; GET /v0/servers/{name}/versions/latest, 404 `{ error }` when
 * there is none). Under other base paths it misbehaves the ways a broken
 * or hostile registry does: /html/ answers a sign-in page, /loop/ gives
 * back the cursor it was asked with, /flood/ streams 100,000 entries,
 * /silent/ never answers.
 *
 * MCP Bundles the test packs are served under /bundles/<name>.mcpb; an
 * entry names one as `{{origin}}/bundles/<name>.mcpb` with fileSha256
 * `{{sha256:<name>}}`, filled in as it is served (a placeholder left unfilled
 * is no URL and no digest, so an entry of a bundle not given is refused).
 *
 * `{{installed:<npm name>}}` is the version of that package in this
 * repository's node_modules: an npm entry pinned to it is one npx runs from
 * the project's own tree (as it does any exact version a project holds), so
 * its install needs no network and follows the lockfile when it moves.
 */

export interface RegistryFixture {
  url: string;
  /** Each request's path and query, in order. */
  requests: URL[];
  close(): Promise<void>;
}

const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'mcp-registry', 'servers.json');

/** The version of an npm package as this repository installed it (its lockfile's). */
export function installedVersion(name: string): string {
  return (JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

export async function startRegistry(options: { bundles?: ReadonlyMap<string, Buffer> } = {}): Promise<RegistryFixture> {
  const bundles = options.bundles ?? new Map<string, Buffer>();
  let origin = '';
  const filled = (text: string) =>
    text
      .replaceAll('{{origin}}', origin)
      .replace(/\{\{sha256:([a-z-]+)\}\}/g, (placeholder, name: string) => {
        const bytes = bundles.get(name);
        return bytes ? createHash('sha256').update(bytes).digest('hex') : placeholder;
      })
      .replace(/\{\{installed:(@?[a-z0-9/._-]+)\}\}/g, (_, name: string) => installedVersion(name));
  const entries = () => (JSON.parse(filled(fs.readFileSync(FIXTURE, 'utf8'))) as { servers: { server: { name?: string } }[] }).servers;
  const requests: URL[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://registry.test');
    requests.push(url);
    const [, mode = '', ...rest] = url.pathname.split('/');
    const known = ['html', 'loop', 'flood', 'silent'].includes(mode);
    const route = known ? rest.join('/') : [mode, ...rest].join('/');
    if (mode === 'silent') return; // held open until the client gives up or the server closes
    const bundle = /^bundles\/([a-z-]+)\.mcpb$/.exec(route);
    if (bundle) {
      const bytes = bundles.get(bundle[1]!);
      if (!bytes) return json(res, 404, { error: 'Not found' });
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(bytes);
      return;
    }
    if (mode === 'html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Sign in</title><form>…</form>');
      return;
    }
    if (mode === 'flood') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"servers":[');
      let sent = 0;
      const more = () => {
        while (sent < 100_000) {
          const item = `${sent ? ',' : ''}{"server":{"name":"io.flood/s${sent}","description":"${'x'.repeat(60)}","version":"1.0.0"}}`;
          sent++;
          if (!res.write(item)) return void res.once('drain', more);
        }
        res.end('],"metadata":{"count":100000}}');
      };
      res.on('error', () => undefined);
      more();
      return;
    }
    const latest = /^v0\/servers\/([^/]+)\/versions\/latest$/.exec(route);
    if (latest) {
      const name = decodeURIComponent(latest[1]!);
      const found = entries().find((e) => e.server.name === name);
      return found ? json(res, 200, found) : json(res, 404, { error: 'Server not found' });
    }
    if (route !== 'v0/servers') return json(res, 404, { error: 'Not found' });
    const search = url.searchParams.get('search') ?? '';
    const limit = Number(url.searchParams.get('limit') ?? 30);
    const cursor = url.searchParams.get('cursor');
    if (mode === 'loop') return json(res, 200, { servers: entries().slice(0, 1), metadata: { nextCursor: cursor ?? 'c1', count: 1 } });
    const matching = entries().filter((e) => (e.server.name ?? '').includes(search));
    const start = cursor ? Number(Buffer.from(cursor, 'base64url').toString()) : 0;
    const page = matching.slice(start, start + limit);
    const next = start + limit < matching.length ? Buffer.from(String(start + limit)).toString('base64url') : undefined;
    json(res, 200, { servers: page, metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) } });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
