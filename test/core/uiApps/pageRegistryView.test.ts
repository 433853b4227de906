import { describe, expect, it } from 'vitest';
import { pageRegistryView } from '../../../src/core/uiApps/pageRegistryView.js';
import { startTestHost, trustPlugin } from '../../helpers/gatewayHost.js';
import { writeProviderPlugin } from '../../helpers/plugins.js';

/** `host.registry.list()` of a page: what its app may see, decided in the core. */
describe('pageRegistryView', () => {
  it('lists its own registrations and what was granted to it, never the rest of the registry, nor what may not run', async () => {
    const { host } = await startTestHost(({ pluginRoot }) => {
      writeProviderPlugin(pluginRoot, 'com.example.a', undefined);
      writeProviderPlugin(pluginRoot, 'com.example.b', undefined);
      writeProviderPlugin(pluginRoot, 'com.example.c', undefined);
      writeProviderPlugin(pluginRoot, 'com.example.d', undefined);
    });
    for (const id of ['com.example.a', 'com.example.b', 'com.example.c']) trustPlugin(host, id);
    host.registry.grantMcpServerAccess('com.example.a', 'com.example.b::com.example.b.main');
    // Granted, but its plugin is not trusted: offered to no one, so not listed either.
    host.registry.grantMcpServerAccess('com.example.a', 'com.example.d::com.example.d.main');
    const app = host.plugins.catalog.apps.find((a) => a.pluginId === 'com.example.a')!;
    const view = pageRegistryView({ registry: host.registry, runGate: host.plugins.runGate, apps: host.plugins.catalog.apps }, app);
    expect(view.appId).toBe('com.example.a');
    expect(view.servers.map((s) => s.id).sort()).toEqual(['com.example.a::com.example.a.main', 'com.example.b::com.example.b.main']);
    expect(view.prompts.map((p) => p.id).every((id) => id.startsWith('com.example.a::'))).toBe(true);
    expect(view.apps.map((a) => a.pluginId).sort()).toEqual(['com.example.a', 'com.example.b']);
    expect(JSON.stringify(view)).not.toContain('com.example.c');
    // No paths or command lines reach a page.
    expect(JSON.stringify(view)).not.toContain(app.pluginDir);
  });
});
