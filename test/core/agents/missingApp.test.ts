import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AgentError } from '../../../src/core/agents/agentError.js';
import { fixtureServer, startTestHost, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { writePlugin } from '../../helpers/plugins.js';

/**
 * Issue 38 item 15: exposure was checked for an installed app but not for
 * one that is missing: under a made-up app the user's own server was kept
 * (with a warning), where under an installed app that does not expose it it
 * is refused. One rule now (docs/rules/names-and-exposure.md#exposure): an app that is not installed
 * exposes nothing at all; the user's own servers are picked under ChatOS's
 * own entry. A real host, a real stdio server, a real plugin folder.
 */

const HUB = { pluginId: 'com.example.hub', appId: 'hub' };

async function hostWithHub() {
  let hubDir = '';
  const test = await startTestHost(({ home, pluginRoot }) => {
    writeMcpYaml(home, { fx: fixtureServer() });
    // A way-B app that exposes every server: while it is installed, an agent may pick the user's fx under it.
    hubDir = writePlugin(
      pluginRoot,
      'hub',
      { manifestVersion: 1, id: HUB.pluginId, name: 'Hub', version: '1.0.0', apps: [{ id: HUB.appId, name: 'Hub', entry: 'index.mjs', ai: { mcpServers: true } }] },
      { 'index.mjs': 'export function mount() {}\n' },
    );
  });
  return { ...test, hubDir };
}

const fxTools = (tools: readonly { serverId: string }[]) => tools.filter((tool) => tool.serverId === 'chatos::fx');

describe('an app that is not installed exposes nothing, not even your own servers', () => {
  it('a stored agent whose app is gone is offered none of the servers selected under it, with a problem at each', async () => {
    const { host, hubDir } = await hostWithHub();
    const agent = host.agents.create({ id: 'wide', name: 'Wide', uiApps: [{ ...HUB, mcp: true, mcpServerIds: ['chatos::fx'] }] });
    const before = host.agents.resolve(agent);
    expect(before.serverIds).toEqual(['chatos::fx']);
    expect(fxTools((await host.tools.list(before.callerFor('main', 'c1'))).tools).length).toBeGreaterThan(0);

    fs.rmSync(hubDir, { recursive: true });
    host.plugins.rescan();
    const after = host.agents.resolve(host.agents.get('wide')!);
    expect(after.serverIds).toEqual([]);
    expect(after.problems.map((p) => `${p.code} ${p.path}`)).toEqual(['AGENT_APP_MISSING uiApps[0]', 'AGENT_ID_NOT_EXPOSED uiApps[0].mcpServerIds[0]']);
    expect(after.problems[1]!.message).toBe('server "chatos::fx" is not offered: app "hub" of plugin "com.example.hub" is not installed, so it exposes nothing');
    expect(after.problems[1]!.hint).toContain('your own servers ("chatos::…") go under ChatOS\'s own entry');
    expect(fxTools((await host.tools.list(after.callerFor('main', 'c2'))).tools)).toEqual([]);
    // Kept in the stored agent, as other ids that no longer resolve are.
    expect(host.agents.get('wide')!.uiApps[0]!.mcpServerIds).toEqual(['chatos::fx']);
  });

  it('saving your own server under a made-up app is refused, naming the field; under ChatOS’s own entry it is offered', async () => {
    const { host } = await hostWithHub();
    let refusal: unknown;
    try {
      host.agents.create({ id: 'madeup', name: 'Made up', uiApps: [{ pluginId: 'com.example.nowhere', appId: 'main', mcp: true, mcpServerIds: ['chatos::fx'] }] });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(AgentError);
    expect((refusal as AgentError).fields).toEqual([
      { path: 'uiApps.0.mcpServerIds.0', message: expect.stringContaining('server "chatos::fx" is not offered: app "main" of plugin "com.example.nowhere" is not installed, so it exposes nothing') },
    ]);
    expect(host.agents.get('madeup')).toBeUndefined();

    const own = host.agents.create({ id: 'own', name: 'Own', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::fx'] }] });
    const resolved = host.agents.resolve(own);
    expect(resolved.problems).toEqual([]);
    expect(fxTools((await host.tools.list(resolved.callerFor('main', 'c3'))).tools).length).toBeGreaterThan(0);
  });
});
