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

describe('a plugin may not claim a provider app id that is owned (issue 13 item 6)', () => {
  it('refuses aide (bundled defaults), wsl (own DB), chatos (reserved) and an id claimed first by another plugin, naming the owner; aide sees none of it', async () => {
    const { home, extra, cli } = await world();
    writeProviderPlugin(extra, 'a-aide', 'aide');
    writeProviderPlugin(extra, 'b-wsl', 'wsl');
    writeProviderPlugin(extra, 'c-host', 'chatos');
    writeProviderPlugin(extra, 'd-first', 'acme_suite', ['one', 'two']);
    writeProviderPlugin(extra, 'e-second', 'acme_suite');
    writeProviderPlugin(extra, 'aide', undefined); // its own id is aide's
    const listed = (await cli('apps', '--json')).json();
    const pluginAt = (folder: string) => listed.plugins.find((p: { dir: string }) => p.dir === path.join(extra, folder));

    expect(claimOf(pluginAt('a-aide'))).toMatchObject({
      severity: 'error',
      path: 'providerAppId',
      message: `providerAppId "aide" belongs to the app "aide" (its bundled defaults in ${path.join(repoRoot, 'defaults', 'providers', 'aide')}); its servers and prompts would join that app's own, so this plugin is not loaded`,
      hint: 'remove "providerAppId" (the plugin id is used), or use an id of your own',
    });
    expect(claimOf(pluginAt('b-wsl')).message).toContain(`belongs to the app "wsl" (its own database ${path.join(home, 'wsl', 'admin.db')})`);
    expect(claimOf(pluginAt('c-host')).message).toContain('belongs to the host itself (a reserved id)');
    expect(claimOf(pluginAt('e-second')).message).toContain(`belongs to plugin "d-first" (${path.join(extra, 'd-first', 'plugin.json')} (extra)), which claimed it first`);
    expect(claimOf(pluginAt('aide'))).toMatchObject({ path: 'id', hint: 'give the plugin an id of its own' });
    for (const folder of ['a-aide', 'b-wsl', 'c-host', 'e-second', 'aide']) expect(pluginAt(folder).status).toBe('invalid');

    // The first claim, with two apps under one provider id, works.
    expect(pluginAt('d-first')).toMatchObject({ status: 'loaded', problems: [] });
    const registry = (await cli('registry', '--json')).json();
    const servers = registry.servers.map((s: { id: string }) => s.id);
    expect(servers).toEqual(expect.arrayContaining(['acme_suite::d-first.one', 'acme_suite::d-first.two']));
    // Nothing joined another app's registrations.
    expect(servers.filter((id: string) => /a-aide|b-wsl|c-host|e-second|^aide::aide\./.test(id))).toEqual([]);
    const aideSees = (await cli('registry', '--for', 'aide', '--json')).json();
    expect(aideSees.servers.map((s: { id: string }) => s.id).sort()).toEqual(['aide::memory', 'aide::project_files']);
    expect(aideSees.prompts.map((p: { id: string }) => p.id).every((id: string) => !id.includes('a_aide'))).toBe(true);

    // Even its own provider app does not see an untrusted plugin's servers (nothing of it reaches anyone until trusted).
    const asSuite = (await cli('tools', '--app', 'acme_suite', '--json')).json();
    expect(asSuite.tools.filter((t: { serverId: string }) => t.serverId.startsWith('acme_suite::'))).toEqual([]);
    expect(asSuite.problems.map((p: { code: string; file: string }) => `${p.code} ${p.file}`)).toEqual(expect.arrayContaining(['PLUGIN_UNTRUSTED acme_suite::d-first.one']));

    const validated = await cli('validate', path.join(extra, 'a-aide'));
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain('PROVIDER_APP_ID_CLAIMED');
    // Every command above only looks: none of them wrote the host's admin DB.
    expect(fs.existsSync(path.join(home, 'chatos', 'admin.db'))).toBe(false);
  });
});

describe('a provider id that becomes owned later', () => {
  it('takes back what a plugin had registered under it: its rows are not kept as for a plugin that is only mid-edit, but marked missing with the claim as the reason', async () => {
    const { home, extra, cli } = await world();
    writeProviderPlugin(extra, 'f-late', 'late_app');
    // A writing command saves the registration (and a grant on it), so there is something to take back.
    expect((await cli('grant', 'aide', 'late_app::f-late.main')).code).toBe(0);
    // late_app is installed: it has a DB of its own now.
    const store = await RecordsStore.open(path.join(home, 'late_app', 'admin.db'));
    store.put(HostMcpServers, 'x', { id: 'x', name: 'real', url: 'cmd://late-app-mcp', env: {}, tags: [], allowMain: true, allowSub: true, enabled: true });
    await store.close();
    const servers: { id: string; missing?: { reason: string } }[] = (await cli('registry', 'servers', '--json')).json().servers;
    expect(servers.map((s) => s.id)).toContain('late_app::real');
    // Never deleted as a side effect (cross-process): kept with its grant, offered to no one, until pruned.
    expect(servers.find((s) => s.id === 'late_app::f-late.main')?.missing?.reason).toContain('providerAppId "late_app" belongs to the app "late_app"');
    const aideSees = (await cli('registry', '--for', 'aide', '--json')).json();
    expect(aideSees.servers.map((s: { id: string }) => s.id)).not.toContain('late_app::f-late.main');
    expect(aideSees.grants.servers.map((g: { targetId: string }) => g.targetId)).toContain('late_app::f-late.main');
    expect((await cli('registry', 'prune')).stdout).toContain('server late_app::f-late.main: plugin f-late (app main): providerAppId "late_app" belongs to the app "late_app"');
  });
});
