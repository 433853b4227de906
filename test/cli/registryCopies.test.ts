import { describe, expect, it } from 'vitest';
import { writeProviderPlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/** `chatos registry copies [on|off]`: the data home's syncAiContributes switch, as a user runs it (docs/rules/names-and-exposure.md#where-the-contribution-lives). */
describe('chatos registry copies', { timeout: 300_000 }, () => {
  it('shows the switch off, switches it on for the next command, lists each copy with its plugin, and refuses a word that is not a switch', async () => {
    const home = tempDir();
    const extra = tempDir();
    writeProviderPlugin(extra, 'com.example.git', 'vcs_app', ['status']);
    const cli = (...args: string[]) => runCli([...args, '--home', home, '--plugins', extra]);

    const before = await cli('registry', 'copies', '--json');
    expect(before.code, before.stderr).toBe(0);
    expect(before.json()).toEqual({ syncAiContributes: false, servers: [], prompts: [] });

    const on = await cli('registry', 'copies', 'on');
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toContain('syncAiContributes: on');
    expect(on.stdout).toMatch(/com\.example\.git\.status {2}cmd:\/\/\S+ .*\[copy of com\.example\.git \/ status\]/);

    // The next command (another process) reads the switch from the data home.
    const listed = (await cli('registry', 'copies', '--json')).json();
    expect(listed.syncAiContributes).toBe(true);
    expect(listed.prompts.filter((p: { pluginId: string }) => p.pluginId === 'com.example.git').map((p: { name: string }) => p.name)).toEqual([
      'mcp_com_example_git_status',
      'mcp_com_example_git_status__en',
    ]);

    const bad = await cli('registry', 'copies', 'yes');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"yes" is not a switch; use "on" or "off"');

    const off = await cli('registry', 'copies', 'off', '--json');
    expect(off.code, off.stderr).toBe(0);
    expect(off.json()).toEqual({ syncAiContributes: false, servers: [], prompts: [] });
  });
});
