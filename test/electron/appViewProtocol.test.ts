import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_CSP, PRIVILEGED_SCHEMES, VIEW_SCHEME } from '../../electron/appUrls.js';
import { createAppViewProtocolHandler } from '../../electron/appViewProtocol.js';
import { HostApiMethods } from '../../src/shared/hostApi.js';
import { McpAppViews } from '../../src/pageHost/mcpAppViews.js';
import { agentUsing } from '../helpers/chatWorld.js';
import { writeMcpYaml } from '../helpers/gatewayHost.js';
import { repoRoot } from '../helpers/tempDir.js';
import { startTestDesktop } from './desktopFixture.js';

/**
 * MCP App views in the desktop window (docs/rules/mcp-apps.md#the-frame):
 * the desktop face's HostApi hands out `chatos-view://<site>/<id>` (the
 * view's sandbox proxy, at a site per app and the party it acts for) and
 * the `chatos-view:` handler serves it and `…/<id>/view` (the view), against
 * a real MCP App server over stdio. The window itself cannot run here (no
 * Electron binary): these are the module's answers a window would get.
 */
const SHOP = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'mcpAppServer.mjs')] };
const GONE = 'this view is no longer here (the server restarted, or many views were opened since): open it again from its tool card\n';
const SANDBOX = 'sandbox allow-scripts allow-same-origin allow-forms';

/** A started desktop host whose agent `helper` has the shop server; `view(uri)` is the renderer's mcpApps.view. */
async function desktopWithShop() {
  const t = await startTestDesktop(({ home }) => writeMcpYaml(home, { shop: SHOP, market: SHOP }));
  t.desktop.host.agents.create(agentUsing(['shop', 'market']));
  const view = async (uri: string, conversationId = 'c1', serverId = 'chatos::shop') => {
    const reply = await t.desktop.api.handle({ method: 'mcpApps.view', params: { agentId: 'helper', conversationId, serverId, uri } });
    if (!reply.ok) throw new Error(`mcpApps.view: ${reply.error.code} ${reply.error.message}`);
    return HostApiMethods['mcpApps.view'].result.parse(reply.result);
  };
  const get = (url: string, method = 'GET') => t.desktop.appViewProtocol(new Request(url, { method }));
  return { ...t, view, get };
}

describe('MCP App views in the desktop window (chatos-view:)', () => {
  it('hands out the url of a sandbox proxy at a site of its own, which frames the view under its narrowed CSP', async () => {
    const { view, get } = await desktopWithShop();
    const read = await view('ui://shop/view.html');
    expect(read).toMatchObject({ prefersBorder: true, dropped: [] });
    expect(read.url).toMatch(new RegExp(`^${VIEW_SCHEME}://[0-9a-f]{32}/[\\w-]{32}$`));
    expect(read.origin).toBe(read.url.slice(0, read.url.lastIndexOf('/')));

    // The proxy: its own script and style only, frames only its own origin, framed only by the renderer.
    const proxy = await get(read.url);
    expect(proxy.status).toBe(200);
    expect(proxy.headers.get('cache-control')).toBe('no-store');
    expect(proxy.headers.get('x-content-type-options')).toBe('nosniff');
    expect(proxy.headers.get('origin-agent-cluster')).toBe('?1');
    const proxyCsp = (proxy.headers.get('content-security-policy') ?? '').split('; ');
    expect(proxyCsp).toEqual(expect.arrayContaining(["default-src 'none'", "frame-src 'self'", "form-action 'none'", 'frame-ancestors chatos://app', SANDBOX]));
    expect(proxyCsp.find((d) => d.startsWith('script-src'))).toMatch(/^script-src 'sha256-[\w+/=]+'$/);
    const proxyHtml = await proxy.text();
    expect(proxyHtml).toContain("'ui/notifications/sandbox-'");
    expect(proxyHtml).toContain("'proxy-ready'");
    expect(proxyHtml).toContain('["chatos://app"]');

    // The view: its HTML led by the same guard as chatos serve's, under its CSP, framed by its proxy inside the renderer.
    const served = await get(`${read.url}/view`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = served.headers.get('content-security-policy') ?? '';
    expect(csp.split('; ')).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob: data:",
        "connect-src 'none'",
        "frame-src 'none'",
        "form-action 'none'",
        "frame-ancestors 'self' chatos://app",
        SANDBOX,
      ]),
    );
    const body = await served.text();
    expect(body).toMatch(/^<!doctype html>\s*<script>\(\(\) => \{\n {2}for \(const name of \['RTCPeerConnection', 'webkitRTCPeerConnection'\]\) delete window\[name\];/);
    expect(body).toContain('ui/notifications/sandbox-view-error');
    expect(body).toContain('<title>Shop</title>');

    const head = await get(`${read.url}/view`, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-security-policy')).toBe(csp);
    expect(await head.text()).toBe('');

    // Each read is its own capability, at the same site for the same app and conversation; another app, or the
    // same app for another conversation, is another site.
    const again = await view('ui://shop/view.html');
    expect(again.url).not.toBe(read.url);
    expect(again.origin).toBe(read.origin);
    expect((await view('ui://shop/view.html', 'c2')).origin).not.toBe(read.origin);
    expect((await view('ui://shop/view.html', 'c1', 'chatos::market')).origin).not.toBe(read.origin);
  });

  it('keeps only the plainly written origins a greedy view declares, and never a host origin', async () => {
    const { view, get } = await desktopWithShop();
    const read = await view('ui://shop/greedy.html');
    expect(read.dropped.length).toBeGreaterThanOrEqual(6);
    const csp = (await get(`${read.url}/view`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain('connect-src https://api.example.com;');
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toMatch(/\*|chatos-view/);
    // Eval is the host's own default, once; the view's 'unsafe-eval' entry was dropped.
    expect(csp.match(/'unsafe-eval'/g)).toHaveLength(1);
    // The renderer's origin only as the one that may frame it, never as a source.
    expect(csp.match(/chatos:/g)).toHaveLength(1);
    expect(csp.endsWith(`frame-ancestors 'self' chatos://app; ${SANDBOX}`)).toBe(true);
  });

  it('answers an unknown or malformed url, or an id at another site, 404 with the words chatos serve uses, and only GET and HEAD', async () => {
    const { view, get } = await desktopWithShop();
    const { url, origin } = await view('ui://shop/view.html');
    const other = await view('ui://shop/view.html', 'c1', 'chatos::market');
    const id = url.slice(origin.length + 1);
    for (const bad of [
      `${origin}/${'A'.repeat(32)}`,
      `${origin}/`,
      `${origin}/${id}/x`,
      `${origin}/${id}/view/x`,
      `${VIEW_SCHEME}://v/${id}`,
      `${other.origin}/${id}`,
      `${other.origin}/${id}/view`,
      `${origin}/..%2F${id}`,
    ]) {
      const response = await get(bad);
      expect(response.status, bad).toBe(404);
      expect(await response.text()).toBe(GONE);
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    }
    const posted = await get(url, 'POST');
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    expect(await posted.text()).toBe('views are read with GET\n');
    // The view is still there after the refusals.
    expect((await get(url)).status).toBe(200);
    expect((await get(`${url}/view`)).status).toBe(200);
  });

  it('serves a view only from the store it was put in (another window or run knows no id)', async () => {
    const { view } = await desktopWithShop();
    const { url } = await view('ui://shop/view.html');
    const other = createAppViewProtocolHandler(new McpAppViews());
    expect((await other(new Request(url))).status).toBe(404);
  });

  it('registers chatos-view as a secure standard scheme the renderer may frame, with no fetch or CORS privilege', () => {
    expect(PRIVILEGED_SCHEMES.find((s) => s.scheme === VIEW_SCHEME)).toEqual({ scheme: VIEW_SCHEME, privileges: { standard: true, secure: true } });
    expect(APP_CSP.split('; ')).toContain('frame-src chatos-app: chatos-view:');
  });
});
