import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
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

const problemsOf = (run: ReturnType<typeof runCli>) => run.json().problems as { code: string; severity: string; path: string; message: string; hint: string }[];

describe('chatos validate: a command the server would not find', () => {
  it('warns when the command is on no folder of the PATH the server would get, naming that PATH', () => {
    const bin = tempDir();
    fs.writeFileSync(path.join(bin, 'my-mcp-runner'), '#!/bin/sh\n');
    fs.chmodSync(path.join(bin, 'my-mcp-runner'), 0o755);
    const dir = commandPlugin(tempDir(), 'my-mcp-runner');
    const home = tempDir();

    const missing = runCli(['validate', dir, '--json', '--home', home], { env: { PATH: '/nonexistent/bin' } });
    expect(missing.code, missing.stderr).toBe(0); // a warning: the program may be installed before the plugin runs
    const warning = problemsOf(missing).find((p) => p.code === 'COMMAND_NOT_FOUND')!;
    expect(warning).toMatchObject({ severity: 'warning', path: 'apps[0].ai.mcp.command' });
    expect(warning.message).toContain(`command "my-mcp-runner" of app "main" is not found on the host's PATH, which servers inherit (/nonexistent/bin)`);
    expect(warning.hint).toContain('install my-mcp-runner, or give its full path');
    expect(missing.stderr).toContain('COMMAND_NOT_FOUND');

    const found = runCli(['validate', dir, '--json', '--home', home], { env: { PATH: `/nonexistent/bin:${bin}` } });
    expect(problemsOf(found).filter((p) => p.code === 'COMMAND_NOT_FOUND')).toEqual([]);
  }, 60_000);

  it('looks on the PATH the plugin sets for its server, and checks an absolute command as a file', () => {
    const bin = tempDir();
    fs.writeFileSync(path.join(bin, 'my-mcp-runner'), '#!/bin/sh\n');
    fs.chmodSync(path.join(bin, 'my-mcp-runner'), 0o755);
    const home = tempDir();

    const ownPath = runCli(['validate', commandPlugin(tempDir(), 'my-mcp-runner', { PATH: bin }), '--json', '--home', home], { env: { PATH: '/nonexistent/bin' } });
    expect(problemsOf(ownPath).filter((p) => p.code === 'COMMAND_NOT_FOUND')).toEqual([]);

    const ownWrongPath = runCli(['validate', commandPlugin(tempDir(), 'my-mcp-runner', { PATH: '/also/missing' }), '--json', '--home', home], { env: { PATH: bin } });
    expect(problemsOf(ownWrongPath).find((p) => p.code === 'COMMAND_NOT_FOUND')!.message).toContain('the PATH the plugin sets in ai.mcp.env (/also/missing)');

    const absent = path.join(bin, 'not-there');
    const absolute = runCli(['validate', commandPlugin(tempDir(), absent), '--json', '--home', home]);
    expect(problemsOf(absolute).find((p) => p.code === 'COMMAND_NOT_FOUND')!.message).toContain(`command ${absent} is not an executable file`);
    const real = runCli(['validate', commandPlugin(tempDir(), path.join(bin, 'my-mcp-runner')), '--json', '--home', home]);
    expect(problemsOf(real).filter((p) => p.code === 'COMMAND_NOT_FOUND')).toEqual([]);
  }, 60_000);
});
