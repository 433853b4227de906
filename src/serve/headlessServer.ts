import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createHostApiService } from '../api/hostApiService.js';
import type { HostApiService } from '../api/types.js';
import type { Host } from '../core/host.js';
import { handleApi, refusePreflight } from './apiRoute.js';
import { bearerToken, cookieToken, newToken, queryToken, secretMatches, tokenCookie } from './auth.js';
import { serveUrl } from './serveToken.js';
import { EventsHub } from './eventsSocket.js';
import { LoopbackOrigins } from './origins.js';
import { rejectUpgrade, sendText, setBaseHeaders } from './responses.js';
import { serveFaceUrls, type ViewSites } from './serveUrls.js';
import { startViewServer, type ViewServer } from './viewServer.js';
import { McpAppViews } from '../pageHost/mcpAppViews.js';
import { resolveRendererFile, sendArtifact, sendConversationArtifact, sendRendererTarget } from './staticFiles.js';
import { handleUiRoute } from './uiRoutes.js';

export interface HeadlessServerOptions {
  /** A started host; the server does not dispose it. */
  host: Host;
  /** 0 picks a free port. */
  port?: number;
  /** The port MCP App views run at (viewServer.ts); 0, the default, picks a free one. */
  viewPort?: number;
  /** The renderer's build output (`dist/renderer/`). */
  rendererDir: string;
  version: string;
  /** The session token; default a fresh one for this run (`chatos serve` passes the data home's, see serveToken.ts). */
  token?: string;
  /** What a request without the token is told: how to get the url (given the port, once it is known). */
  unauthorizedText?: (port: number) => string;
}

export interface HeadlessServer {
  /** `http://127.0.0.1:P/?token=…`: opening it sets the session cookie. */
  url: string;
  port: number;
  /** The port of the views' sites: `http://<site>.localhost:<viewPort>` (docs/using/serve.md). */
  viewPort: number;
  token: string;
  /** A bundle to show the next window (`chatos serve --open FILE`), as the desktop hands over a double-clicked one. */
  openBundle(file: string, cwd: string): void;
  /** Closes every socket and connection and the HostApi service; the host stays up. */
  close(): Promise<void>;
}

/** What every route needs, fixed once the port is known. */
interface ServeState {
  host: Host;
  api: HostApiService;
  token: string;
  origins: LoopbackOrigins;
  rendererDir: string;
  unauthorized: string;
  /** The views' port, for the renderer's frame-src. */
  viewPort: number;
}

const DEFAULT_UNAUTHORIZED = 'unauthorized: open the URL that "chatos serve" printed';

/**
 * The headless face (`chatos serve`): the renderer, the HostApi over HTTP
 * and a WebSocket, page frames, and artifacts, on 127.0.0.1 only. Each
 * request passes, in order: the Host check (421), the Origin check (403;
 * page files use a per-app capability instead), the token (401). See
 * docs/using/serve.md#why-it-is-locked-down for why each exists.
 */
export async function startHeadlessServer(options: HeadlessServerOptions): Promise<HeadlessServer> {
  const token = options.token ?? newToken();
  const views = new McpAppViews();
  let state: ServeState | undefined;
  let sites: ViewSites | undefined;
  const api = createHostApiService(options.host, {
    face: 'serve',
    // A view is read only through the API, which answers once both ports are bound.
    urls: serveFaceUrls(token, options.host.setup.home.artifactsDir, options.host.setup.home.conversationsDir, views, () => sites!),
    version: options.version,
  });
  const server = http.createServer((req, res) => {
    if (!state) return sendText(res, 503, 'starting');
    void handleRequest(req, res, state).catch((error: unknown) => {
      if (!res.headersSent) sendText(res, 500, `internal error: ${(error as Error).message}`);
      else res.destroy();
    });
  });
  let events: EventsHub | undefined;
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!state || !events) return rejectUpgrade(socket, 503, 'starting');
    const refusal = upgradeRefusal(req, state);
    if (refusal) return rejectUpgrade(socket, refusal.status, refusal.text);
    const hub = events;
    hub.wss.handleUpgrade(req, socket, head, (ws) => hub.wss.emit('connection', ws, req));
  });

  let viewServer: ViewServer;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: options.port ?? 0, host: '127.0.0.1', exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    viewServer = await startViewServer({ port: options.viewPort ?? 0, views, place: () => sites!.place });
  } catch (error) {
    server.close();
    api.dispose();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const origins = new LoopbackOrigins(port);
  // Any loopback spelling of either port reaches this host: a view's CSP drops them all.
  // CSP has no syntax for an IPv6 literal, and the server is not on [::1]: the names frame views.
  const framers = origins.origins.filter((origin) => !origin.includes('['));
  sites = { port: viewServer.port, place: { framers, hostOrigins: [...origins.origins, `http://localhost:${viewServer.port}`] } };
  const hub = new EventsHub(api);
  events = hub;
  state = { host: options.host, api, token, origins, rendererDir: options.rendererDir, unauthorized: options.unauthorizedText?.(port) ?? DEFAULT_UNAUTHORIZED, viewPort: viewServer.port };

  let closing: Promise<void> | undefined;
  return {
    url: serveUrl(port, token),
    port,
    viewPort: viewServer.port,
    token,
    openBundle: (file, cwd) => api.openBundle(file, cwd),
    close() {
      closing ??= (async () => {
        await hub.close();
        await viewServer.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        api.dispose();
      })();
      return closing;
    },
  };
}

function upgradeRefusal(req: http.IncomingMessage, state: ServeState): { status: number; text: string } | undefined {
  if (!state.origins.hostOf(req)) return { status: 421, text: misdirected(state) };
  const { path, query } = splitUrl(req.url);
  if (path !== '/events') return { status: 404, text: 'not found' };
  if (!state.origins.originAllowed(req)) return { status: 403, text: 'cross-origin socket refused' };
  const presented = queryToken(query) ?? cookieToken(req, state.origins.port);
  if (!secretMatches(presented, state.token)) return { status: 401, text: state.unauthorized };
  return undefined;
}

async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse, state: ServeState): Promise<void> {
  setBaseHeaders(res);
  const hostHeader = state.origins.hostOf(req);
  if (!hostHeader) return sendText(res, 421, misdirected(state));
  const { path, query } = splitUrl(req.url);
  if (!path.startsWith('/')) return sendText(res, 400, 'bad request target');
  if (path.startsWith('/ui/')) return handleUiRoute(req, res, path, query, hostHeader, { source: state.host.plugins, token: state.token });
  if (path === '/api' && req.method === 'OPTIONS') return refusePreflight(res);
  if (!state.origins.originAllowed(req)) return sendText(res, 403, 'cross-origin request refused');

  if (path === '/api') {
    if (req.method !== 'POST') return sendText(res, 405, 'the API takes POST {"method", "params"}', { Allow: 'POST' });
    // The Bearer header is for scripts; the renderer's own calls carry the HttpOnly cookie.
    if (!secretMatches(bearerToken(req) ?? cookieToken(req, state.origins.port), state.token)) return sendText(res, 401, state.unauthorized);
    return handleApi(req, res, state.api);
  }

  const fromQuery = queryToken(query);
  const authorized = secretMatches(fromQuery ?? cookieToken(req, state.origins.port), state.token);
  if (!authorized) return sendText(res, 401, state.unauthorized);
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'only GET here', { Allow: 'GET, HEAD' });
  if (path === '/events') return sendText(res, 426, 'this is the event WebSocket: connect with a WebSocket client', { Upgrade: 'websocket' });
  if (path.startsWith('/artifacts/')) return sendArtifact(req, res, state.host.setup.home.artifactsDir, path.slice('/artifacts/'.length));
  if (path.startsWith('/conversation-artifacts/')) return sendConversationArtifact(req, res, state.host.setup.home.conversationsDir, path.slice('/conversation-artifacts/'.length));

  const target = resolveRendererFile(state.rendererDir, path);
  if (fromQuery !== undefined && (target.kind !== 'file' || target.html)) {
    // The token moves from the address bar (history, screenshots) into an HttpOnly cookie.
    query.delete('token');
    const rest = query.toString();
    res.writeHead(302, { Location: `${sameOriginPath(path)}${rest ? `?${rest}` : ''}`, 'Set-Cookie': tokenCookie(state.token, state.origins.port), 'Content-Length': 0 });
    return void res.end();
  }
  sendRendererTarget(req, res, target, state.origins.port, state.viewPort);
}

/**
 * A request path as a redirect target that stays on this origin: leading
 * slashes and backslashes collapse to one `/`, since a browser reads `//host`
 * and `/\\host` as another site (`GET //evil.example/x?token=…` must not send
 * the user there). Tabs and line breaks go with them: a browser drops those
 * from a url before reading it.
 */
function sameOriginPath(path: string): string {
  return `/${path.replace(/^[/\\\t\n\r]+/, '')}`;
}

/** The raw path (still percent-encoded, never normalized) and the query of a request target. */
function splitUrl(target: string | undefined): { path: string; query: URLSearchParams } {
  const raw = target ?? '';
  const mark = raw.indexOf('?');
  return mark < 0 ? { path: raw, query: new URLSearchParams() } : { path: raw.slice(0, mark), query: new URLSearchParams(raw.slice(mark + 1)) };
}

function misdirected(state: ServeState): string {
  return `misdirected request: this server answers only to ${state.origins.hosts.join(', ')}`;
}
