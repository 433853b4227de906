import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/core/host.js';
import { HostMcpServers, HostPrompts, RegistryMcpServers } from '../../../src/core/registry/registryTables.js';
import { RecordsStore } from '../../../src/core/store/recordsStore.js';
import { writeProviderPlugin } from '../../helpers/plugins.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

const hosts: Host[] = [];
let now = Date.parse('2026-03-01T00:00:00Z');

async function startHost(extra: string, home = tempDir(), syncAiContributes = false) {
  const host = createHost({ home, appRoot: repoRoot, extraPluginRoots: [extra], clock: { now: () => now }, syncAiContributes });
  hosts.push(host);
  await host.start();
  return host;
}

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
});

// The built-in settings server is registered under chatos too; these tests are about the other sources.
const serverIds = (host: Host, provider: string) =>
  host.registry
    .listServers()
    .filter((s) => s.providerAppId === provider && s.source.kind !== 'builtin')
    .map((s) => s.id)
    .sort();

describe('registry sync with plugins', () => {
  it('registers each app under its providerAppId, defaulting to the plugin id', async () => {
    const extra = tempDir();
    writeProviderPlugin(extra, 'com.example.git', 'vcs_app', ['status', 'log']);
    writeProviderPlugin(extra, 'com.example.solo', undefined);
    const host = await startHost(extra);
    expect(serverIds(host, 'vcs_app')).toEqual(['vcs_app::com.example.git.log', 'vcs_app::com.example.git.status']);
    expect(serverIds(host, 'com.example.solo')).toEqual(['com.example.solo::com.example.solo.main']);
    const prompt = host.registry.getPrompt('vcs_app::mcp_com_example_git_log__en')!;
    expect(prompt).toMatchObject({ lang: 'en', content: 'log prompt', source: { kind: 'plugin', pluginId: 'com.example.git', appId: 'log' } });
    expect(host.registry.listApps().find((a) => a.appId === 'vcs_app')?.origins).toEqual(['plugin:com.example.git']);
  });

  it('a rescan that changes nothing rewrites no row', async () => {
    const extra = tempDir();
    writeProviderPlugin(extra, 'com.example.git', 'vcs_app');
    const home = tempDir();
    const host = await startHost(extra, home);
    await host.dispose();
    const read = async () => {
      const store = await RecordsStore.open(path.join(home, 'chatos', 'admin.db'), { readOnly: true });
      const rows = store.list(RegistryMcpServers).map((r) => `${r.id}@${r.updatedAt}`);
      await store.close();
      return rows;
    };
    const before = await read();
    now += 3_600_000;
    const again = await startHost(extra, home);
    again.plugins.rescan();
    again.plugins.rescan();
    await again.dispose();
    expect(await read()).toEqual(before);
  });

  it('a vanished plugin is marked missing with its grants kept, reported; a broken one keeps its registration', async () => {
    const extra = tempDir();
    const gitDir = writeProviderPlugin(extra, 'com.example.git', 'vcs_app');
    const wslDir = writeProviderPlugin(extra, 'com.example.wsl', 'vm_app');
    const host = await startHost(extra);
    host.registry.grantMcpServerAccess('aide', 'vcs_app::com.example.git.main');
    host.registry.grantMcpServerAccess('aide', 'vm_app::com.example.wsl.main');

    fs.writeFileSync(path.join(wslDir, 'plugin.json'), '{ "id": "com.example.wsl", '); // mid-edit: invalid
    fs.rmSync(gitDir, { recursive: true });
    host.plugins.rescan();

    expect(serverIds(host, 'vcs_app')).toEqual(['vcs_app::com.example.git.main']);
    expect(host.registry.getServer('vcs_app::com.example.git.main')?.missing?.reason).toBe(`plugin com.example.git (app main) is no longer in ${extra}`);
    expect(host.registry.getMcpServersForApp('vcs_app')).toEqual([]);
    expect(
      host.registry
        .listGrants('server', 'aide')
        .map((g) => g.targetId)
        .sort(),
    ).toEqual(['vcs_app::com.example.git.main', 'vm_app::com.example.wsl.main']);
    const problem = host.registry.problems.find((p) => p.code === 'REGISTRATION_MISSING' && p.message.includes('vcs_app::com.example.git.main'));
    expect(problem?.message).toContain('its 1 grant is kept');
    expect(problem?.hint).toContain('chatos registry prune');
    expect(serverIds(host, 'vm_app')).toEqual(['vm_app::com.example.wsl.main']);
    expect(host.registry.getServer('vm_app::com.example.wsl.main')?.missing).toBeUndefined();
  });

  it('a host that did not scan a root leaves its registrations as they are', async () => {
    const extra = tempDir();
    writeProviderPlugin(extra, 'com.example.git', 'vcs_app');
    const home = tempDir();
    const first = await startHost(extra, home);
    first.registry.grantMcpServerAccess('aide', 'vcs_app::com.example.git.main');
    await first.dispose();
    const other = tempDir();
    const second = await startHost(other, home);
    second.plugins.rescan();
    expect(second.registry.getServer('vcs_app::com.example.git.main')).toMatchObject({ source: { kind: 'plugin', pluginDir: path.join(extra, 'com.example.git') } });
    expect(second.registry.getServer('vcs_app::com.example.git.main')?.missing).toBeUndefined();
    expect(second.registry.hasMcpServerAccess('aide', 'vcs_app::com.example.git.main')).toBe(true);
    expect(second.registry.listApps().find((a) => a.appId === 'vcs_app')?.origins).toEqual(['plugin:com.example.git']);
  });

  it('with syncAiContributes, plugin servers and prompts also land in the host tables, and leave with the plugin', async () => {
    const extra = tempDir();
    const dir = writeProviderPlugin(extra, 'com.example.git', 'vcs_app');
    const home = tempDir();
    const host = await startHost(extra, home, true);
    host.plugins.rescan();
    await host.dispose();
    let store = await RecordsStore.open(path.join(home, 'chatos', 'admin.db'), { readOnly: true });
    // The built-in Canvas, Git, Notes and WSL apps are plugins too.
    expect(store.list(HostMcpServers).map((r) => r.id)).toEqual(['chatos.canvas.canvas', 'chatos.git.git', 'chatos.notes.notes', 'chatos.wsl.wsl', 'com.example.git.main']);
    expect(
      store
        .list(HostPrompts)
        .map((r) => r.id)
        .filter((id) => id.includes('example_git'))
        .sort(),
    ).toEqual(['mcp_com_example_git_main', 'mcp_com_example_git_main__en']);
    await store.close();
    // Host copies are not registered a second time under chatos.
    const again = await startHost(extra, home, true);
    expect(serverIds(again, 'chatos')).toEqual([]);
    fs.rmSync(dir, { recursive: true });
    again.plugins.rescan();
    await again.dispose();
    store = await RecordsStore.open(path.join(home, 'chatos', 'admin.db'), { readOnly: true });
    expect(store.list(HostMcpServers).map((r) => r.id)).toEqual(['chatos.canvas.canvas', 'chatos.git.git', 'chatos.notes.notes', 'chatos.wsl.wsl']);
    await store.close();
  });

  it("registers the host's own servers under chatos", async () => {
    const home = tempDir();
    const store = await RecordsStore.open(path.join(home, 'chatos', 'admin.db'));
    store.put(HostMcpServers, 'mine', { id: 'mine', name: 'everything', url: 'cmd://node /x.js', env: {}, tags: [], allowMain: true, allowSub: true, enabled: true });
    await store.close();
    const host = await startHost(tempDir(), home);
    expect(serverIds(host, 'chatos')).toEqual(['chatos::everything']);
    expect(host.registry.getMcpServersForApp('aide').map((s) => s.id)).not.toContain('chatos::everything');
  });
});
