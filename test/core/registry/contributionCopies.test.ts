import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/core/host.js';
import { writeProviderPlugin } from '../../helpers/plugins.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/**
 * `syncAiContributes` as a setting of the data home
 * (docs/rules/names-and-exposure.md#where-the-contribution-lives): switched
 * in one process, read by the next; copies listed with their plugin, and
 * switching them never touches what agents use (registrations, grants).
 */

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
});

async function startHost(home: string, extra: string): Promise<Host> {
  const host = createHost({ home, appRoot: repoRoot, extraPluginRoots: [extra] });
  hosts.push(host);
  await host.start();
  return host;
}

const gitCopies = (host: Host) => {
  const copies = host.plugins.contributionCopies();
  return { on: copies.syncAiContributes, servers: copies.servers.filter((s) => s.pluginId === 'com.example.git'), prompts: copies.prompts.filter((p) => p.pluginId === 'com.example.git') };
};

describe('syncAiContributes, the setting', { timeout: 300_000 }, () => {
  it('is off on a fresh data home; on, every process lists the copies with their plugin; off removes them; grants and registrations stay', async () => {
    const home = tempDir();
    const extra = tempDir();
    writeProviderPlugin(extra, 'com.example.git', 'vcs_app');
    const first = await startHost(home, extra);
    expect(gitCopies(first)).toEqual({ on: false, servers: [], prompts: [] });
    first.registry.grantMcpServerAccess('aide', 'vcs_app::com.example.git.main');

    const on = first.plugins.setSyncAiContributes(true);
    expect(on.syncAiContributes).toBe(true);
    expect(gitCopies(first)).toEqual({
      on: true,
      servers: [{ name: 'com.example.git.main', pluginId: 'com.example.git', appId: 'main', url: expect.stringMatching(/^cmd:\/\/.*server\.mjs/) }],
      prompts: [
        { name: 'mcp_com_example_git_main', pluginId: 'com.example.git', appId: 'main', lang: 'zh' },
        { name: 'mcp_com_example_git_main__en', pluginId: 'com.example.git', appId: 'main', lang: 'en' },
      ],
    });
    // Copies are not the host's own prompts (not editable there) nor registered a second time under chatos.
    expect(first.registry.prompts.list().map((p) => p.name)).toEqual([]);
    expect(first.registry.listServers().filter((s) => s.providerAppId === 'chatos' && s.name.startsWith('com.example.git'))).toEqual([]);
    await first.dispose();

    // Another process of the data home (a CLI command, the window) reads the same switch, with no host option.
    const second = await startHost(home, extra);
    expect(gitCopies(second).on).toBe(true);
    expect(gitCopies(second).servers).toHaveLength(1);
    second.plugins.setSyncAiContributes(false);
    expect(gitCopies(second)).toEqual({ on: false, servers: [], prompts: [] });
    // What agents use is untouched either way.
    expect(second.registry.getServer('vcs_app::com.example.git.main')).toBeDefined();
    expect(second.registry.listGrants('server', 'aide').map((g) => g.targetId)).toEqual(['vcs_app::com.example.git.main']);
    await second.dispose();

    const third = await startHost(home, extra);
    expect(gitCopies(third)).toEqual({ on: false, servers: [], prompts: [] });
  });
});
