import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostMcpServers } from '../../src/core/registry/registryTables.js';
import { RecordsStore } from '../../src/core/store/recordsStore.js';
import { writeProviderPlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/** A data home with the shipped defaults (aide) and a provider app with its own DB (wsl), and an extra plugin root. */
async function world() {
  const home = tempDir();
  const extra = tempDir('chatos-extra-');
  const store = await RecordsStore.open(path.join(home, 'wsl', 'admin.db'));
  store.put(HostMcpServers, 'd1', { id: 'd1', name: 'distros', url: 'cmd://wsl-mcp', env: {}, tags: [], allowMain: true, allowSub: true, enabled: true });
  await store.close();
  const cli = (...args: string[]) => runCli([...args, '--home', home, '--plugins', extra]);
  return { home, extra, cli };
}

const claimOf = (plugin: { problems: { code: string }[] }) => plugin.problems.find((p) => p.code === 'PROVIDER_APP_ID_CLAIMED');

describe('provider app ids: many plugins may join one app, the host id is reserved (issue 42)', () => {
  it('loads plugins that join aide (bundled defaults), wsl (own DB) and one another; refuses chatos, naming why and the fix; the CLI only looks', async () => {
    const { home, extra, cli } = await world();
    writeProviderPlugin(extra, 'a-aide', 'aide');
    writeProviderPlugin(extra, 'b-wsl', 'wsl');
    writeProviderPlugin(extra, 'c-host', 'chatos');
    writeProviderPlugin(extra, 'd-first', 'acme_suite', ['one', 'two']);
    writeProviderPlugin(extra, 'e-second', 'acme_suite');
    const listed = (await cli('apps', '--json')).json();
    const pluginAt = (folder: string) => listed.plugins.find((p: { dir: string }) => p.dir === path.join(extra, folder));

    expect(claimOf(pluginAt('c-host'))).toMatchObject({
      severity: 'error',
      path: 'providerAppId',
      message: 'providerAppId "chatos" is the host itself (a reserved id), which owns the registry and is no app a plugin can join, so this plugin is not loaded',
      hint: 'remove "providerAppId" (the plugin id is used), or name the app the plugin belongs to',
    });
    expect(pluginAt('c-host').status).toBe('invalid');
    for (const folder of ['a-aide', 'b-wsl', 'd-first', 'e-second']) expect(pluginAt(folder), folder).toMatchObject({ status: 'loaded', problems: [] });

    const servers = (await cli('registry', '--json')).json().servers.map((s: { id: string }) => s.id);
    expect(servers).toEqual(expect.arrayContaining(['aide::a-aide.main', 'wsl::b-wsl.main', 'wsl::distros', 'acme_suite::d-first.one', 'acme_suite::d-first.two', 'acme_suite::e-second.main']));
    expect(servers.filter((id: string) => id.includes('c-host'))).toEqual([]);

    // Registered, but untrusted: nothing of it reaches even the app it joined.
    const asAide = (await cli('tools', '--app', 'aide', '--json')).json();
    expect(asAide.tools.filter((t: { serverId: string }) => t.serverId === 'aide::a-aide.main')).toEqual([]);
    expect(asAide.problems.map((p: { code: string; file: string }) => `${p.code} ${p.file}`)).toEqual(expect.arrayContaining(['PLUGIN_UNTRUSTED aide::a-aide.main']));

    const validated = await cli('validate', path.join(extra, 'c-host'));
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain('PROVIDER_APP_ID_CLAIMED');
    expect((await cli('validate', path.join(extra, 'b-wsl'))).code).toBe(0);
    // Every command above only looks: none of them wrote the host's admin DB.
    expect(fs.existsSync(path.join(home, 'chatos', 'admin.db'))).toBe(false);
  });
});

describe('a provider app that gets its own DB later', () => {
  it("keeps what a plugin registered under it, with its grant: the app's own rows join beside it", async () => {
    const { home, extra, cli } = await world();
    writeProviderPlugin(extra, 'f-late', 'late_app');
    expect((await cli('grant', 'aide', 'late_app::f-late.main')).code).toBe(0);
    const store = await RecordsStore.open(path.join(home, 'late_app', 'admin.db'));
    store.put(HostMcpServers, 'x', { id: 'x', name: 'real', url: 'cmd://late-app-mcp', env: {}, tags: [], allowMain: true, allowSub: true, enabled: true });
    await store.close();
    const servers: { id: string; missing?: unknown }[] = (await cli('registry', 'servers', '--json')).json().servers;
    expect(servers.find((s) => s.id === 'late_app::real')).toBeDefined();
    expect(servers.find((s) => s.id === 'late_app::f-late.main')?.missing).toBeUndefined();
    const aideSees = (await cli('registry', '--for', 'aide', '--json')).json();
    expect(aideSees.servers.map((s: { id: string }) => s.id)).toContain('late_app::f-late.main');
    expect(aideSees.servers.map((s: { id: string }) => s.id)).not.toContain('late_app::real');
  });
});
