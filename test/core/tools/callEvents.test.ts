import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../../src/core/host.js';
import { caller, fixtureServer, startTestHost, trustPlugin, writeGatewayPlugin, writeMcpYaml } from '../../helpers/gatewayHost.js';

/** The host announces every call that reached a plugin app's own server, so the app's open pages can re-read. */
describe('app tool calls as host events', () => {
  it("names the plugin, app and raw tool of each call that reached the app's server, ok or not; not a declined call, not an mcp.yaml server's", async () => {
    const { host } = await startTestHost(({ home, pluginRoot }) => {
      writeGatewayPlugin(pluginRoot, 'acme.tools', [{ appId: 'main', allowMain: true }]);
      writeMcpYaml(home, { echo: fixtureServer() });
    });
    trustPlugin(host, 'acme.tools');
    const events: HostEvent[] = [];
    host.events.on((event) => events.push(event));
    const who = caller('conv-events');

    await host.tools.call(who, 'mcp_acme_tools_main_echo', { text: 'hi' });
    // A tool error (the SDK refuses the arguments) reached the server all the same.
    await host.tools.call(who, 'mcp_acme_tools_main_echo', {});
    await host.tools.call(who, 'mcp_echo_echo', { text: 'not an app' });
    const declined = host.tools.call(who, 'mcp_acme_tools_main_dangerous', {});
    await expect.poll(() => host.tools.confirmations.listPending().length).toBe(1);
    host.tools.confirmations.respond(host.tools.confirmations.listPending()[0]!.id, false);
    expect((await declined).decision).toBe('declined');

    expect(events.filter((e) => e.kind === 'app-tool-called')).toEqual([
      { kind: 'app-tool-called', pluginId: 'acme.tools', appId: 'main', serverId: 'acme.tools::acme.tools.main', tool: 'echo', ok: true },
      { kind: 'app-tool-called', pluginId: 'acme.tools', appId: 'main', serverId: 'acme.tools::acme.tools.main', tool: 'echo', ok: false },
    ]);
  });

  it('a listener that throws does not fail the call', async () => {
    const { host } = await startTestHost(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, 'acme.tools', [{ appId: 'main', allowMain: true }]));
    trustPlugin(host, 'acme.tools');
    host.events.on(() => {
      throw new Error('a broken listener');
    });
    const { result } = await host.tools.call(caller('conv-throw'), 'mcp_acme_tools_main_echo', { text: 'still answered' });
    expect(result.isError).toBeFalsy();
  });
});
