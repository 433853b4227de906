import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePlugin } from '../helpers/plugins.js';
import { runCli, runCliProcess, type CliRun } from '../helpers/runCli.js';
import { sdkServerSource } from '../helpers/sdkServer.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * Issue 14, "Validate what breaks at run time": what `chatos validate` can
 * tell before anything runs, so a plugin that validates `ok` does not then
 * fail silently.
 */

function commandPlugin(root: string, command: string, env: Record<string, string> = {}): string {
  return writePlugin(
    root,
    'cmd',
    { manifestVersion: 1, id: 'com.example.cmd', name: 'Cmd', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.py', command, env } } }] },
    { 'index.mjs': 'export function mount() {}\n', 'server.py': '# server\n' },
  );
}

const problemsOf = (run: CliRun) => run.json().problems as { code: string; severity: string; path: string; message: string; hint: string }[];

describe('chatos validate: a command the server would not find', () => {
  it('warns when the command is on no folder of the PATH the server would get, naming that PATH', () => {
    const bin = tempDir();
    fs.writeFileSync(path.join(bin, 'my-mcp-runner'), '#!/bin/sh\n');
    fs.chmodSync(path.join(bin, 'my-mcp-runner'), 0o755);
    const dir = commandPlugin(tempDir(), 'my-mcp-runner');
    const home = tempDir();

    const missing = runCliProcess(['validate', dir, '--json', '--home', home], { env: { PATH: '/nonexistent/bin' } });
    expect(missing.code, missing.stderr).toBe(0); // a warning: the program may be installed before the plugin runs
    const warning = problemsOf(missing).find((p) => p.code === 'COMMAND_NOT_FOUND')!;
    expect(warning).toMatchObject({ severity: 'warning', path: 'apps[0].ai.mcp.command' });
    expect(warning.message).toContain(`command "my-mcp-runner" of app "main" is not found on the host's PATH, which servers inherit (/nonexistent/bin)`);
    expect(warning.hint).toContain('install my-mcp-runner, or give its full path');
    expect(missing.stderr).toContain('COMMAND_NOT_FOUND');

    const found = runCliProcess(['validate', dir, '--json', '--home', home], { env: { PATH: `/nonexistent/bin:${bin}` } });
    expect(problemsOf(found).filter((p) => p.code === 'COMMAND_NOT_FOUND')).toEqual([]);
  }, 300_000);

  it('looks on the PATH the plugin sets for its server, and checks an absolute command as a file', async () => {
    const bin = tempDir();
    fs.writeFileSync(path.join(bin, 'my-mcp-runner'), '#!/bin/sh\n');
    fs.chmodSync(path.join(bin, 'my-mcp-runner'), 0o755);
    const home = tempDir();

    const ownPath = runCliProcess(['validate', commandPlugin(tempDir(), 'my-mcp-runner', { PATH: bin }), '--json', '--home', home], { env: { PATH: '/nonexistent/bin' } });
    expect(problemsOf(ownPath).filter((p) => p.code === 'COMMAND_NOT_FOUND')).toEqual([]);

    const ownWrongPath = runCliProcess(['validate', commandPlugin(tempDir(), 'my-mcp-runner', { PATH: '/also/missing' }), '--json', '--home', home], { env: { PATH: bin } });
    expect(problemsOf(ownWrongPath).find((p) => p.code === 'COMMAND_NOT_FOUND')!.message).toContain('the PATH the plugin sets in ai.mcp.env (/also/missing)');

    const absent = path.join(bin, 'not-there');
    const absolute = await runCli(['validate', commandPlugin(tempDir(), absent), '--json', '--home', home]);
    expect(problemsOf(absolute).find((p) => p.code === 'COMMAND_NOT_FOUND')!.message).toContain(`command ${absent} is not an executable file`);
    const real = await runCli(['validate', commandPlugin(tempDir(), path.join(bin, 'my-mcp-runner')), '--json', '--home', home]);
    expect(problemsOf(real).filter((p) => p.code === 'COMMAND_NOT_FOUND')).toEqual([]);
  }, 300_000);
});

/** A real stdio MCP server offering `tools` (each answers its own name). */
const serverSource = (tools: string[]) =>
  sdkServerSource('long-ids', `for (const name of ${JSON.stringify(tools)}) server.registerTool(name, { description: name }, async () => ({ content: [{ type: 'text', text: name }] }));`);

function longIdPlugin(root: string, pluginId: string): string {
  return writePlugin(
    root,
    pluginId,
    { manifestVersion: 1, id: pluginId, name: 'Long', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true } } }] },
    { 'index.mjs': 'export function mount() {}\n', 'server.mjs': serverSource(['get', 'list_items']) },
  );
}

describe('chatos validate: tool names the prefix leaves no room for', () => {
  // mcp_ + 52 characters + _ : 57 of the 64, so 7 remain: "get" fits, "list_items" does not.
  const tight = 'com.example.very-long-organisation-name.toolbox';
  // mcp_ + 68 characters + _ : nothing fits.
  const full = 'com.example.a-really-quite-unreasonably-long-organisation.tools';

  it('warns when few characters remain after mcp_<plugin>_<app>_, and refuses a plugin whose prefix leaves none, naming the fix', async () => {
    const root = tempDir();
    const home = tempDir();
    const warned = await runCli(['validate', longIdPlugin(root, tight), '--json', '--home', home]);
    expect(warned.code, warned.stderr).toBe(0);
    const warning = problemsOf(warned).find((p) => p.code === 'TOOL_PREFIX_LONG')!;
    expect(warning).toMatchObject({ severity: 'warning', path: 'apps[0].id' });
    expect(warning.message).toContain('only 7 characters remain for the tool names of app "main"');
    expect(warning.hint).toContain(`shorten the plugin id "${tight}" or the app id "main"`);

    const refused = await runCli(['validate', longIdPlugin(root, full), '--json', '--home', home]);
    expect(refused.code).toBe(1);
    const error = problemsOf(refused).find((p) => p.code === 'TOOL_PREFIX_TOO_LONG')!;
    expect(error).toMatchObject({ severity: 'error', path: 'apps[0].id' });
    expect(error.message).toContain('app "main" would offer no tool');
  }, 300_000);

  it('when the running server drops a tool for the length of its name, the problem names the app and how to fix its ids', async () => {
    const root = tempDir();
    const home = tempDir();
    longIdPlugin(root, tight);
    expect((await runCli(['trust', tight, '--home', home, '--plugins', root])).code).toBe(0);
    const run = await runCli(['tools', '--app', 'chatos', '--json', '--home', home, '--plugins', root], { timeoutMs: 60_000 });
    const listed = run.json();
    const prefix = 'mcp_com_example_very-long-organisation-name_toolbox_main_';
    expect(listed.tools.map((t: { name: string }) => t.name)).toContain(`${prefix}get`);
    expect(listed.tools.map((t: { name: string }) => t.name)).not.toContain(`${prefix}list_items`);
    const dropped = (listed.problems as { code: string; message: string; hint: string }[]).find((p) => p.code === 'TOOL_NAME_INVALID')!;
    expect(dropped.message).toContain(`tool "list_items" of server "${tight}.main" (${tight}::${tight}.main) (app "main" of plugin "${tight}") is not offered`);
    expect(dropped.hint).toContain(`shorten the plugin id "${tight}" or the app id "main"`);
  }, 300_000);
});
