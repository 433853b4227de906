import * as path from 'node:path';
import { confirm, pendingOf } from '../../helpers/questions.js';
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../../src/core/host.js';
import { caller, fixtureServer, startTestHost, trustPlugin, writeGatewayPlugin, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { repoRoot } from '../../helpers/tempDir.js';

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
    await expect.poll(() => pendingOf(host, 'toolConfirmation').length).toBe(1);
    confirm(host, pendingOf(host, 'toolConfirmation')[0]!.id, false);
    expect((await declined).decision).toBe('declined');

    expect(events.filter((e) => e.kind === 'app-tool-called')).toEqual([
      { kind: 'app-tool-called', pluginId: 'acme.tools', appId: 'main', serverId: 'acme.tools::acme.tools.main', tool: 'echo', ok: true, conversationId: 'conv-events' },
      { kind: 'app-tool-called', pluginId: 'acme.tools', appId: 'main', serverId: 'acme.tools::acme.tools.main', tool: 'echo', ok: false, conversationId: 'conv-events' },
    ]);
  });

  it('names the agent and its conversation, and the Canvas instance the answer names (created or changed); not for a page or a refused patch', async () => {
    const { host } = await startTestHost(() => {}, { builtinPluginsDir: path.join(repoRoot, 'plugins') });
    const events: HostEvent[] = [];
    host.events.on((event) => event.kind === 'app-tool-called' && events.push(event));
    const agent = caller('conv-agent', { agentId: 'builder' });
    const PATCH = 'mcp_chatos_canvas_canvas_patch_ui_state';
    const form = { id: 'f', type: 'form', bind: 'state.params', props: { title: 'F', fields: [{ label: 'A', key: 'a', type: 'text' }] } };

    await host.tools.call(agent, PATCH, { instance_id: '__CREATE__', new_instance_id: 'made', patches: [{ op: 'add', path: 'blocks+', value: form }] });
    await host.tools.call(agent, PATCH, { instance_id: 'made', patches: [{ op: 'set', path: 'meta.step', value: { current: 1, total: 2 } }] });
    // Refused (the id is taken): the answer names the instance, but nothing changed to show.
    await host.tools.call(agent, PATCH, { instance_id: 'made', patches: [{ op: 'add', path: 'blocks+', value: form }] });
    // The app's own page: its calls say no agent.
    await host.tools.call(caller('ui-page', { agentId: 'builder', fromPage: true }), PATCH, { instance_id: 'made', patches: [{ op: 'set', path: 'state.params.a', value: 'x' }] });
    // Deleted: nothing to show.
    await host.tools.call(agent, PATCH, { instance_id: '__DELETE__', target_instance_id: 'made', patches: [] });

    const common = { kind: 'app-tool-called', pluginId: 'chatos.canvas', appId: 'canvas', serverId: 'chatos.canvas::chatos.canvas.canvas', tool: 'patch_ui_state' };
    expect(events).toEqual([
      { ...common, ok: true, conversationId: 'conv-agent', agentId: 'builder', instanceId: 'made', created: true },
      { ...common, ok: true, conversationId: 'conv-agent', agentId: 'builder', instanceId: 'made' },
      { ...common, ok: false, conversationId: 'conv-agent', agentId: 'builder' },
      { ...common, ok: true, conversationId: 'ui-page', instanceId: 'made' },
      { ...common, ok: true, conversationId: 'conv-agent', agentId: 'builder' },
    ]);
    await host.dispose();
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
