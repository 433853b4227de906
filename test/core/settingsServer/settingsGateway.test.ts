import * as path from 'node:path';
import { confirm, onAsked } from '../../helpers/questions.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../src/core/host.js';
import { gatewayHooks } from '../../../src/core/tools/gatewayHooks.js';
import { McpToolSource } from '../../../src/core/tools/mcpToolSource.js';
import { ToolGateway } from '../../../src/core/tools/toolGateway.js';
import { McpRuntime } from '../../../src/core/mcp/mcpRuntime.js';
import { createSettingsContext } from '../../../src/core/settingsServer/settingsContext.js';
import { createSettingsServer, registerSettingsConfirmables, SETTINGS_SERVER_NAME, settingsServerDefinition } from '../../../src/core/settingsServer/settingsServer.js';
import type { SettingsContext } from '../../../src/core/settingsServer/types.js';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { caller, startTestHost, textOf } from '../../helpers/gatewayHost.js';
import { tempDir } from '../../helpers/tempDir.js';
import { EventQueue } from '../../helpers/eventQueue.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

const runtimes: McpRuntime[] = [];
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.dispose();
});

/**
 * The wiring a host does, on a started host's real services: the settings
 * definition among the built-in servers, its factory among the in-process
 * servers, its confirm tools registered, and a gateway with the host's hooks.
 */
async function wiredGateway(host: Host) {
  let ctx: SettingsContext | undefined; // the context needs the runtime, the runtime needs the factory: the factory reads it late
  const runtime = new McpRuntime({
    configFile: host.setup.home.mcpConfig,
    runDir: path.join(tempDir(), 'run'),
    hostEnv: process.env,
    registry: internalsOf(host).registry.center,
    now: () => host.setup.clock.now(),
    runGate: host.plugins.runGate,
    builtinServers: [settingsServerDefinition()],
    inProcessServers: new Map([[SETTINGS_SERVER_NAME, () => createSettingsServer(ctx!)]]),
  });
  runtimes.push(runtime);
  const internals = internalsOf(host);
  ctx = createSettingsContext({
    agents: internals.agents.agents,
    registry: internals.registry.center,
    catalog: host.plugins.catalog,
    rescan: async () => host.plugins.rescan(),
    runtime,
    snapshots: () => runtime.connections.snapshot(),
    serverSettings: internals.mcp.settings,
    alwaysAllow: internals.agents.alwaysAllow,
    knowledge: internals.knowledge.service,
  });
  await runtime.start();
  registerSettingsConfirmables(internals.tools.confirmations);
  const servers = new McpToolSource({
    runGate: host.plugins.runGate,
    runtime,
    registry: internals.registry.center,
    artifactsDir: host.setup.home.artifactsDir,
    mcpConfigFile: host.setup.home.mcpConfig,
    defaultWorkdir: tempDir(),
    now: () => host.setup.clock.now(),
    settings: internals.mcp.settings,
  });
  const gateway = new ToolGateway({ now: () => host.setup.clock.now(), hooks: gatewayHooks(internals.tools.confirmations, internals.audit), sources: [servers] });
  const required = new EventQueue<ToolConfirmationRequest>();
  onAsked(host, 'toolConfirmation', required.push);
  return { runtime, gateway, required };
}

describe('the settings server behind the gateway', () => {
  it('is registered under chatos and offers mcp_settings_* tools at their declared levels', async () => {
    const { host } = await startTestHost();
    const { gateway } = await wiredGateway(host);
    expect(host.registry.getServer('chatos::settings')).toMatchObject({ providerAppId: 'chatos', url: 'inproc://settings', source: { kind: 'builtin' } });
    const { tools, problems } = await gateway.listTools(caller());
    expect(problems).toEqual([]);
    const levels = Object.fromEntries(tools.filter((t) => t.serverId === 'chatos::settings').map((t) => [t.name, `${t.permission}/${t.permissionSource}`]));
    expect(levels).toMatchObject({
      mcp_settings_list_agents: 'read/config',
      mcp_settings_update_agent: 'write/config',
      mcp_settings_delete_agent: 'confirm/config',
      mcp_settings_grant_access: 'confirm/config',
    });
    // A sub-flow agent sees it too.
    expect((await gateway.listTools(caller('conv-sub', { flow: 'sub' }))).tools.map((t) => t.name)).toContain('mcp_settings_list_agents');
  });

  it('runs read tools at once and asks before a confirm tool, with its summary and risk; declined, nothing changes', async () => {
    const { host } = await startTestHost();
    const { gateway, required } = await wiredGateway(host);

    const listed = await gateway.callTool(caller(), 'mcp_settings_list_agents', {});
    expect(listed.decision).toBe('auto');
    expect(textOf(listed.result)).toMatch(/^0 agents\./);

    const declined = gateway.callTool(caller(), 'mcp_settings_create_agent', { name: 'Writer' });
    const ask = await required.next();
    expect(ask).toMatchObject({ serverName: 'chatos::settings', toolName: 'mcp_settings_create_agent', summary: 'Create agent "Writer" acting for app "chatos"', risk: 'medium' });
    confirm(host, ask.id, false);
    expect((await declined).decision).toBe('declined');
    expect(host.agents.list()).toEqual([]);

    const approved = gateway.callTool(caller(), 'mcp_settings_create_agent', { name: 'Writer' });
    confirm(host, (await required.next()).id, true);
    const outcome = await approved;
    expect(outcome.decision).toBe('approved');
    expect(outcome.result.isError).toBeFalsy();
    expect(host.agents.get('writer')).toMatchObject({ name: 'Writer' });

    const deleting = gateway.callTool(caller(), 'mcp_settings_delete_agent', { id: 'writer' });
    const deleteAsk = await required.next();
    expect(deleteAsk).toMatchObject({ summary: 'Delete agent "writer"', risk: 'high' });
    confirm(host, deleteAsk.id, true);
    expect((await deleting).result.isError).toBeFalsy();
    expect(host.agents.get('writer')).toBeUndefined();
  });

  it("a write call that widens what agents may use asks even when the user lowered the tool's level", async () => {
    const { host } = await startTestHost();
    const { gateway, required } = await wiredGateway(host);
    host.agents.create({ id: 'writer', name: 'Writer' });
    host.mcp.servers.setPermission('chatos::settings', 'update_agent', 'read');
    const relanguaged = await gateway.callTool(caller(), 'mcp_settings_update_agent', { id: 'writer', language: 'en' });
    expect(relanguaged.decision).toBe('auto');
    const widening = gateway.callTool(caller(), 'mcp_settings_update_agent', { id: 'writer', knowledgeBases: ['private'] });
    const ask = await required.next();
    expect(ask).toMatchObject({ toolName: 'mcp_settings_update_agent', summary: 'Change agent "writer": knowledge bases it may search to ["private"]', risk: 'high' });
    confirm(host, ask.id, false);
    expect((await widening).decision).toBe('declined');
    expect(host.agents.get('writer')).toMatchObject({ language: 'en', knowledgeBases: [] });
  });

  it('list_mcp_servers sees the settings server itself running, with its tools', async () => {
    const { host } = await startTestHost();
    const { gateway } = await wiredGateway(host);
    const result = await gateway.callTool(caller(), 'mcp_settings_list_mcp_servers', {});
    const settings = (result.result.structuredContent as { servers: { id: string; state: { kind: string }; category: string; tools?: { name: string }[] }[] }).servers.find(
      (s) => s.id === 'chatos::settings',
    );
    expect(settings).toMatchObject({ category: 'assistant', state: { kind: 'running' } });
    expect(settings?.tools?.map((t) => t.name)).toContain('set_tool_enabled');
  });
});
