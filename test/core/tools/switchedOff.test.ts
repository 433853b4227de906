import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/tools/toolGateway.js';
import { caller, fixtureServer, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

const SERVER = 'chatos::fx';
const ECHO = 'mcp_fx_echo';

describe('a server the user switched off (docs/rules/settings-server.md#the-management-ui)', () => {
  it('is refused with SERVER_DISABLED, never offered, and never started until switched on', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { fx: fixtureServer() }));
    internalsOf(host).mcp.settings.setServerEnabled(SERVER, false);
    const started = () => host.mcp.servers.snapshots().some((s) => s.serverId === SERVER && s.leases.length > 0);

    const refused = await host.tools.call(caller('conv-off'), ECHO, { text: 'x' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe('SERVER_DISABLED');
    expect((refused as GatewayError).message).toContain('switched off');
    expect(host.tools.visibleServers(caller('conv-off')).map((s) => s.id)).not.toContain(SERVER);
    expect((await host.tools.list(caller('conv-off'))).tools.map((t) => t.name)).not.toContain(ECHO);
    expect(started()).toBe(false);

    internalsOf(host).mcp.settings.setServerEnabled(SERVER, true);
    expect(textOf((await host.tools.call(caller('conv-off'), ECHO, { text: 'on again' })).result)).toBe('on again');
    expect(started()).toBe(true);
  });
});
