import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../../src/core/mcp/gateway/toolGateway.js';
import { caller, fixtureServer, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';

const SERVER = 'chatos::fx';
const ECHO = 'mcp_fx_echo';

describe('a server the user switched off (docs/rules/settings-server.md#the-management-ui)', () => {
  it('is refused with SERVER_DISABLED, never offered, and never started until switched on', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { fx: fixtureServer() }));
    host.serverSettings.setServerEnabled(SERVER, false);
    const started = () => host.mcp.connections.snapshot().some((s) => s.serverId === SERVER && s.leases.length > 0);

    const refused = await host.gateway.callTool(caller('conv-off'), ECHO, { text: 'x' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe('SERVER_DISABLED');
    expect((refused as GatewayError).message).toContain('switched off');
    expect(host.gateway.visibleServers(caller('conv-off')).map((s) => s.id)).not.toContain(SERVER);
    expect((await host.gateway.listTools(caller('conv-off'))).tools.map((t) => t.name)).not.toContain(ECHO);
    expect(started()).toBe(false);

    host.serverSettings.setServerEnabled(SERVER, true);
    expect(textOf((await host.gateway.callTool(caller('conv-off'), ECHO, { text: 'on again' })).result)).toBe('on again');
    expect(started()).toBe(true);
  });
});
