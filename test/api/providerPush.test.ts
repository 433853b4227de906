import { afterEach, describe, expect, it } from 'vitest';
import { createHostApiService, type HostApiService } from '../../src/api/hostApiService.js';
import type { Host } from '../../src/core/host.js';
import { caller, startTestHost, trustPlugin } from '../helpers/gatewayHost.js';
import { startHttpEverything } from '../helpers/everythingHttp.js';
import { writeProviderPlugin } from '../helpers/plugins.js';

/**
 * The push half (docs/rules/registry.md#the-push-api) of the registry interface, `registerMcpServer(providerAppId, serverConfig)`
 * and `registerPrompt(providerAppId, promptConfig)`, reached by a provider app's page through the
 * host API (the shell binds pluginId/appId to the frame): checked in the core like every registration.
 */

const PUSHER = 'com.example.pusher';
const urls = { uiAppUrl: () => '/ui/x', artifactUrl: (file: string) => file, appView: () => ({ url: '', origin: '' }), viewPlace: () => ({ framedBy: [], hostOrigins: [] }) };

const apis: HostApiService[] = [];
afterEach(() => {
  for (const api of apis.splice(0)) api.dispose();
});

async function world() {
  const t = await startTestHost(({ pluginRoot }) => {
    writeProviderPlugin(pluginRoot, PUSHER, 'acme_app');
    writeProviderPlugin(pluginRoot, 'com.example.other', 'other_app');
    writeProviderPlugin(pluginRoot, 'com.example.stranger', 'acme_app');
  });
  trustPlugin(t.host, PUSHER);
  trustPlugin(t.host, 'com.example.other');
  const api = createHostApiService(t.host, { face: 'serve', urls: urls as never, version: '0.0.0', locale: 'en-US' });
  apis.push(api);
  return { ...t, api };
}

async function push(api: HostApiService, method: 'uiApps.registerMcpServer' | 'uiApps.registerPrompt', params: Record<string, unknown>) {
  return api.handle({ method, params: { pluginId: PUSHER, appId: 'main', ...params } });
}

const pushedIds = (host: Host) => [...host.registry.listServers(), ...host.registry.listPrompts()].filter((r) => r.source.kind === 'plugin' && r.source.pushed).map((r) => r.id);

describe('a provider app pushes into the registry through the host API (issue 42 item 2)', () => {
  it('registers a server and a prompt under its own app id, with derived names, granting nothing; the server is real and kept across rescans', async () => {
    const { host, api } = await world();
    const port = await startHttpEverything();
    const server = await push(api, 'uiApps.registerMcpServer', { providerAppId: 'acme_app', server: { name: 'live', url: `http://127.0.0.1:${port}/mcp`, allowMain: true } });
    expect(server).toEqual({ ok: true, result: { id: `acme_app::${PUSHER}.main.live` } });
    const prompt = await push(api, 'uiApps.registerPrompt', { providerAppId: 'acme_app', prompt: { name: 'greet', content: 'Say hello.', lang: 'en' } });
    expect(prompt).toEqual({ ok: true, result: { id: `acme_app::${PUSHER}.main.greet` } });

    expect(host.registry.getServer(`acme_app::${PUSHER}.main.live`)?.source).toMatchObject({ kind: 'plugin', pluginId: PUSHER, appId: 'main', pushed: true });
    expect(host.registry.listGrants('server')).toEqual([]);
    expect(host.registry.listGrants('prompt')).toEqual([]);
    // Another app sees none of it until the user grants it.
    expect(host.registry.getMcpServersForApp('other_app').map((s) => s.id)).not.toContain(`acme_app::${PUSHER}.main.live`);
    // Its own plugin's page sees it; another plugin that joined acme_app does not own it.
    const pusherApp = host.plugins.catalog.apps.find((a) => a.pluginId === PUSHER)!;
    expect(host.plugins.pageRegistry(pusherApp).servers.map((s) => s.id)).toContain(`acme_app::${PUSHER}.main.live`);
    expect(host.registry.hasMcpServerAccess('acme_app', `acme_app::${PUSHER}.main.live`, 'com.example.stranger')).toBe(false);

    // A real server: the registry owner is offered its tools.
    const tools = await host.tools.list(caller('conv-push'));
    expect(tools.tools.filter((t) => t.serverId === `acme_app::${PUSHER}.main.live`).map((t) => t.name)).toContain('mcp_com_example_pusher_main_live_echo');

    host.plugins.rescan();
    expect(host.registry.getServer(`acme_app::${PUSHER}.main.live`)?.missing).toBeUndefined();
  });

  it("refuses another app's id, hostile names, a program, and a page whose plugin may not run, naming the field and the fix; nothing is written", async () => {
    const { host, api } = await world();
    const before = host.registry.listServers().map((s) => s.id);
    const refused = async (method: 'uiApps.registerMcpServer' | 'uiApps.registerPrompt', params: Record<string, unknown>) => {
      const reply = await push(api, method, params);
      expect(reply.ok, JSON.stringify(reply)).toBe(false);
      return (reply as { error: { code: string; message: string; hint?: string } }).error;
    };

    expect(await refused('uiApps.registerMcpServer', { providerAppId: 'other_app', server: { name: 'x', url: 'http://127.0.0.1:1/mcp' } })).toMatchObject({
      message: `providerAppId "other_app": app ${PUSHER}/main belongs to provider app "acme_app" and may register only under it`,
      hint: 'pass "acme_app" as providerAppId',
    });
    expect(await refused('uiApps.registerPrompt', { providerAppId: 'chatos', prompt: { name: 'x', content: 'y' } })).toMatchObject({ hint: 'pass "acme_app" as providerAppId' });
    for (const name of ['__proto__', 'constructor::x', '../../etc', 'Big Name', 'x'.repeat(41), '']) {
      const error = await refused('uiApps.registerMcpServer', { providerAppId: 'acme_app', server: { name, url: 'http://127.0.0.1:1/mcp' } });
      expect(error.message, name).toMatch(/^serverConfig\.name: must be 1-40 lowercase letters/);
      expect(error.hint).toBe('fix serverConfig.name and register again');
    }
    expect((await refused('uiApps.registerPrompt', { providerAppId: 'acme_app', prompt: { name: '__proto__', content: 'y' } })).message).toMatch(/^promptConfig\.name:/);
    const program = await refused('uiApps.registerMcpServer', { providerAppId: 'acme_app', server: { name: 'shell', url: 'cmd://sh -c evil' } });
    expect(program.message).toContain('serverConfig.url');
    expect(program.hint).toContain('plugin.json ("ai.mcp"), where trust pins its command');
    // A key the contract does not know (an env, a grant) is refused, not ignored.
    expect((await refused('uiApps.registerMcpServer', { providerAppId: 'acme_app', server: { name: 'x', url: 'http://127.0.0.1:1/mcp', env: { A: 'b' } } })).message).toContain('serverConfig');
    // The untrusted plugin's page may push nothing at all.
    const stranger = await api.handle({
      method: 'uiApps.registerMcpServer',
      params: { pluginId: 'com.example.stranger', appId: 'main', providerAppId: 'acme_app', server: { name: 'x', url: 'http://127.0.0.1:1/mcp' } },
    });
    expect(stranger.ok).toBe(false);

    expect(host.registry.listServers().map((s) => s.id)).toEqual(before);
    expect(pushedIds(host)).toEqual([]);
  });
});
