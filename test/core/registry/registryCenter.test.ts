import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryCenter } from '../../../src/core/registry/registryCenter.js';
import { RegistryError } from '../../../src/core/registry/registryError.js';
import { McpServerGrants, RegistryMcpServers } from '../../../src/core/registry/registryTables.js';
import { RecordsStore } from '../../../src/core/store/recordsStore.js';
import type { RegistryMcpServer } from '../../../src/shared/registry.js';
import { tempDir } from '../../helpers/tempDir.js';

let now = Date.parse('2026-01-11T00:00:00Z');
const clock = { now: () => now };
const stores: RecordsStore[] = [];

async function openRegistry(file = path.join(tempDir(), 'admin.db')) {
  const store = await RecordsStore.open(file, { clock });
  stores.push(store);
  const registry = new RegistryCenter(store, clock);
  for (const app of ['aide', 'git_app', 'wsl']) registry.registerApp(app, 'test');
  return { store, registry, file };
}

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const server = (name: string) => ({ name, url: `cmd://node /srv/${name}.js` });

describe('RegistryCenter (docs/rules/registry.md)', () => {
  it('uses registry ids <provider>::<name> and never grants on registration', async () => {
    const { registry, store } = await openRegistry();
    const row = registry.registerMcpServer('git_app', server('git'));
    expect(row.id).toBe('git_app::git');
    expect(registry.registerPrompt('git_app', { name: 'mcp_git', content: 'use git' }).id).toBe('git_app::mcp_git');
    expect(store.count(McpServerGrants)).toBe(0);
    expect(registry.listGrants('server')).toEqual([]);
    expect(registry.listGrants('prompt')).toEqual([]);
  });

  it('isolates apps: the owner sees everything, others their own plus grants', async () => {
    const { registry } = await openRegistry();
    registry.registerMcpServer('aide', server('project_files'));
    registry.registerMcpServer('git_app', server('git'));
    registry.registerMcpServer('wsl', server('wsl'));
    registry.registerPrompt('git_app', { name: 'mcp_git', content: 'use git' });

    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    expect(ids(registry.getMcpServersForApp('chatos'))).toEqual(['aide::project_files', 'git_app::git', 'wsl::wsl']);
    expect(ids(registry.getMcpServersForApp('aide'))).toEqual(['aide::project_files']);
    expect(registry.hasMcpServerAccess('aide', 'git_app::git')).toBe(false);
    expect(registry.hasMcpServerAccess('aide', 'aide::project_files')).toBe(true);
    expect(registry.hasMcpServerAccess('chatos', 'wsl::wsl')).toBe(true);
    expect(registry.getPromptsForApp('aide')).toEqual([]);

    expect(registry.grantMcpServerAccess('aide', 'git_app::git')).toBe('created');
    expect(registry.grantMcpServerAccess('aide', 'git_app::git')).toBe('unchanged');
    expect(ids(registry.getMcpServersForApp('aide'))).toEqual(['aide::project_files', 'git_app::git']);
    expect(registry.hasMcpServerAccess('aide', 'git_app::git')).toBe(true);
    expect(registry.hasMcpServerAccess('aide', 'wsl::wsl')).toBe(false);
    expect(registry.listGrants('server', 'aide')).toEqual([{ appId: 'aide', targetId: 'git_app::git', grantedAt: new Date(now).toISOString() }]);

    expect(registry.revokeMcpServerAccess('aide', 'git_app::git')).toBe(true);
    expect(registry.revokeMcpServerAccess('aide', 'git_app::git')).toBe(false);
    expect(registry.hasMcpServerAccess('aide', 'git_app::git')).toBe(false);

    registry.grantPromptAccess('wsl', 'git_app::mcp_git');
    expect(ids(registry.getPromptsForApp('wsl'))).toEqual(['git_app::mcp_git']);
    expect(registry.hasPromptAccess('aide', 'git_app::mcp_git')).toBe(false);
  });

  it('refuses grants to unknown apps and of unknown ids, suggesting close matches', async () => {
    const { registry } = await openRegistry();
    registry.registerMcpServer('git_app', server('git'));
    expect(() => registry.grantMcpServerAccess('aid', 'git_app::git')).toThrowError(/no app "aid".*did you mean "aide"/);
    expect(() => registry.grantMcpServerAccess('aide', 'git_app::gti')).toThrowError(/did you mean "git_app::git"/);
    try {
      registry.kindOf('git_app::gt');
    } catch (error) {
      expect(error).toBeInstanceOf(RegistryError);
      expect((error as RegistryError).code).toBe('UNKNOWN_ID');
      expect((error as RegistryError).suggestions).toEqual(['git_app::git']);
    }
    expect(() => registry.grantMcpServerAccess('chatos', 'git_app::git')).toThrowError(/registry owner/);
  });

  it('reconcile rewrites no unchanged row, marks a row it no longer wants missing (grants kept, not offered), and only removeRegistrations revokes', async () => {
    const { registry, store } = await openRegistry();
    const desired = (names: string[]): RegistryMcpServer[] =>
      names.map((name) => ({
        ...server(name),
        env: {},
        tags: [],
        allowMain: true,
        allowSub: true,
        enabled: true,
        id: `git_app::${name}`,
        providerAppId: 'git_app',
        source: { kind: 'plugin', pluginId: 'p', appId: name, pluginDir: '/p' },
      }));
    const owns = (s: { kind: string }) => s.kind === 'plugin';
    const options = { missingReason: () => 'gone from /p' };
    expect(registry.reconcile(owns, { servers: desired(['a', 'b']), prompts: [] }, options).created).toEqual(['git_app::a', 'git_app::b']);
    registry.registerApp('aide', 'defaults');
    registry.grantMcpServerAccess('aide', 'git_app::b');
    const before = store.get(RegistryMcpServers, 'git_app::a')!;
    now += 60_000;
    const again = registry.reconcile(owns, { servers: desired(['a', 'b']), prompts: [] }, options);
    expect(again).toEqual({ created: [], updated: [], missing: [], held: [] });
    expect(store.get(RegistryMcpServers, 'git_app::a')!.updatedAt).toBe(before.updatedAt);

    const shrunk = registry.reconcile(owns, { servers: desired(['a']), prompts: [] }, options);
    expect(shrunk.missing).toEqual(['git_app::b']);
    expect(registry.getServer('git_app::b')?.missing).toEqual({ since: new Date(now).toISOString(), reason: 'gone from /p' });
    expect(registry.listGrants('server').map((g) => g.targetId)).toEqual(['git_app::b']);
    expect(registry.hasMcpServerAccess('aide', 'git_app::b')).toBe(false);
    expect(registry.getMcpServersForApp('aide').map((s) => s.id)).not.toContain('git_app::b');
    expect(registry.getMcpServersForApp('chatos').map((s) => s.id)).not.toContain('git_app::b');
    // Marked once: a later sync that still misses it writes nothing.
    expect(registry.reconcile(owns, { servers: desired(['a']), prompts: [] }, options)).toEqual({ created: [], updated: [], missing: [], held: [] });

    // Back: the mark goes, and the kept grant counts again.
    registry.reconcile(owns, { servers: desired(['a', 'b']), prompts: [] }, options);
    expect(registry.getServer('git_app::b')?.missing).toBeUndefined();
    expect(registry.hasMcpServerAccess('aide', 'git_app::b')).toBe(true);

    expect(registry.removeRegistrations((row) => row.id === 'git_app::b')).toEqual([
      { kind: 'server', id: 'git_app::b', revokedGrants: [expect.objectContaining({ appId: 'aide', targetId: 'git_app::b' })] },
    ]);
    expect(registry.listGrants('server')).toEqual([]);
  });

  it('sees a grant made by another process without reopening', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const first = await openRegistry(file);
    first.registry.registerMcpServer('git_app', server('git'));
    await first.store.flush();
    const second = await openRegistry(file);
    second.registry.grantMcpServerAccess('aide', 'git_app::git');
    await second.store.flush();
    expect(first.registry.hasMcpServerAccess('aide', 'git_app::git')).toBe(true);
  });
});
