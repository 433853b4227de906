import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestHost, writeMcpYaml } from '../helpers/gatewayHost.js';
import { runCli, type CliRun } from '../helpers/runCli.js';

/**
 * `chatos mcp log-level SERVER LEVEL` (docs/reference/cli.md): the level a
 * server logs from, kept in its settings where the MCP servers page reads
 * it; a bad level or server is refused with the fix.
 */

const SERVER = path.join(import.meta.dirname, '..', 'fixtures', 'servers', 'loggingServer.mjs');

describe('chatos mcp log-level', () => {
  it('keeps the level for the server (the host reads it), goes back to the default, and refuses what is not a level or a server', async () => {
    const results: CliRun[] = [];
    const { host } = await startTestHost(async ({ home }) => {
      writeMcpYaml(home, { talk: { transport: 'stdio', command: process.execPath, args: [SERVER] } });
      results.push(await runCli(['mcp', 'log-level', 'chatos::talk', 'warning', '--home', home, '--json']));
      results.push(await runCli(['mcp', 'log-level', 'chatos::talk', 'loud', '--home', home]));
      results.push(await runCli(['mcp', 'log-level', 'chatos::nobody', 'info', '--home', home]));
    });
    const [set, badLevel, badServer] = results;
    expect(set!.code, set!.stderr).toBe(0);
    expect(set!.json()).toEqual({ serverId: 'chatos::talk', logLevel: 'warning' });
    expect(badLevel!.code).toBe(2);
    expect(badLevel!.stderr).toContain('must be one of debug, info');
    expect(badServer!.code).toBe(1);
    expect(badServer!.stderr).toContain('no server "chatos::nobody"');
    expect(host.mcp.servers.list().find((server) => server.id === 'chatos::talk')?.logLevel).toBe('warning');
  });

  it('"default" takes the level away', async () => {
    const results: CliRun[] = [];
    const { host } = await startTestHost(async ({ home }) => {
      writeMcpYaml(home, { talk: { transport: 'stdio', command: process.execPath, args: [SERVER] } });
      results.push(await runCli(['mcp', 'log-level', 'chatos::talk', 'error', '--home', home]));
      results.push(await runCli(['mcp', 'log-level', 'chatos::talk', 'default', '--home', home]));
    });
    expect(results.map((result) => result.code)).toEqual([0, 0]);
    expect(results[0]!.stdout).toContain('chatos::talk logs from error');
    expect(host.mcp.servers.list().find((server) => server.id === 'chatos::talk')?.logLevel).toBeUndefined();
  });
});
