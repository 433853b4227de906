import { describe, expect, it } from 'vitest';
import { internalsOf } from '../../../../src/core/modules/hostInternals.js';
import type { ServerLogEntry } from '../../../../src/core/process/serverLog.js';
import { EVERYTHING_SERVER, caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { startHttpEverything } from '../../../helpers/everythingHttp.js';

/** What server-everything's simulated logging says (its other messages, such as roots received, are not it). */
const LEVEL_MESSAGE = /-level message|level-message/;

/** The reference server of the MCP project (devDependency), through the gateway over both transports. */

describe('@modelcontextprotocol/server-everything through the gateway', () => {
  it('over stdio: its tools are listed and its echo tool answers', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }));
    const listed = await host.tools.list(caller('conv-e'));
    const names = listed.tools.map((t) => t.name);
    expect(names).toContain('mcp_everything_echo');
    expect(names).toContain('mcp_everything_get-sum');
    expect(listed.tools.find((t) => t.name === 'mcp_everything_echo')).toMatchObject({ serverId: 'chatos::everything', rawName: 'echo', permission: 'read' });

    const { result } = await host.tools.call(caller('conv-e'), 'mcp_everything_echo', { message: 'hello over stdio' });
    expect(textOf(result)).toBe('Echo: hello over stdio');
  });

  it('over streamable HTTP: configured by url, its echo tool answers', async () => {
    const port = await startHttpEverything();
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'streamable_http', url: `http://127.0.0.1:${port}/mcp` } }));
    const listed = await host.tools.list(caller('conv-h'));
    expect(listed.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(listed.tools.map((t) => t.name)).toContain('mcp_everything_echo');

    const { result } = await host.tools.call(caller('conv-h'), 'mcp_everything_echo', { message: 'hello over http' });
    expect(textOf(result)).toBe('Echo: hello over http');
    // Each conversation has its own client (its own HTTP session); both work.
    const other = await host.tools.call(caller('conv-h2'), 'mcp_everything_echo', { message: 'second session' });
    expect(textOf(other.result)).toBe('Echo: second session');
    expect(
      host.mcp.servers
        .snapshots()
        .find((s) => s.serverId === 'chatos::everything')!
        .leases.map((l) => l.conversationId)
        .sort(),
    ).toEqual(['conv-h', 'conv-h2']);
  });

  it('over stdio: its instructions are kept for the model, and its log messages reach its log at the level set', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }));
    const id = 'chatos::everything';
    await host.tools.list(caller('conv-i'));
    const [instructions] = internalsOf(host).mcp.instructions([id]);
    expect(instructions?.text).toContain('Everything Server');

    expect(await host.mcp.servers.setLogLevel(id, 'debug')).toEqual({ applied: 1, notLogging: 0 });
    const log = internalsOf(host).mcp.runtime.connections.logOf(id);
    const first = new Promise<ServerLogEntry>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no log message from server-everything')), 30_000);
      const stop = log.onAppend((entry) => {
        // Its answer to the host's roots may be logged first (on a busy machine it comes after the level is set).
        if (entry.stream !== 'message' || !LEVEL_MESSAGE.test(entry.text)) return;
        clearTimeout(timer);
        stop();
        resolve(entry);
      });
    });
    // It sends one message at once, at a random level (all pass at debug), then one every 5 s.
    await host.tools.call(caller('conv-i'), 'mcp_everything_toggle-simulated-logging', {});
    const entry = await first;
    expect(entry.level).toMatch(/^(debug|info|notice|warning|error|critical|alert|emergency)$/);
    expect(entry.text).toMatch(LEVEL_MESSAGE);
  });
});
