import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_CSP, PRIVILEGED_SCHEMES, VIEW_ORIGIN, VIEW_SCHEME } from '../../electron/appUrls.js';
import { createAppViewProtocolHandler } from '../../electron/appViewProtocol.js';
import { HostApiMethods } from '../../src/shared/hostApi.js';
import { McpAppViews } from '../../src/pageHost/mcpAppViews.js';
import { agentUsing } from '../helpers/chatWorld.js';
import { writeMcpYaml } from '../helpers/gatewayHost.js';
import { repoRoot } from '../helpers/tempDir.js';
import { startTestDesktop } from './desktopFixture.js';

/**
 * MCP App views in the desktop window (docs/rules/mcp-apps.md#the-frame):
 * the desktop face's HostApi hands out `chatos-view://v/<id>` and the
 * `chatos-view:` handler serves it, against a real MCP App server over stdio.
 */
const SHOP = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'mcpAppServer.mjs')] };
const GONE = 'this view is no longer here (the server restarted, or many views were opened since): open it again from its tool card\n';

/** A started desktop host whose agent `helper` has the shop server; `view(uri)` is the renderer's mcpApps.view. */
async function desktopWithShop() {
  const t = await startTestDesktop(({ home }) => writeMcpYaml(home, { shop: SHOP }));
  t.desktop.host.agents.create(agentUsing(['shop']));
  const view = async (uri: string) => {
    const reply = await t.desktop.api.handle({ method: 'mcpApps.view', params: { agentId: 'helper', conversationId: 'c1', serverId: 'chatos::shop', uri } });
    if (!reply.ok) throw new Error(`mcpApps.view: ${reply.error.code} ${reply.error.message}`);
    return HostApiMethods['mcpApps.view'].result.parse(reply.result);
  };
  const get = (url: string, method = 'GET') => t.desktop.appViewProtocol(new Request(url, { method }));
  return { ...t, view, get };
}

describe('MCP App views in the desktop window (chatos-view:)', () => {
  it('hands out a view url the chatos-view: handler serves, under the narrowed CSP, framed only by the renderer', async () => {
    const { view, get } = await desktopWithShop();
    const read = await view('ui://shop/view.html');
    expect(read).toMatchObject({ prefersBorder: true, dropped: [] });
    expect(read.url).toMatch(new RegExp(`^${VIEW_ORIGIN}/[\\w-]{32}$`));

    const served = await get(read.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(served.headers.get('cache-control')).toBe('no-store');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = served.headers.get('content-security-policy') ?? '';
    expect(csp.split('; ')).toEqual(
      expect.arrayContaining(["default-src 'none'", "connect-src 'none'", "frame-src 'none'", "form-action 'none'", 'frame-ancestors chatos://app', 'sandbox allow-scripts']),
    );
    // The same guard as chatos serve's leads the view: WebRTC is taken out of its page (docs/rules/mcp-apps.md#webrtc).
    const body = await served.text();
    expect(body).toMatch(/^<!doctype html>\s*<script>\(\(\) => \{\n {2}for \(const name of \['RTCPeerConnection', 'webkitRTCPeerConnection'\]\) delete window\[name\];/);
    expect(body).toContain('<title>Shop</title>');

    const head = await get(read.url, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-security-policy')).toBe(csp);
    expect(await head.text()).toBe('');

    // Each read is its own capability.
    expect((await view('ui://shop/view.html')).url).not.toBe(read.url);
  });

  it('keeps only the plainly written origins a greedy view declares, and never a host origin', async () => {
    const { view, get } = await desktopWithShop();
    const read = await view('ui://shop/greedy.html');
    expect(read.dropped.length).toBeGreaterThanOrEqual(6);
    const csp = (await get(read.url)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain('connect-src https://api.example.com;');
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toMatch(/\*|unsafe-eval|chatos-view/);
    // The renderer's origin only as the one that may frame it, never as a source.
    expect(csp.match(/chatos:/g)).toHaveLength(1);
    expect(csp.endsWith('frame-ancestors chatos://app; sandbox allow-scripts')).toBe(true);
  });

  it('answers an unknown or malformed url 404 with the words chatos serve uses, and only GET and HEAD', async () => {
    const { view, get } = await desktopWithShop();
    const { url } = await view('ui://shop/view.html');
    const id = url.slice(VIEW_ORIGIN.length + 1);
    for (const bad of [`${VIEW_ORIGIN}/${'A'.repeat(32)}`, `${VIEW_ORIGIN}/`, `${VIEW_ORIGIN}/${id}/x`, `${VIEW_SCHEME}://w/${id}`, `${VIEW_ORIGIN}/..%2F${id}`]) {
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
