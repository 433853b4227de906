import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ViewPlace } from '../core/facades/tools.js';
import { appViewReply } from '../pageHost/appViewReply.js';
import type { McpAppViews } from '../pageHost/mcpAppViews.js';
import { sendBody, sendText } from './responses.js';

/**
 * The sites MCP App views run at, in `chatos serve` (docs/rules/mcp-apps.md#the-frame):
 * a listener of its own on 127.0.0.1, apart from the renderer's port, that
 * answers only `http://<site>.localhost:<its port>/<id>` (a view's sandbox
 * proxy) and `/<id>/view` (the view). Each site is an origin of its own
 * (browsers resolve `*.localhost` to this machine), so a view is never the
 * host's origin nor another app's. Nothing else is here: no renderer, no
 * API, no token, no cookie; the id in the path is the capability, and it
 * is served only at the site it was read for.
 */
export interface ViewServer {
  port: number;
  close(): Promise<void>;
}

/** The site a request was made to: `<32 hex>.localhost:<port>`, nothing else. */
function siteOf(host: string | undefined, port: number): string | undefined {
  const match = /^([0-9a-f]{32})\.localhost:(\d{1,5})$/.exec(host ?? '');
  return match && Number(match[2]) === port ? match[1] : undefined;
}

/** `port` 0 picks a free one; `place` is read per request (the renderer's port is known by then). */
export async function startViewServer(options: { port: number; views: McpAppViews; place: () => ViewPlace }): Promise<ViewServer> {
  let port = 0;
  const server = http.createServer((req, res) => {
    const site = siteOf(req.headers.host, port);
    if (!site) return sendText(res, 421, `misdirected request: this server answers only to <view>.localhost:${port}`, { 'Cache-Control': 'no-store' });
    const target = req.url ?? '';
    const mark = target.indexOf('?');
    const reply = appViewReply(options.views, { site, path: mark < 0 ? target : target.slice(0, mark), method: req.method ?? 'GET' }, options.place());
    const { 'Content-Type': contentType, ...headers } = reply.headers;
    sendBody(req, res, reply.status, reply.body, contentType!, headers);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The origin of a view's site. */
export const viewSiteOrigin = (site: string, port: number) => `http://${site}.localhost:${port}`;
