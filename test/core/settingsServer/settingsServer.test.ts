import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePermission } from '../../../src/core/tools/permissions.js';
import { settingsServerDefinition } from '../../../src/core/settingsServer/settingsServer.js';
import { MODULES } from '../../../src/core/settingsServer/tools/index.js';
import { defineTool, type ToolModule } from '../../../src/core/settingsServer/types.js';
import { caller, fixtureServer, startTestHost, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { writePlugin, writeProviderPlugin } from '../../helpers/plugins.js';
import { connectSettings, dataOf, errorText, hostSettingsContext } from './settingsHarness.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

const GIT_SERVER = 'git_app::com.example.git.status';
const GIT_PROMPT = 'git_app::mcp_com_example_git_status';

/** A started host on a temp home: two provider plugins (git_app, wsl), one broken plugin, and the gateway fixture in mcp.yaml. */
async function settingsWorld() {
  const test = await startTestHost(({ home, pluginRoot }) => {
    writeProviderPlugin(pluginRoot, 'com.example.git', 'git_app', ['status']);
    writeProviderPlugin(pluginRoot, 'com.example.wsl', 'wsl', ['distros']);
    writePlugin(pluginRoot, 'com.example.broken', { manifestVersion: 1, id: 'com.example.broken', name: 'broken', version: '1.0.0', apps: [{ id: 'bad', name: 'bad', entry: 'missing/index.mjs' }] });
    writeMcpYaml(home, { fx: fixtureServer() });
  });
  const settings = await connectSettings(hostSettingsContext(test.host));
  return { ...test, ...settings };
}

describe('the settings server lists its tools', () => {
  it('offers every module tool with its description, input schema and annotations derived from its permission', async () => {
    const { client } = await settingsWorld();
    const { tools } = await client.listTools();
    const declared = MODULES.flatMap((m) => m.tools.map((t) => ({ domain: m.domain, ...t })));
    expect(tools.map((t) => t.name).sort()).toEqual(declared.map((t) => t.name).sort());
    const definition = settingsServerDefinition();
    for (const tool of declared) {
      const listed = tools.find((t) => t.name === tool.name)!;
      expect(listed.description).toBe(tool.description);
      expect(listed.inputSchema.type).toBe('object');
      expect(Object.keys(listed.inputSchema.properties ?? {}).sort()).toEqual(Object.keys(tool.inputSchema).sort());
      expect(listed._meta).toEqual({ chatos: { domain: tool.domain, permission: tool.permission } });
      expect(listed.annotations?.readOnlyHint).toBe(tool.permission === 'read' || tool.permission === 'navigate');
      expect(listed.annotations?.destructiveHint).toBe(tool.permission === 'confirm');
      // The definition's patterns decide first; the annotations alone would reach the same level for read and confirm tools.
      expect(resolvePermission(definition, listed)).toEqual({ level: tool.permission, source: 'config' });
      if (tool.permission !== 'write') expect(resolvePermission({ ...definition, permissions: [] }, listed).level).toBe(tool.permission);
    }
  });
});

describe('the settings server among the servers', () => {
  it('says in its registry row what giving it to an agent means (it changes ChatOS itself, and asks first)', async () => {
    const { host } = await startTestHost();
    const description = host.registry.getServer('chatos::settings')?.description ?? '';
    expect(description).toContain('read and change agents');
    expect(description).toContain('ask you first');
  });
});

describe('the assistant page groups the tools', () => {
  it('by the module that declares each tool, not by a guess from its name: both always-allowed tools are agents tools', async () => {
    const { host } = await settingsWorld();
    const { tools } = await host.mcp.servers.tools('chatos::settings');
    const declared = new Map(MODULES.flatMap((m) => m.tools.map((t) => [t.name, m.domain] as const)));
    expect(tools.map((t) => [t.rawName, t.domain])).toEqual(tools.map((t) => [t.rawName, declared.get(t.rawName)]));
    expect(tools.filter((t) => t.rawName.endsWith('_always_allowed')).map((t) => t.domain)).toEqual(['agents', 'agents']);
    expect(new Set(tools.map((t) => t.domain))).toEqual(new Set(MODULES.map((m) => m.domain)));
    // A server that declares no domain leaves its tools ungrouped, whatever their names.
    expect((await host.mcp.servers.tools('chatos::fx')).tools.every((t) => t.domain === undefined)).toBe(true);
  });
});

describe('agents tools', () => {
  it('create_agent then list_agents shows it, get_agent reads it, update_agent changes only what it is given, delete_agent removes it', async () => {
    const { host, call } = await settingsWorld();
    expect(dataOf(await call('list_agents'))).toEqual({ agents: [] });

    const created = dataOf<{ agent: { id: string } }>(await call('create_agent', { name: 'Writer', description: 'writes', uiApps: [{ pluginId: 'com.example.git', appId: 'status', mcp: true }] }));
    expect(created.agent.id).toBe('writer');
    expect(host.agents.get('writer')).toMatchObject({ name: 'Writer', description: 'writes', hostAppId: 'chatos', language: 'zh' });
    expect(dataOf(await call('list_agents'))).toEqual({ agents: [{ id: 'writer', name: 'Writer', description: 'writes', hostAppId: 'chatos', language: 'zh', apps: ['com.example.git/status'] }] });
    expect(dataOf<{ agent: unknown }>(await call('get_agent', { id: 'writer' })).agent).toEqual(host.agents.get('writer'));

    // hostAppId is not among update_agent's fields: it stays, whatever the model sends.
    const updated = await call('update_agent', { id: 'writer', description: 'edits', language: 'en', hostAppId: 'git_app' });
    expect(updated.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Updated description, language of agent "writer"') });
    expect(host.agents.get('writer')).toMatchObject({ name: 'Writer', description: 'edits', language: 'en', hostAppId: 'chatos', uiApps: [expect.objectContaining({ appId: 'status', mcp: true })] });

    expect(dataOf(await call('delete_agent', { id: 'writer' }))).toEqual({ deleted: 'writer' });
    expect(host.agents.get('writer')).toBeUndefined();
    expect(dataOf(await call('list_agents'))).toEqual({ agents: [] });
  });

  it('list_always_allowed shows the "Always allow" answers; revoke_always_allowed takes one back; deleting the agent takes all of its', async () => {
    const { host, call } = await settingsWorld();
    host.agents.create({ id: 'writer', name: 'Writer' });
    internalsOf(host).agents.alwaysAllow.add('writer', 'mcp_fx_dangerous', 'chatos::fx');
    internalsOf(host).agents.alwaysAllow.add('writer', 'mcp_fx_echo', 'chatos::fx');
    expect(dataOf<{ entries: { toolName: string }[] }>(await call('list_always_allowed', { agentId: 'writer' })).entries.map((e) => e.toolName)).toEqual(['mcp_fx_dangerous', 'mcp_fx_echo']);
    expect(dataOf(await call('revoke_always_allowed', { agentId: 'writer', toolName: 'mcp_fx_echo' }))).toEqual({ revoked: { agentId: 'writer', toolName: 'mcp_fx_echo' } });
    expect(errorText(await call('revoke_always_allowed', { agentId: 'writer', toolName: 'mcp_fx_echo' }))).toContain('is not always allowed');
    expect(internalsOf(host).agents.alwaysAllow.has('writer', 'mcp_fx_dangerous')).toBe(true);
    // A new agent given the same id inherits nothing.
    host.agents.delete('writer');
    expect(host.agents.alwaysAllow.list()).toEqual([]);
  });

  it("list_agent_memories shows an agent's memories (searched by words); forget_agent_memory forgets one", async () => {
    const { host, call } = await settingsWorld();
    host.agents.create({ id: 'writer', name: 'Writer', memory: { enabled: true } });
    const tea = await host.agents.memory.remember('writer', 'The user drinks green tea.');
    await host.agents.memory.remember('writer', 'The deadline is in March.');
    const listing = dataOf<{ space: string; enabled: boolean; total: number; memories: { id: string; text: string }[] }>(await call('list_agent_memories', { agentId: 'writer', query: 'tea' }));
    expect(listing).toMatchObject({ space: 'agent:writer', enabled: true, total: 2, memories: [{ id: tea.id, text: 'The user drinks green tea.' }] });
    expect(listing.memories).toHaveLength(1);
    expect(dataOf(await call('forget_agent_memory', { agentId: 'writer', memoryId: tea.id }))).toMatchObject({ forgotten: { id: tea.id } });
    expect((await host.agents.memory.list('writer')).memories.map((m) => m.text)).toEqual(['The deadline is in March.']);
    expect(errorText(await call('forget_agent_memory', { agentId: 'writer', memoryId: tea.id }))).toContain(`no memory "${tea.id}" in agent:writer`);
    expect(errorText(await call('list_agent_memories', { agentId: 'writr' }))).toContain('did you mean "writer"');
  });

  it('an unknown agent, a duplicate id or an invalid agent is an error result that says what is wrong', async () => {
    const { call } = await settingsWorld();
    await call('create_agent', { name: 'Writer' });
    expect(errorText(await call('get_agent', { id: 'writr' }))).toBe('no agent "writr"; did you mean "writer"?; list them with list_agents');
    expect(errorText(await call('update_agent', { id: 'nobody', name: 'x' }))).toContain('no agent "nobody"');
    expect(errorText(await call('delete_agent', { id: 'writr' }))).toContain('did you mean "writer"');
    expect(errorText(await call('create_agent', { id: 'writer', name: 'Again' }))).toBe('create_agent failed: an agent with id "writer" already exists');
    expect(errorText(await call('create_agent', { name: '' }))).toContain('must not be empty');
    expect(errorText(await call('create_agent', { name: 'Helper', hostAppId: 'wls' }))).toContain('no app "wls" is registered; did you mean "wsl"?');
    expect(dataOf<{ agent: { hostAppId: string } }>(await call('create_agent', { name: 'Helper', hostAppId: 'wsl' })).agent.hostAppId).toBe('wsl');

    // A model cannot name a program to run: kind and acp are not create_agent's, so the agent made is a model agent.
    const smuggled = dataOf<{ agent: { id: string; kind?: string; acp?: unknown } }>(
      await call('create_agent', { name: 'Runner', kind: 'acp', acp: { command: '/bin/sh', args: ['-c', 'touch /tmp/owned'] } }),
    ).agent;
    expect([smuggled.kind ?? 'model', smuggled.acp]).toEqual(['model', undefined]);
  });
});

describe('apps tools', () => {
  it('list_apps shows the apps, the broken plugin and its problems; rescan_apps picks up a new plugin', async () => {
    const { call, pluginRoot } = await settingsWorld();
    type AppsView = {
      apps: { pluginId: string; appId: string; server: unknown; problems: unknown[] }[];
      plugins: { id: string | null; dir: string; status: string; problems: { file: string }[] }[];
      otherProblems: unknown[];
    };
    const listed = await call('list_apps');
    const view = dataOf<AppsView>(listed);
    expect(view.apps.map((a) => `${a.pluginId}/${a.appId}`).sort()).toEqual(['com.example.git/status', 'com.example.wsl/distros']);
    expect(view.apps.find((a) => a.appId === 'status')).toMatchObject({ server: { url: expect.stringMatching(/^cmd:\/\//), enabled: true }, problems: [] });
    const brokenDir = path.join(pluginRoot, 'com.example.broken');
    const brokenProblems = [...view.plugins.find((p) => p.dir === brokenDir)!.problems, ...view.apps.filter((a) => a.pluginId === 'com.example.broken').flatMap((a) => a.problems)];
    expect(brokenProblems.length).toBeGreaterThan(0);
    expect(listed.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^2 apps from 3 plugin folders.*; [1-9]\d* problems?\./) });

    writeProviderPlugin(pluginRoot, 'com.example.new', 'new_app', ['fresh']);
    expect(dataOf<AppsView>(await call('list_apps')).apps).toHaveLength(2); // not seen until a rescan
    const rescanned = dataOf<AppsView>(await call('rescan_apps'));
    expect(rescanned.apps.map((a) => a.appId)).toContain('fresh');
    expect(dataOf<{ servers: { id: string }[] }>(await call('list_registry_servers')).servers.map((s) => s.id)).toContain('new_app::com.example.new.fresh');
  });
});

describe('registry tools', () => {
  type ServersView = { servers: { id: string; grantedTo: string[]; envNames: string[] }[] };

  it('grant_access then the registry shows the grant; revoke_access takes it back; server or prompt is decided by the registry', async () => {
    const { host, call } = await settingsWorld();
    const wslSees = async () => dataOf<ServersView>(await call('list_registry_servers', { appId: 'wsl' })).servers.map((s) => s.id);
    expect(await wslSees()).not.toContain(GIT_SERVER);

    expect(dataOf(await call('grant_access', { appId: 'wsl', id: GIT_SERVER }))).toEqual({ appId: 'wsl', id: GIT_SERVER, kind: 'server', outcome: 'created' });
    expect(host.registry.hasMcpServerAccess('wsl', GIT_SERVER)).toBe(true);
    expect(await wslSees()).toContain(GIT_SERVER);
    expect(dataOf<ServersView>(await call('list_registry_servers')).servers.find((s) => s.id === GIT_SERVER)?.grantedTo).toEqual(['wsl']);
    expect(dataOf(await call('grant_access', { appId: 'wsl', id: GIT_SERVER }))).toMatchObject({ outcome: 'unchanged' });

    expect(dataOf(await call('grant_access', { appId: 'wsl', id: GIT_PROMPT }))).toMatchObject({ kind: 'prompt', outcome: 'created' });
    expect(host.registry.hasPromptAccess('wsl', GIT_PROMPT)).toBe(true);
    const prompts = dataOf<{ prompts: { id: string; grantedTo: string[] }[] }>(await call('list_registry_prompts', { appId: 'wsl' })).prompts;
    expect(prompts.find((p) => p.id === GIT_PROMPT)?.grantedTo).toEqual(['wsl']);

    expect(dataOf(await call('revoke_access', { appId: 'wsl', id: GIT_SERVER }))).toEqual({ appId: 'wsl', id: GIT_SERVER, kind: 'server', revoked: true });
    expect(host.registry.hasMcpServerAccess('wsl', GIT_SERVER)).toBe(false);
    expect(host.registry.hasPromptAccess('wsl', GIT_PROMPT)).toBe(true);
    expect(errorText(await call('revoke_access', { appId: 'wsl', id: GIT_SERVER }))).toBe(`"wsl" has no grant of server "${GIT_SERVER}"; it has no server grants at all`);
  });

  it('a bad grant is an error result with close matches', async () => {
    const { call } = await settingsWorld();
    expect(errorText(await call('grant_access', { appId: 'wls', id: GIT_SERVER }))).toBe('grant_access failed: no app "wls" is registered; did you mean "wsl"?');
    expect(errorText(await call('grant_access', { appId: 'wsl', id: 'git_app::com.example.git.stats' }))).toContain(`did you mean "${GIT_SERVER}"`);
    expect(errorText(await call('grant_access', { appId: 'chatos', id: GIT_SERVER }))).toContain('is the registry owner and already sees everything');
    expect(errorText(await call('list_registry_servers', { appId: 'nobody' }))).toContain('no app "nobody" is registered');
  });

  it("shows the names of a server's environment variables, never their values", async () => {
    const { host, call } = await settingsWorld();
    internalsOf(host).registry.center.registerMcpServer('chatos', { name: 'keyed', url: 'cmd://node server.js', env: { API_KEY: 'secret-value' } });
    const result = await call('list_registry_servers');
    expect(dataOf<ServersView>(result).servers.find((s) => s.id === 'chatos::keyed')?.envNames).toEqual(['API_KEY']);
    expect(JSON.stringify(result)).not.toContain('secret-value');
  });
});

describe('mcp tools', () => {
  type McpView = { servers: { id: string; category: string; origin: string; state: { kind: string }; tools?: { name: string; enabled: boolean }[] }[] };
  const fx = async (call: (name: string) => Promise<import('@modelcontextprotocol/sdk/types.js').CallToolResult>) =>
    dataOf<McpView>(await call('list_mcp_servers')).servers.find((s) => s.id === 'chatos::fx')!;

  it('list_mcp_servers shows each server with its state, and its tools once it has run', async () => {
    const { host, call } = await settingsWorld();
    expect(await fx(call)).toEqual({ id: 'chatos::fx', name: 'fx', category: 'external', origin: 'mcp.yaml', state: { kind: 'stopped' } });
    await host.tools.list(caller());
    const running = await fx(call);
    expect(running.state.kind).toBe('running');
    expect(running.tools).toEqual(
      expect.arrayContaining([
        { name: 'echo', enabled: true },
        { name: 'count', enabled: true },
      ]),
    );
  });

  it('set_tool_enabled persists in the server settings, and the gateway stops offering the tool', async () => {
    const { host, call } = await settingsWorld();
    await host.tools.list(caller());
    expect(dataOf(await call('set_tool_enabled', { serverId: 'chatos::fx', tool: 'echo', enabled: false }))).toEqual({ serverId: 'chatos::fx', tool: 'echo', enabled: false });
    expect(host.mcp.settings.of('chatos::fx').disabledTools).toEqual(['echo']);
    expect((await host.tools.list(caller())).tools.map((t) => t.name)).not.toContain('mcp_fx_echo');
    expect((await fx(call)).tools).toContainEqual({ name: 'echo', enabled: false });

    await call('set_tool_enabled', { serverId: 'chatos::fx', tool: 'echo', enabled: true });
    expect(host.mcp.settings.of('chatos::fx').disabledTools).toEqual([]);
    expect((await host.tools.list(caller())).tools.map((t) => t.name)).toContain('mcp_fx_echo');
  });

  it('an unknown server or tool is an error result; a server that never ran takes the name as given', async () => {
    const { host, call } = await settingsWorld();
    expect(errorText(await call('set_tool_enabled', { serverId: 'chatos::f', tool: 'echo', enabled: false }))).toContain('no MCP server "chatos::f"; did you mean "chatos::fx"?');
    const unchecked = await call('set_tool_enabled', { serverId: 'chatos::fx', tool: 'ecko', enabled: false });
    expect(unchecked.content[0]).toMatchObject({ text: expect.stringContaining('could not be checked') });
    await call('set_tool_enabled', { serverId: 'chatos::fx', tool: 'ecko', enabled: true });
    await host.tools.list(caller());
    expect(errorText(await call('set_tool_enabled', { serverId: 'chatos::fx', tool: 'ecko', enabled: false }))).toContain('has no tool "ecko"; did you mean "echo"?');
    expect(host.mcp.settings.of('chatos::fx').disabledTools).toEqual([]);
  });
});

describe('handler errors', () => {
  it('a handler that throws gives an isError result naming the tool, and the server keeps serving', async () => {
    const { host } = await settingsWorld();
    const failing: ToolModule = {
      domain: 'failing',
      tools: [
        defineTool({
          name: 'explode',
          description: 'Throws.',
          permission: 'write',
          inputSchema: {},
          handler: async () => {
            throw new Error('the disk is full');
          },
        }),
        defineTool({ name: 'fine', description: 'Works.', permission: 'read', inputSchema: {}, handler: async () => ({ content: [{ type: 'text', text: 'ok' }] }) }),
      ],
    };
    const { call } = await connectSettings(hostSettingsContext(host), [failing]);
    expect(errorText(await call('explode'))).toBe('explode failed: the disk is full');
    expect((await call('fine')).content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('arguments that do not match the input schema are an error result, not a protocol error', async () => {
    const { call } = await settingsWorld();
    expect(errorText(await call('set_tool_enabled', { serverId: 'chatos::fx', tool: 'echo', enabled: 'maybe' }))).toMatch(/enabled/);
  });
});
