import { describe, expect, it } from 'vitest';
import { McpRuntimeError } from '../../../../src/core/mcp/mcpRuntimeError.js';
import { caller, fixtureServer, isAlive, pidOf, startTestHost, textOf, waitUntil, writeMcpYaml } from '../../../helpers/gatewayHost.js';

describe('a server that crashes mid-call (real stdio server)', () => {
  it('fails the call at once, naming the server and its last stderr line; the next call restarts it', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const who = caller('conv-crash');
    const pid = pidOf((await host.tools.call(who, 'mcp_echo_pid', {})).result);
    const otherPid = pidOf((await host.tools.call(caller('conv-bystander'), 'mcp_echo_pid', {})).result);

    let error: unknown;
    try {
      await host.tools.call(who, 'mcp_echo_crash', {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(McpRuntimeError);
    // A crash must not wait for the 60 s timeout: the call would then fail with CALL_TIMEOUT, not as crashed.
    expect((error as McpRuntimeError).code).toBe('SERVER_CRASHED');
    expect((error as McpRuntimeError).serverId).toBe('chatos::echo');
    expect((error as Error).message).toContain('"chatos::echo"');
    expect((error as Error).message).toContain('goodbye');
    expect((error as Error).message).toContain('exit code 3');
    await waitUntil(() => !isAlive(pid), `crashed pid ${pid} to be gone`);

    const lease = host.mcp.servers.snapshots()[0]!.leases.find((l) => l.conversationId === 'conv-crash')!;
    expect(lease.state.kind).toBe('error');

    const restarted = await host.tools.call(who, 'mcp_echo_pid', {});
    const newPid = pidOf(restarted.result);
    expect(newPid).not.toBe(pid);
    expect(isAlive(newPid)).toBe(true);
    expect(textOf((await host.tools.call(who, 'mcp_echo_echo', { text: 'back' })).result)).toBe('back');

    // Another conversation's server was not touched.
    expect(pidOf((await host.tools.call(caller('conv-bystander'), 'mcp_echo_pid', {})).result)).toBe(otherPid);
  });
});
