import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../src/core/host.js';
import { connectStdio } from '../helpers/mcpClient.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * The built-in WSL app's server against a stand-in wsl.exe on PATH
 * (test/fixtures/wsl/wsl.exe, answering in UTF-16LE as the real one does),
 * with the Windows code path forced; and, as on this machine, off Windows,
 * where it offers no tools. What only the stand-in verified is listed in
 * docs/using/wsl.md#what-was-tested.
 */

const FIXTURES = path.join(repoRoot, 'test', 'fixtures', 'wsl');

function standInState(): string {
  const file = path.join(tempDir('chatos-wsl-'), 'state.json');
  const distributions = [
    { name: 'Ubuntu-22.04', state: 'Running', version: 2, default: true },
    { name: 'Debian', state: 'Stopped', version: 1 },
  ];
  fs.writeFileSync(file, JSON.stringify({ distributions }));
  return file;
}

async function wslServer(env: Record<string, string>) {
  const host = createHost({ home: tempDir(), appRoot: repoRoot });
  const wsl = host.plugins.catalog.getAiContribution('chatos.wsl', 'wsl')!;
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  return connectStdio(wsl.mcp!.command!, wsl.mcp!.args!, { ...inherited, ...env });
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('the built-in WSL app', () => {
  it('on Windows (forced) lists, runs, starts and stops through wsl.exe, decoding its UTF-16LE', async () => {
    const stateFile = standInState();
    const client = await wslServer({ PATH: `${FIXTURES}${path.delimiter}${process.env.PATH}`, CHATOS_WSL_PLATFORM: 'win32', WSL_STANDIN_STATE: stateFile });
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.map((t) => t.name).sort()).toEqual(['list_distributions', 'run_command', 'start_distribution', 'stop_distribution']);
      const listed = await client.callTool({ name: 'list_distributions', arguments: {} });
      expect(listed.structuredContent).toEqual({
        distributions: [
          { name: 'Ubuntu-22.04', state: 'Running', version: 2, default: true },
          { name: 'Debian', state: 'Stopped', version: 1, default: false },
        ],
      });

      // The command's parts reach the program as they are: no shell reads ";" or "$(…)".
      const ran = (await client.callTool({ name: 'run_command', arguments: { distribution: 'Debian', command: ['echo', 'a; rm -rf ~', '$(id)', 'héllo'] } })) as CallToolResult;
      expect(ran.isError, textOf(ran)).toBeFalsy();
      expect(ran.structuredContent).toMatchObject({ exitCode: 0, output: 'a; rm -rf ~ $(id) héllo\n' });
      const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
      expect(state.ran).toEqual([{ distribution: 'Debian', user: null, command: ['echo', 'a; rm -rf ~', '$(id)', 'héllo'] }]);
      expect(state.distributions[1].state).toBe('Running');

      // Output is cut at 256 KB and the run ended: `yes` would print forever.
      const endless = (await client.callTool({ name: 'run_command', arguments: { distribution: 'Debian', command: ['yes', 'y'] } })) as CallToolResult;
      expect(endless.structuredContent).toMatchObject({ truncated: true });
      expect((endless.structuredContent as { output: string }).output).toHaveLength(256 * 1024);

      const stopped = await client.callTool({ name: 'stop_distribution', arguments: { distribution: 'Debian' } });
      expect(stopped.structuredContent).toMatchObject({ name: 'Debian', state: 'Stopped' });
      const started = await client.callTool({ name: 'start_distribution', arguments: { distribution: 'Debian' } });
      expect(started.structuredContent).toMatchObject({ name: 'Debian', state: 'Running' });

      // Bad input: an unknown name, a name that is an option, a user with shell characters.
      expect(textOf((await client.callTool({ name: 'stop_distribution', arguments: { distribution: 'Arch' } })) as CallToolResult)).toBe(
        'there is no distribution "Arch"; installed: Ubuntu-22.04, Debian',
      );
      expect(textOf((await client.callTool({ name: 'start_distribution', arguments: { distribution: '--shutdown' } })) as CallToolResult)).toContain('must be a distribution name');
      expect(textOf((await client.callTool({ name: 'run_command', arguments: { distribution: 'Debian', command: ['id'], user: 'root;reboot' } })) as CallToolResult)).toContain(
        'must be a Linux user name',
      );
    } finally {
      await client.close();
    }
  });

  it('its permissions ask before running, starting or stopping', () => {
    const host = createHost({ home: tempDir(), appRoot: repoRoot });
    const wsl = host.plugins.catalog.getAiContribution('chatos.wsl', 'wsl')!;
    expect(wsl.mcp?.permissions).toEqual({ list_distributions: 'read', run_command: 'confirm', start_distribution: 'confirm', stop_distribution: 'confirm' });
  });

  it.skipIf(process.platform === 'win32')('off Windows the server starts with no tools and says why', async () => {
    const client = await wslServer({ PATH: `${FIXTURES}${path.delimiter}${process.env.PATH}`, WSL_STANDIN_STATE: standInState() });
    try {
      expect((await client.listTools()).tools).toEqual([]);
      expect(client.getInstructions()).toContain('WSL is available only on Windows');
    } finally {
      await client.close();
    }
  });
});
