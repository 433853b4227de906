import * as path from 'node:path';
import { confirm, onAsked } from '../../helpers/questions.js';
import { describe, expect, it } from 'vitest';
import { APP_CALLS_PER_WINDOW } from '../../../src/core/mcpApps/mcpApps.js';
import { viewCsp } from '../../../src/core/mcpApps/viewCsp.js';
import { guardedViewHtml } from '../../../src/core/mcpApps/viewGuard.js';
import { startChatWorld } from '../../helpers/chatWorld.js';
import { repoRoot } from '../../helpers/tempDir.js';

/** The host side of MCP Apps in the core (docs/rules/mcp-apps.md), against a real MCP App server over stdio. */

// Views over 2 MiB are refused (docs/rules/mcp-apps.md#size): its 3 MB view is one.
const SHOP = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'mcpAppServer.mjs')], maxViewBytes: 2 * 1024 * 1024 };
const SERVER = 'chatos::shop';

async function shopWorld() {
  const world = await startChatWorld({ servers: { shop: SHOP } });
  world.provider.enqueue({ kind: 'reply', toolCalls: [{ id: 's1', name: 'mcp_shop_show_shop', arguments: { item: 'apples' } }] }, { kind: 'reply', text: 'Here is the shop.' });
  const turn = world.host.chat.send({ agentId: 'helper', text: 'open the shop' });
  await turn.done;
  const { caller } = world.host.tools.callers.agent('helper', 'main', turn.conversationId);
  return { ...world, conversationId: turn.conversationId, caller };
}

describe('MCP Apps in the core', () => {
  it('keeps a tool’s view link, offers the model no app-only tool, and marks the result with its view', async () => {
    const { host, provider, conversationId, caller } = await shopWorld();
    const offered = (provider.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered).toContain('mcp_shop_show_shop');
    expect(offered).not.toContain('mcp_shop_place_order');
    const listed = await host.tools.list(caller);
    expect(listed.tools.find((t) => t.rawName === 'place_order')?.ui).toEqual({ resourceUri: 'ui://shop/view.html', visibility: ['app'] });
    const result = host.chat.get(conversationId).messages.find((m) => m.role === 'tool');
    expect(result).toMatchObject({ name: 'mcp_shop_show_shop', status: 'ok', view: 'ui://shop/view.html', serverId: SERVER });

    // A model that names the app-only tool anyway is refused.
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'p1', name: 'mcp_shop_place_order', arguments: { item: 'pears', count: 9 } }] }, { kind: 'reply', text: 'ok' });
    await host.chat.send({ conversationId, text: 'order pears yourself' }).done;
    const refused = host.chat.get(conversationId).messages.find((m) => m.role === 'tool' && m.callId === 'p1');
    expect(refused).toMatchObject({ status: 'refused' });
    expect(host.audit.query({ tool: 'mcp_shop_place_order' })).toEqual([]);
  });

  it('lists its views as views: for the host to show, never offered to attach (the @-mention picker leaves them out)', async () => {
    const { host, caller } = await shopWorld();
    const { resources } = await host.tools.resources.list(caller, SERVER);
    const views = resources.filter((r) => r.uri.startsWith('ui://'));
    expect(views.length).toBeGreaterThan(0);
    expect(views.every((r) => r.view === true)).toBe(true);
    expect(resources.filter((r) => !r.uri.startsWith('ui://')).every((r) => r.view === undefined)).toBe(true);
  });

  it('reads a linked view for the caller, and refuses the unlinked, the oversized and the wrong type', async () => {
    const { host, caller } = await shopWorld();
    const view = await host.tools.apps.view(caller, SERVER, 'ui://shop/view.html');
    expect(view.html).toContain('<title>Shop</title>');
    expect(view).toMatchObject({ prefersBorder: true, csp: { connectDomains: [], resourceDomains: [] } });
    await expect(host.tools.apps.view(caller, SERVER, 'ui://shop/secret.html')).rejects.toMatchObject({ code: 'VIEW_NOT_LINKED' });
    await expect(host.tools.apps.view(caller, SERVER, 'ui://shop/plain.html')).rejects.toMatchObject({ code: 'VIEW_NOT_AN_APP', message: expect.stringContaining('of type text/html') });
    await expect(host.tools.apps.view(caller, SERVER, 'ui://shop/huge.html')).rejects.toMatchObject({
      code: 'VIEW_TOO_LARGE',
      message: expect.stringContaining('is 3 MB; at most 2 MB (2097152 bytes) is rendered'),
      hint: expect.stringContaining('raise "maxViewBytes" of server "shop" in mcp.yaml'),
    });
    // Another agent, not given the server, reads nothing of it.
    host.agents.create({ id: 'other', name: 'Other', description: '', modelId: 'local', systemPrompt: '', uiApps: [] });
    const other = host.tools.callers.agent('other', 'main', caller.conversationId).caller;
    await expect(host.tools.apps.view(other, SERVER, 'ui://shop/view.html')).rejects.toMatchObject({ code: 'VIEW_NOT_LINKED' });
  });

  it("proxies the app's calls through the gateway: confirmation, audit, only app-visible tools, a bounded rate", async () => {
    const { host, caller } = await shopWorld();
    const asked: string[] = [];
    onAsked(host, 'toolConfirmation', (request) => {
      asked.push(request.toolName);
      void confirm(host, request.id, true);
    });
    const ordered = await host.tools.apps.call(caller, SERVER, 'place_order', { item: 'apples', count: 2 });
    expect(ordered.result.content).toEqual([{ type: 'text', text: 'Ordered 2 apples.' }]);
    expect(ordered.decision).toBe('approved');
    expect(asked).toEqual(['mcp_shop_place_order']);
    expect(host.audit.query({ tool: 'mcp_shop_place_order' })).toEqual([expect.objectContaining({ agentId: 'helper', outcome: 'ok' })]);
    await expect(host.tools.apps.call(caller, SERVER, 'no_such_tool', {})).rejects.toMatchObject({ code: 'APP_TOOL_NOT_VISIBLE' });
    await expect(host.tools.apps.call(caller, 'chatos::elsewhere', 'place_order', {})).rejects.toMatchObject({ code: 'APP_TOOL_NOT_VISIBLE' });

    // An app calling in a loop is refused past its share; the calls it made went through one by one.
    let refusal: unknown;
    for (let i = 1; i <= APP_CALLS_PER_WINDOW + 5 && !refusal; i++)
      refusal = await host.tools.apps.call(caller, SERVER, 'show_shop', { item: `n${i}` }).then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refusal).toMatchObject({ code: 'APP_CALL_RATE_LIMITED' });
    expect(host.audit.query({ tool: 'mcp_shop_show_shop' }).length).toBe(APP_CALLS_PER_WINDOW);
  });
});

/** Where serve's views run in these tests: framed by the renderer at 127.0.0.1:4000, served from the views' port 4001. */
const at = (host: string, views = 'http://localhost:4001') => ({ framers: [host], hostOrigins: [host, views] });

describe('the view CSP', () => {
  it("is the spec's default for a view in its sandbox, widened only by plain declared origins", () => {
    const { policy, dropped } = viewCsp(
      {
        connectDomains: ['*', 'http:', "'unsafe-eval'", 'https://api.example.com', 'https://x.example.com; script-src *'],
        resourceDomains: ['*', 'data:', 'https://cdn.example.com'],
        frameDomains: ['*'],
      },
      at('http://127.0.0.1:4000'),
    );
    expect(policy).toContain('connect-src https://api.example.com;');
    // Its own origin, inline script and eval (it runs any script it carries anyway, at a site of its own), and what it declared.
    expect(policy).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob: data: https://cdn.example.com;");
    expect(policy).toContain("worker-src 'self' blob: https://cdn.example.com;");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("base-uri 'self'");
    expect(policy).toContain("frame-ancestors 'self' http://127.0.0.1:4000;");
    expect(policy).toContain('sandbox allow-scripts allow-same-origin allow-forms');
    expect(policy).not.toMatch(/\s\*(\s|;|$)|http:(\s|;)/);
    expect(policy.match(/'unsafe-eval'/g)).toHaveLength(1);
    expect(dropped).toHaveLength(7);
    expect(viewCsp(undefined, at('http://h')).policy).toContain("connect-src 'none'");
  });

  it("never lists the host's own origin, in any loopback spelling or scheme, in any list", () => {
    // Every way a view may name chatos serve at 127.0.0.1:4000; the other port and the remote host stay.
    const self = [
      'http://127.0.0.1:4000',
      'http://localhost:4000',
      'HTTP://LOCALHOST:4000/',
      'ws://127.0.0.1:4000',
      'ws://localhost:4000',
      'https://localhost:4000',
      'wss://127.0.0.1:4000',
      'https://*.localhost:4000',
    ];
    const declared = [...self, 'http://localhost:5173', 'https://api.example.com'];
    const lists = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];
    const { policy, dropped } = viewCsp(Object.fromEntries(lists.map((list) => [list, declared])), at('http://localhost:4000'));
    for (const directive of ['connect-src', 'script-src', 'style-src', 'img-src', 'font-src', 'media-src', 'frame-src', 'base-uri']) {
      const sources = new RegExp(`${directive} ([^;]*)`).exec(policy)![1]!;
      expect(sources, directive).toContain('http://localhost:5173');
      expect(sources, directive).toContain('https://api.example.com');
      expect(sources, directive).not.toContain(':4000');
    }
    expect(policy).toContain("frame-ancestors 'self' http://localhost:4000;");
    expect(dropped).toHaveLength(self.length * lists.length);
    expect(dropped.every((entry) => entry.endsWith('(this host)'))).toBe(true);

    // Behind a name: the host's origin, and a wildcard that covers it, are left out; the desktop's chatos://app reaches no web origin.
    const named = viewCsp(
      { connectDomains: ['https://app.example.com', 'wss://app.example.com', 'https://*.example.com', 'https://api.other.com'] },
      at('https://app.example.com', 'https://app.example.com'),
    );
    expect(named.policy).toContain('connect-src https://api.other.com;');
    const desktop = { framers: ['chatos://app'], hostOrigins: ['chatos://app'] };
    expect(viewCsp({ connectDomains: ['http://localhost:4000'] }, desktop).policy).toContain('connect-src http://localhost:4000;');
  });

  it("never lists the views' own server: any loopback spelling or site name with its port", () => {
    const declared = ['http://localhost:4001', 'http://127.0.0.1:4001', 'ws://localhost:4001', 'https://*.localhost:4001', 'https://0123abcd.localhost:4001', 'http://localhost:4002'];
    const { policy, dropped } = viewCsp({ connectDomains: declared, frameDomains: declared }, at('http://127.0.0.1:4000'));
    expect(policy).toContain('connect-src http://localhost:4002;');
    expect(policy).toContain('frame-src http://localhost:4002;');
    expect(dropped.filter((entry) => entry.endsWith('(this host)'))).toHaveLength(10);
  });
});

describe('the view guard', () => {
  it('is the first script of the page, the error reporter next, after a doctype so the page keeps its mode', () => {
    // The guard, then the script that tells the view's proxy of an error the view left uncaught (viewErrors.ts).
    const guardOf = (html: string) => /^(<script>\(\(\) => \{[\s\S]*?\}\)\(\);<\/script>){2}/.exec(guardedViewHtml(html))![0];
    const guard = guardOf('<p>x</p>');
    expect(guard).toMatch(/^<script>\(\(\) => \{\n {2}for \(const name of \['RTCPeerConnection'/);
    expect(guard).toContain("'ui/notifications/sandbox-view-error'");
    expect(guardedViewHtml('<p>x</p><script>run()</script>')).toBe(`${guard}<p>x</p><script>run()</script>`);
    expect(guardedViewHtml('<!DOCTYPE html>\n<html><script>run()</script>')).toBe(`<!DOCTYPE html>${guard}\n<html><script>run()</script>`);
    expect(guardedViewHtml('\uFEFF \n<!doctype html PUBLIC "a>b"><p>x</p>')).toBe(`\uFEFF \n<!doctype html PUBLIC "a>${guard}b"><p>x</p>`);
    // HTML ends `<!-->` at once: the script after it would run before a guard put after the doctype, so the guard goes first.
    const early = '<!--> <script>run()</script> <!-- --> <!doctype html>';
    expect(guardedViewHtml(early)).toBe(`${guard}${early}`);
  });
});
