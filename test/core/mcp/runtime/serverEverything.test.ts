import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, caller, freePort, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';

/** The reference server of the MCP project (devDependency), through the gateway over both transports. */

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
});

/**
 * Starts server-everything over streamable HTTP on a free port of 127.0.0.1.
 * It reads its port from $PORT and says "listening on port N" on stderr once
 * bound; a port taken between choosing and binding makes it exit, so retry.
 */
async function startHttpEverything(): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING_SERVER, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let stderr = '';
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 20_000);
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes(`listening on port ${port}`)) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (ready) return port;
    if (attempt >= 3) throw new Error(`server-everything did not start over HTTP:\n${stderr}`);
  }
}

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
    expect(host.mcp.connections.snapshot().find((s) => s.serverId === 'chatos::everything')!.leases.map((l) => l.conversationId).sort()).toEqual(['conv-h', 'conv-h2']);
  });
});
