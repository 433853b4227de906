import { describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { startHttpEverything } from '../../../helpers/everythingHttp.js';

/** The reference server of the MCP project (devDependency), through the gateway over both transports. */

describe('@modelcontextprotocol/server-everything through the gateway', () => {
  it('over stdio: its tools are listed and its echo tool answers', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }));
    const listed = await host.gateway.listTools(caller('conv-e'));
    const names = listed.tools.map((t) => t.name);
    expect(names).toContain('mcp_everything_echo');
    expect(names).toContain('mcp_everything_get-sum');
    expect(listed.tools.find((t) => t.name === 'mcp_everything_echo')).toMatchObject({ serverId: 'chatos::everything', rawName: 'echo', permission: 'read' });

    const { result } = await host.gateway.callTool(caller('conv-e'), 'mcp_everything_echo', { message: 'hello over stdio' });
    expect(textOf(result)).toBe('Echo: hello over stdio');
  });

  it('over streamable HTTP: configured by url, its echo tool answers', async () => {
    const port = await startHttpEverything();
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'streamable_http', url: `http://127.0.0.1:${port}/mcp` } }));
    const listed = await host.gateway.listTools(caller('conv-h'));
    expect(listed.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(listed.tools.map((t) => t.name)).toContain('mcp_everything_echo');

    const { result } = await host.gateway.callTool(caller('conv-h'), 'mcp_everything_echo', { message: 'hello over http' });
    expect(textOf(result)).toBe('Echo: hello over http');
    // Each conversation has its own client (its own HTTP session); both work.
    const other = await host.gateway.callTool(caller('conv-h2'), 'mcp_everything_echo', { message: 'second session' });
    expect(textOf(other.result)).toBe('Echo: second session');
    expect(
      host.mcp.connections
        .snapshot()
        .find((s) => s.serverId === 'chatos::everything')!
        .leases.map((l) => l.conversationId)
        .sort(),
    ).toEqual(['conv-h', 'conv-h2']);
  });
});
