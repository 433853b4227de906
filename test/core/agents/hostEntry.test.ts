import { describe, expect, it } from 'vitest';
import { AgentError } from '../../../src/core/facades/errors.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';
import { HOST_UI_APP } from '../../../src/shared/agents.js';
import { fixtureServer, startTestHost, textOf, writeGatewayPlugin, writeMcpYaml } from '../../helpers/gatewayHost.js';

/**
 * The host's own entry (docs/rules/agents.md#your-own-servers): a server the
 * user added to mcp.yaml is picked for an agent directly, with no plugin that
 * exposes it, and goes through the same gateway (access, audit) as any other.
 */
async function world() {
  const t = await startTestHost(({ home, pluginRoot }) => {
    writeMcpYaml(home, { mine: fixtureServer() });
    writeGatewayPlugin(pluginRoot, 'com.example.tool', [{ appId: 'tool', allowMain: true }]);
  });
  return t;
}

const hostEntry = (mcpServerIds: string[]) => ({ ...HOST_UI_APP, mcp: true, mcpServerIds });

describe("the host's own entry in an agent", () => {
  it('offers the servers the user added, with no problem, and calls them through the gateway with its audit', async () => {
    const { host } = await world();
    const agent = host.agents.create({ id: 'helper', name: 'Helper', uiApps: [hostEntry(['chatos::mine', 'chatos::settings'])] });
    const resolved = host.agents.resolve(agent);
    expect(resolved.problems).toEqual([]);
    expect(resolved.serverIds).toEqual(['chatos::mine', 'chatos::settings']);

    const caller = resolved.callerFor('main', 'conv-own');
    const tools = (await host.tools.list(caller)).tools.map((t) => t.name);
    expect(tools).toContain('mcp_mine_echo');
    const { result } = await host.tools.call(caller, 'mcp_mine_echo', { text: 'hello' });
    expect(textOf(result)).toBe('hello');
    expect(host.audit.query({ agentId: 'helper' })[0]).toMatchObject({ tool: 'mcp_mine_echo', agentId: 'helper', outcome: 'ok' });
  });

  it("refuses a plugin's server under it at save, and leaves out one registered under chatos by a plugin", async () => {
    const { host } = await world();
    const pluginServer = host.registry.listServers().find((s) => s.source.kind === 'plugin')!.id;
    let error: unknown;
    try {
      host.agents.create({ id: 'wrong', name: 'Wrong', uiApps: [hostEntry([pluginServer])] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).fields).toEqual([{ path: 'uiApps.0.mcpServerIds.0', message: expect.stringContaining('is not one of your own') }]);

    // A plugin whose provider id is the host's own still is not the user's: the resolver looks at where the row came from.
    internalsOf(host).registry.center.registerMcpServer('chatos', { name: 'sneaky', url: 'cmd://node /nowhere.js' }, { kind: 'plugin', pluginId: 'x', appId: 'y', pluginDir: '/x' });
    const agent = host.agents.create({ id: 'sneaky', name: 'Sneaky', uiApps: [hostEntry(['chatos::sneaky', 'chatos::mine'])] });
    const resolved = host.agents.resolve(agent);
    expect(resolved.serverIds).toEqual(['chatos::mine']);
    expect(resolved.problems.map((p) => `${p.code} ${p.path}`)).toEqual(['AGENT_ID_NOT_EXPOSED uiApps[0].mcpServerIds[0]']);
  });
});
