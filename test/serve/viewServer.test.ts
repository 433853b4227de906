import { afterEach, describe, expect, it } from 'vitest';
import { createAppViewProtocolHandler } from '../../electron/appViewProtocol.js';
import { viewSiteOrigin as desktopSite } from '../../electron/appUrls.js';
import { McpAppViews, viewSite } from '../../src/pageHost/mcpAppViews.js';
import { startViewServer, viewSiteOrigin, type ViewServer } from '../../src/serve/viewServer.js';
import { getAtSite } from '../helpers/viewSites.js';

/**
 * The sites MCP App views run at (docs/rules/mcp-apps.md#the-frame):
 * `chatos serve`'s views' port (`http://<site>.localhost:<port>/<id>`) and
 * the desktop's `chatos-view://<site>/<id>` answer from one function
 * (src/pageHost/appViewReply.ts): the same status, body and headers, but
 * for the origins allowed to frame them. A real listener on 127.0.0.1.
 */
const VIEW = { serverId: 'chatos::shop', uri: 'ui://shop/view.html', html: '<!doctype html><title>Shop</title>', csp: { connectDomains: ['https://api.example.com', '*'] } };
const RENDERER = ['http://127.0.0.1:4000', 'http://localhost:4000'];

const servers: ViewServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serveViews(views: McpAppViews): Promise<ViewServer> {
  let port = 0;
  const server = await startViewServer({ port: 0, views, place: () => ({ framers: RENDERER, hostOrigins: [...RENDERER, `http://localhost:${port}`] }) });
  port = server.port;
  servers.push(server);
  return server;
}

const headersOf = (headers: Record<string, string | string[] | undefined> | Headers, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, (headers instanceof Headers ? headers.get(name) : headers[name]) ?? null]));
const NAMES = ['content-type', 'cache-control', 'x-content-type-options', 'referrer-policy', 'origin-agent-cluster', 'allow'];

describe('an MCP App view at its site, served by chatos serve and by the desktop alike', () => {
  it('gives the same answer to GET, HEAD, POST and an unknown id, for the proxy and the view, framed only by each face’s renderer', async () => {
    const views = new McpAppViews();
    const site = viewSite('chatos::shop', '["agent","helper","main","c1"]');
    const id = views.put(VIEW, site);
    const server = await serveViews(views);
    const desktop = createAppViewProtocolHandler(views);
    for (const [path, method] of [
      [id, 'GET'],
      [`${id}/view`, 'GET'],
      [id, 'HEAD'],
      [`${id}/view`, 'POST'],
      ['unknown', 'GET'],
    ] as const) {
      const served = await getAtSite(`${viewSiteOrigin(site, server.port)}/${path}`, method);
      const shown = await desktop(new Request(`${desktopSite(site)}/${path}`, { method }));
      expect(shown.status, `${method} ${path}`).toBe(served.status);
      expect(headersOf(shown.headers, NAMES), `${method} ${path}`).toEqual(headersOf(served.headers, NAMES));
      const body = await shown.text();
      expect(body.replace('["chatos://app"]', JSON.stringify(RENDERER))).toBe(served.body);
      // The proxy's script names the framers, so its hash differs with them.
      const policy = (csp: string) => csp.replace(/'sha256-[\w+/=]+'; style/, "'sha256-…'; style");
      const csp = policy(String(served.headers['content-security-policy']));
      expect(policy(shown.headers.get('content-security-policy') ?? '')).toBe(csp.replace(RENDERER.join(' '), 'chatos://app'));
    }
    // The proxy is framed by the renderer alone; the view by its proxy (its own origin) inside the renderer.
    const proxy = await getAtSite(`${viewSiteOrigin(site, server.port)}/${id}`);
    expect(proxy.headers['content-security-policy']).toContain(`frame-ancestors ${RENDERER.join(' ')}; `);
    expect(proxy.body).toContain("'ui/notifications/sandbox-'");
    const view = await getAtSite(`${viewSiteOrigin(site, server.port)}/${id}/view`);
    // The view's HTML, led by the guard that takes WebRTC out of its page, after the doctype (before it, the page would be in quirks mode).
    expect(view.body.startsWith('<!doctype html><script>(() => {\n')).toBe(true);
    expect(view.body).toContain('RTCPeerConnection');
    expect(view.body.endsWith('</script><title>Shop</title>')).toBe(true);
    expect(view.headers['content-security-policy']).toContain(`connect-src https://api.example.com; `);
    expect(view.headers['content-security-policy']).toContain(`frame-ancestors 'self' ${RENDERER.join(' ')}; sandbox allow-scripts allow-same-origin allow-forms`);
  });

  it('answers only at the site a view was read for: another site, a bare loopback name or another port is refused', async () => {
    const views = new McpAppViews();
    const site = viewSite('chatos::shop', 'c1');
    const other = viewSite('chatos::market', 'c1');
    const id = views.put(VIEW, site);
    const server = await serveViews(views);
    expect((await getAtSite(`${viewSiteOrigin(site, server.port)}/${id}`)).status).toBe(200);
    // A view's id at another app's site is no view there.
    expect((await getAtSite(`${viewSiteOrigin(other, server.port)}/${id}`)).status).toBe(404);
    expect((await getAtSite(`${viewSiteOrigin(other, server.port)}/${id}/view`)).status).toBe(404);
    // Only `<site>.localhost:<this port>` is a Host this server answers (DNS rebinding: a name another site controls).
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `${site}.localhost:${server.port + 1}`, `${site}.evil.example:${server.port}`, `x${site}.localhost:${server.port}`]) {
      const answer = await getAtSite(`http://${host}/${id}`, 'GET', server.port);
      expect(answer.status, host).toBe(421);
      expect(answer.body, host).not.toContain('<script>');
    }
    // Nothing of the host is here: no API, no renderer, no token route.
    for (const path of ['/api', '/', '/?token=x', '/events', '/artifacts/x.png']) expect((await getAtSite(`${viewSiteOrigin(site, server.port)}${path}`)).status, path).toBe(404);
  });

  it("leaves every origin of the host out of a view's lists: the renderer's in each loopback spelling, and the views' own port", async () => {
    const views = new McpAppViews();
    const site = viewSite('chatos::shop', 'c1');
    const server = await serveViews(views);
    const self = ['http://127.0.0.1:4000', 'http://localhost:4000', 'ws://localhost:4000', `http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`, `https://*.localhost:${server.port}`];
    const declared = [...self, 'https://api.example.com'];
    const id = views.put({ ...VIEW, csp: { connectDomains: declared, resourceDomains: declared, frameDomains: declared, baseUriDomains: declared } }, site);
    const csp = String((await getAtSite(`${viewSiteOrigin(site, server.port)}/${id}/view`)).headers['content-security-policy']);
    const lists = csp.replace(/frame-ancestors [^;]*;/, '');
    expect(lists).not.toContain(':4000');
    expect(lists).not.toContain(`:${server.port}`);
    expect(lists).toContain('connect-src https://api.example.com; frame-src https://api.example.com; base-uri https://api.example.com;');
    expect(lists).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob: data: https://api.example.com;");
  });
});
