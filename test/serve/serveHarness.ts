import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { WebSocket } from 'ws';
import { createHost, type Host } from '../../src/core/host.js';
import { startHeadlessServer, type HeadlessServer } from '../../src/serve/headlessServer.js';
import { writePlugin } from '../helpers/plugins.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * A real host on a temp home with two plugins, and a real server on a free
 * port. Made once per file (beforeAll), so its folders are its own and
 * removed by `stop()`, not by the per-test tempDir cleanup.
 *
 * - `good` (built-in root: always trusted), app `main`: index.mjs, compact.mjs, style.css,
 *   a dotfile, a symlink inside the plugin (`app/inside.css` → `style.css`).
 * - `linked` (built-in root), app `main`: a symlink to a file outside the plugin
 *   (`app/outside.txt`), which blocks the whole plugin.
 * - `stranger` (extra root: untrusted), app `main`.
 */
export interface ServeFixture {
  host: Host;
  server: HeadlessServer;
  port: number;
  token: string;
  home: string;
  rendererDir: string;
  goodDir: string;
  /** The built-in plugin blocked by its link to `outsideFile`. */
  linkedDir: string;
  /** A file outside every served folder, with a known secret in it. */
  outsideFile: string;
  stop(): Promise<void>;
}

export const SECRET = 'top-secret-outside-the-plugin';

export const PAGE_MODULE = `export function mount({ container, host }) {
  container.textContent = 'mounted';
}
`;

export interface ServeFixtureOptions {
  /** Write a renderer build (index.html, one asset); default true. */
  renderer?: boolean;
  /** More files for the renderer folder (a test page). */
  rendererFiles?: Record<string, string>;
  /** Writes more plugins into the built-in (trusted) root before the host starts. */
  builtinPlugins?: (root: string) => void;
}

export async function startServeFixture(options: ServeFixtureOptions = {}): Promise<ServeFixture> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-serve-'));
  const dir = (name: string) => {
    const made = path.join(base, name);
    fs.mkdirSync(made, { recursive: true });
    return made;
  };
  const home = dir('home');
  const builtinRoot = dir('builtin');
  const extraRoot = dir('extra');
  const rendererDir = path.join(base, 'renderer');
  const outsideFile = path.join(dir('outside'), 'secret.txt');
  fs.writeFileSync(outsideFile, SECRET);

  const goodDir = writePlugin(
    builtinRoot,
    'good',
    { manifestVersion: 1, id: 'good', name: 'Good', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: { type: 'module', path: 'app/index.mjs', compact: { path: 'app/compact.mjs' } } }] },
    {
      'app/index.mjs': PAGE_MODULE,
      'app/compact.mjs': 'export default function mount({ container }) { container.textContent = "compact"; }\n',
      'app/style.css': 'body { color: red; }\n',
      'app/.env': 'SECRET=1\n',
    },
  );
  fs.symlinkSync('style.css', path.join(goodDir, 'app', 'inside.css'));
  const linkedDir = writePlugin(
    builtinRoot,
    'linked',
    { manifestVersion: 1, id: 'linked', name: 'Linked', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'app/index.mjs' }] },
    { 'app/index.mjs': PAGE_MODULE },
  );
  fs.symlinkSync(outsideFile, path.join(linkedDir, 'app', 'outside.txt'));
  options.builtinPlugins?.(builtinRoot);
  writePlugin(
    extraRoot,
    'stranger',
    { manifestVersion: 1, id: 'stranger', name: 'Stranger', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'app/index.mjs' }] },
    { 'app/index.mjs': PAGE_MODULE },
  );

  if (options.renderer !== false) {
    fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>ChatOS test renderer</title><div id="root"></div>\n');
    fs.writeFileSync(path.join(rendererDir, 'assets', 'app-1234.js'), 'console.log("asset");\n');
    for (const [name, text] of Object.entries(options.rendererFiles ?? {})) fs.writeFileSync(path.join(rendererDir, name), text);
  }

  const host = createHost({ home, appRoot: repoRoot, builtinPluginsDir: builtinRoot, defaultsDir: dir('defaults'), extraPluginRoots: [extraRoot], sessionRoot: base, projectRoot: base });
  await host.start();
  const server = await startHeadlessServer({ host, port: 0, rendererDir, version: '9.9.9-test' });
  return {
    host,
    server,
    port: server.port,
    token: server.token,
    home,
    rendererDir,
    goodDir,
    linkedDir,
    outsideFile,
    async stop() {
      await server.close();
      await host.dispose();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request with exactly these headers and path: fetch will not send
 * a foreign Host, and normalizes `..` out of paths; this sends the bytes
 * as given.
 */
export function raw(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; address?: string }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { host: `127.0.0.1:${port}`, ...options.headers };
    if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
    const req = http.request({ host: options.address ?? '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers, setHost: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** `POST /api` with the bearer token (or the given headers instead). */
export function apiCall(f: ServeFixture, request: unknown, headers: Record<string, string> = { authorization: `Bearer ${f.token}` }): Promise<RawResponse> {
  return raw(f.port, { method: 'POST', path: '/api', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(request) });
}

export type SocketOutcome = { kind: 'open'; socket: WebSocket } | { kind: 'refused'; status: number; body: string };

/** Opens a WebSocket with exactly these headers; a refused upgrade resolves with its HTTP status instead of throwing. */
export function openSocket(port: number, options: { path: string; headers?: Record<string, string>; origin?: string }): Promise<SocketOutcome> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}${options.path}`, { headers: options.headers, ...(options.origin ? { origin: options.origin } : {}) });
    socket.once('open', () => resolve({ kind: 'open', socket }));
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ kind: 'refused', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    socket.once('error', reject);
  });
}

/** The next message on a socket that satisfies `match`, parsed. */
export function nextMessage<T = Record<string, unknown>>(socket: WebSocket, match: (message: T) => boolean, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('message', onMessage);
      reject(new Error(`no matching socket message within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString()) as T;
      if (!match(message)) return;
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
  });
}
