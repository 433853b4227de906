import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppViewProtocolHandler } from '../../electron/appViewProtocol.js';
import { VIEW_ORIGIN } from '../../electron/appUrls.js';
import { McpAppViews } from '../../src/pageHost/mcpAppViews.js';
import { handleAppViewRoute } from '../../src/serve/appViewRoute.js';

/**
 * `chatos serve`'s `/mcp-app/<id>` and the desktop's `chatos-view://v/<id>`
 * answer a view from one function (src/pageHost/appViewReply.ts): the same
 * status, body and headers, but for the origin allowed to frame it.
 */
const VIEW = { serverId: 'chatos::shop', uri: 'ui://shop/view.html', html: '<!doctype html><title>Shop</title>', csp: { connectDomains: ['https://api.example.com', '*'] } };

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** The route alone on a real loopback server, as headlessServer calls it. */
async function serveRoute(views: McpAppViews): Promise<string> {
  const server = http.createServer((req, res) => handleAppViewRoute(req, res, req.url ?? '/', req.headers.host ?? '', views));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const headersOf = (response: Response, names: string[]) => Object.fromEntries(names.map((name) => [name, response.headers.get(name)]));
const NAMES = ['content-type', 'cache-control', 'x-content-type-options', 'cross-origin-resource-policy', 'allow'];

describe('an MCP App view, served by chatos serve and by the desktop alike', () => {
  it('gives the same answer to GET, HEAD, POST and an unknown id, framed only by each face’s renderer', async () => {
    const views = new McpAppViews();
    const id = views.put(VIEW);
    const origin = await serveRoute(views);
    const desktop = createAppViewProtocolHandler(views);
    for (const [path, method] of [
      [id, 'GET'],
      [id, 'HEAD'],
      [id, 'POST'],
      ['unknown', 'GET'],
    ] as const) {
      const served = await fetch(`${origin}/mcp-app/${path}`, { method });
      const shown = await desktop(new Request(`${VIEW_ORIGIN}/${path}`, { method }));
      expect(shown.status, `${method} ${path}`).toBe(served.status);
      expect(headersOf(shown, NAMES), `${method} ${path}`).toEqual(headersOf(served, NAMES));
      expect(await shown.text()).toBe(await served.text());
      const csp = served.headers.get('content-security-policy') ?? '';
      expect(shown.headers.get('content-security-policy')).toBe(csp.replace(`frame-ancestors ${origin}`, 'frame-ancestors chatos://app'));
    }
    const view = await fetch(`${origin}/mcp-app/${id}`);
    // The view's HTML, led by the guard that takes WebRTC out of its page, after the doctype (before it, the page would be in quirks mode).
    const body = await view.text();
    expect(body.startsWith('<!doctype html><script>(() => {\n')).toBe(true);
    expect(body).toContain('RTCPeerConnection');
    expect(body.endsWith('</script><title>Shop</title>')).toBe(true);
    expect(view.headers.get('content-security-policy')).toContain(`connect-src https://api.example.com; `);
    expect(view.headers.get('content-security-policy')).toContain(`frame-ancestors ${origin}; sandbox allow-scripts`);
  });

  it("leaves chatos serve's own origin out of every list, whichever loopback name the tab used", async () => {
    const views = new McpAppViews();
    const origin = await serveRoute(views);
    const port = new URL(origin).port;
    const self = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `ws://127.0.0.1:${port}`, `ws://localhost:${port}`];
    const declared = [...self, 'https://api.example.com'];
    const id = views.put({ ...VIEW, csp: { connectDomains: declared, resourceDomains: declared, frameDomains: declared, baseUriDomains: declared } });
    for (const hostHeader of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const csp = await new Promise<string>((resolve, reject) => {
        http
          .get(`${origin}/mcp-app/${id}`, { headers: { host: hostHeader } }, (res) => {
            res.resume();
            resolve(String(res.headers['content-security-policy']));
          })
          .on('error', reject);
      });
      expect(csp, hostHeader).toContain(`frame-ancestors http://${hostHeader}; `);
      const lists = csp.replace(/frame-ancestors [^;]*;/, '');
      expect(lists, hostHeader).not.toContain(`:${port}`);
      expect(lists, hostHeader).toContain('connect-src https://api.example.com; frame-src https://api.example.com; base-uri https://api.example.com;');
      expect(lists, hostHeader).toContain("script-src 'unsafe-inline' https://api.example.com;");
    }
  });
});
