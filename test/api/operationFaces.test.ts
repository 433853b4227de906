import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import type { HostEventMessage } from '../../src/shared/hostApi.js';
import { caller, startTestHost, textOf, trustPlugin, waitUntil, writeGatewayPlugin } from '../helpers/gatewayHost.js';

/**
 * Issue 15: a flow the faces used to compose each their own way now runs
 * as one core operation, so every face gets all of it.
 */

const urls = {
  uiAppUrl: (pluginId: string, appId: string, surface: string) => `/ui/test/${pluginId}/${appId}/__shell?surface=${surface}`,
  artifactUrl: (file: string) => `/artifacts-test${file}`,
};

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('rescan as one operation', () => {
  it("an edit found by the watcher's poll reaches the open pages of the edited plugin: they are told to reload", async () => {
    const t = await startTestHost(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, 'acme.polled', [{ appId: 'main', allowMain: true }]));
    const api = createHostApiService(t.host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
    stops.push(() => api.dispose());
    const events: HostEventMessage[] = [];
    api.onEvent((event) => events.push(event));
    // A debounce longer than the poll: the poll finds the edit before the debounced rescan runs, whoever noticed it first.
    stops.push(t.host.watch({ debounceMs: 400, pollMs: 50 }));
    const dir = t.host.catalog.plugins.find((p) => p.id === 'acme.polled')!.dir;
    fs.appendFileSync(path.join(dir, 'main', 'index.mjs'), '// edited\n');
    await waitUntil(() => events.some((e) => e.type === 'uiApp.changed' && e.pluginId === 'acme.polled'), "the edited plugin's pages told to reload", 20_000);
    expect(events).toContainEqual(expect.objectContaining({ type: 'plugins.changed', reread: [dir] }));
  });

  it('the settings tool rescan_apps reloads the servers: a plugin dropped in is callable right after', async () => {
    const t = await startTestHost();
    writeGatewayPlugin(t.pluginRoot, 'acme.late', [{ appId: 'main', allowMain: true }]);
    const { result } = await t.host.gateway.callTool(caller(), 'mcp_settings_rescan_apps', {});
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('Rescanned');
    const app = t.host.catalog.apps.find((a) => a.pluginId === 'acme.late')!;
    expect(t.host.mcp.definition(`${app.providerAppId}::${app.serverName}`)).toBeDefined();
    trustPlugin(t.host, 'acme.late');
    const listed = await t.host.gateway.listTools(caller());
    expect(listed.tools.map((tool) => tool.serverId)).toContain(`${app.providerAppId}::${app.serverName}`);
  });
});
