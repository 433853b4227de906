import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../../src/core/mcp/gateway/toolGateway.js';
import { caller, fixtureServer, isAlive, startTestHost, textOf, trustPlugin, writeGatewayPlugin, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { repoRoot } from '../../../helpers/tempDir.js';

const PLUGIN = 'com.example.gw';
const SERVER = `${PLUGIN}::${PLUGIN}.main`;
const ECHO = 'mcp_com_example_gw_main_echo';
const COUNT = 'mcp_com_example_gw_main_count';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, and it succeeded');
}

describe('gateway access checks (real stdio servers)', () => {
  it('another app may call a plugin server only while granted; the grant is checked at call time, not cached', async () => {
    // The bundled defaults register "aide", a provider app grants can be given to.
    const { host } = await startTestHost(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, PLUGIN, [{ appId: 'main', allowMain: true }]), { defaultsDir: path.join(repoRoot, 'defaults') });
    trustPlugin(host, PLUGIN);
    const aide = caller('conv-a', { appId: 'aide' });

    const refused = await rejection(host.gateway.callTool(aide, ECHO, { text: 'hi' }));
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe('NOT_GRANTED');
    expect(refused.message).toContain(`chatos grant aide ${SERVER}`);
    expect(host.gateway.visibleServers(aide).map((s) => s.id)).not.toContain(SERVER);
    // Refused before anything started.
    expect(host.mcp.connections.snapshot().find((s) => s.serverId === SERVER)).toBeUndefined();

    host.registry.grantMcpServerAccess('aide', SERVER);
    expect(host.gateway.visibleServers(aide).map((s) => s.id)).toContain(SERVER);
    expect(textOf((await host.gateway.callTool(aide, ECHO, { text: 'granted' })).result)).toBe('granted');

    // The server now runs and its tools are cached: revoking must still stop the next call.
    host.registry.revokeMcpServerAccess('aide', SERVER);
    const again = await rejection(host.gateway.callTool(aide, ECHO, { text: 'after revoke' }));
    expect((again as GatewayError).code).toBe('NOT_GRANTED');
    // The refused call never reached the server: the owner, on the same lease, sees one call ran.
    expect(textOf((await host.gateway.callTool(caller('conv-a'), COUNT, {})).result)).toBe('1');
  });

  it('a server with allowMain false is refused in the main flow (WRONG_FLOW) and runs in a sub flow', async () => {
    // A plugin app's allowMain defaults to false (docs/rules/names-and-exposure.md#flags).
    const { host } = await startTestHost(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, PLUGIN, [{ appId: 'main' }]));
    trustPlugin(host, PLUGIN);

    const refused = await rejection(host.gateway.callTool(caller('conv-f', { flow: 'main' }), ECHO, { text: 'x' }));
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe('WRONG_FLOW');
    expect(refused.message).toContain('allowMain');
    const mainTools = await host.gateway.listTools(caller('conv-f', { flow: 'main' }));
    expect(mainTools.tools.map((t) => t.name)).not.toContain(ECHO);

    const sub = caller('conv-f', { flow: 'sub' });
    expect(textOf((await host.gateway.callTool(sub, ECHO, { text: 'in sub' })).result)).toBe('in sub');
    expect((await host.gateway.listTools(sub)).tools.map((t) => t.name)).toContain(ECHO);
  });

  it('an unknown tool is UNKNOWN_TOOL with the closest offered names', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const refused = await rejection(host.gateway.callTool(caller(), 'mcp_echo_ecoh', { text: 'x' }));
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe('UNKNOWN_TOOL');
    expect(refused.message).toContain('"mcp_echo_echo"');

    const stranger = await rejection(host.gateway.callTool(caller(), 'no_such_tool', {}));
    expect((stranger as GatewayError).code).toBe('UNKNOWN_TOOL');
  });

  it('an untrusted plugin: the call fails telling how to trust it, and its server never starts', async () => {
    const { host } = await startTestHost(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, PLUGIN, [{ appId: 'main', allowMain: true }]));
    const who = caller('conv-u');

    const refused = await rejection(host.gateway.callTool(who, ECHO, { text: 'x' }));
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe('NOT_RUNNABLE');
    expect(refused.message).toContain('not trusted');
    expect(refused.message).toContain(`chatos trust ${PLUGIN}`);

    const listed = await host.gateway.listTools(who);
    expect(listed.tools.map((t) => t.name)).not.toContain(ECHO);
    expect(listed.problems.find((p) => p.file === SERVER)).toMatchObject({
      code: 'PLUGIN_UNTRUSTED',
      message: expect.stringContaining('its tools are not offered'),
      hint: expect.stringContaining(`chatos trust ${PLUGIN}`),
    });

    // No process was spawned: no lease, no pid, nothing in the server's log.
    expect(host.mcp.connections.snapshot().filter((s) => s.serverId === SERVER)).toEqual([]);
    expect(host.mcp.connections.anyRunning(SERVER)).toBeUndefined();
    expect(
      host.mcp.connections
        .logOf(SERVER)
        .entries()
        .filter((e) => e.text.startsWith('started pid')),
    ).toEqual([]);
  });

  it('untrusting a plugin stops its running server from serving calls', async () => {
    const { host } = await startTestHost(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, PLUGIN, [{ appId: 'main', allowMain: true }]));
    trustPlugin(host, PLUGIN);
    const who = caller('conv-1');
    const pid = Number(textOf((await host.gateway.callTool(who, 'mcp_com_example_gw_main_pid', {})).result));

    expect(host.trust.untrust(PLUGIN)).toBe(true);
    const refused = await rejection(host.gateway.callTool(who, ECHO, { text: 'after untrust' }));
    expect((refused as GatewayError).code).toBe('NOT_RUNNABLE');
    expect(refused.message).toContain(`chatos trust ${PLUGIN}`);
    // The conversation's lease was ended with it.
    expect(host.mcp.connections.snapshot().filter((s) => s.serverId === SERVER)).toEqual([]);
    expect(isAlive(pid)).toBe(false);
  });

  it('trust is pinned to the content: after a trusted plugin changes, its server neither serves nor starts until trusted again', async () => {
    let dir = '';
    const { host } = await startTestHost(({ pluginRoot }) => (dir = writeGatewayPlugin(pluginRoot, PLUGIN, [{ appId: 'main', allowMain: true }])));
    trustPlugin(host, PLUGIN);
    expect(textOf((await host.gateway.callTool(caller('conv-1'), ECHO, { text: 'trusted' })).result)).toBe('trusted');

    fs.appendFileSync(path.join(dir, 'main', 'server.mjs'), '// edited after trust\n');
    host.rescan();
    await host.reloadMcp();
    // The running server of conv-1 serves no more calls...
    const running = await rejection(host.gateway.callTool(caller('conv-1'), ECHO, { text: 'x' }));
    expect(running.message).toContain('changed since you trusted it');
    // ...and a new conversation's server process must not start.
    const refused = await rejection(host.gateway.callTool(caller('conv-2'), ECHO, { text: 'x' }));
    expect((refused as GatewayError).code).toBe('NOT_RUNNABLE');
    expect(refused.message).toContain('changed since you trusted it');
    expect(refused.message).toContain(`chatos trust ${PLUGIN}`);
    expect(
      host.mcp.connections
        .snapshot()
        .flatMap((s) => s.leases)
        .map((l) => l.conversationId),
    ).not.toContain('conv-2');

    trustPlugin(host, PLUGIN);
    expect(textOf((await host.gateway.callTool(caller('conv-2'), ECHO, { text: 'trusted again' })).result)).toBe('trusted again');
  });
});
