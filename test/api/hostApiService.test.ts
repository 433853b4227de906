import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import { appsView } from '../../src/cli/appView.js';
import type { HostApiService } from '../../src/api/types.js';
import { HostApiMethods, HostEventSchema, type HostApiMethod, type HostApiParams, type HostApiResult, type HostEventMessage } from '../../src/shared/hostApi.js';
import { isAlive, pidsOf, startTestHost, trustPlugin, writeGatewayPlugin, type TestHost } from '../helpers/gatewayHost.js';
import { writeHugePlugin, writePlugin } from '../helpers/plugins.js';
import { tempDir } from '../helpers/tempDir.js';
import { internalsOf } from '../../src/core/modules/hostInternals.js';
import { TestScheduler } from '../helpers/testScheduler.js';

const urls = {
  uiAppUrl: (pluginId: string, appId: string, surface: string) => `/ui/test/${pluginId}/${appId}/__shell?surface=${surface}`,
  artifactUrl: (file: string) => `/artifacts-test${file}`,
};

async function startApi(options: { trusted?: boolean; scheduler?: TestScheduler } = {}): Promise<{ api: HostApiService; events: HostEventMessage[]; t: TestHost }> {
  const t = await startTestHost(
    ({ pluginRoot }) => {
      writeGatewayPlugin(pluginRoot, 'acme.tools', [
        { appId: 'main', allowMain: true },
        { appId: 'other', allowMain: true },
      ]);
    },
    options.scheduler ? { scheduler: options.scheduler } : {},
  );
  if (options.trusted !== false) trustPlugin(t.host, 'acme.tools');
  const api = createHostApiService(t.host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
  const events: HostEventMessage[] = [];
  api.onEvent((event) => events.push(HostEventSchema.parse(event)));
  return { api, events, t };
}

/** Calls a method and checks the reply against the contract's result schema, so a drifting handler fails here. */
async function call<M extends HostApiMethod>(api: HostApiService, method: M, params: HostApiParams<M>): Promise<HostApiResult<M>> {
  const reply = await api.handle({ method, params });
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return HostApiMethods[method].result.parse(reply.result) as HostApiResult<M>;
}

async function failure(api: HostApiService, method: string, params: unknown) {
  const reply = await api.handle({ method, params });
  if (reply.ok) throw new Error(`${method} unexpectedly succeeded`);
  return reply.error;
}

describe('HostApi service', () => {
  it('rejects requests that fail the contract before the core sees them', async () => {
    const { api, t } = await startApi();
    t.host.agents.create({ id: 'keep', name: 'Keep' });
    expect((await failure(api, 'agents.delete', {})).code).toBe('BAD_REQUEST');
    expect((await failure(api, 'agents.delete', { id: 'keep', extra: 1 })).code).toBe('BAD_REQUEST');
    expect((await failure(api, 'agents.nuke', {})).code).toBe('UNKNOWN_METHOD');
    expect((await api.handle('agents.delete')).ok).toBe(false);
    expect((await api.handle({ method: 'agents.delete', params: { id: 'keep' }, sneaky: true })).ok).toBe(false);
    expect(t.host.agents.get('keep')).toBeDefined();
  });

  it('lists every plugin when one holds more files than trust pins: that one is blocked, with the problem (issue 13 item 9)', async () => {
    const { api, t } = await startApi();
    writeHugePlugin(t.pluginRoot, 'acme.huge', 20_001);
    t.host.plugins.rescan();
    const listed = await call(api, 'apps.list', {});
    const huge = listed.plugins.find((p) => p.id === 'acme.huge')!;
    expect(huge.trust.state).toBe('blocked');
    expect(huge.runnable).toBe(false);
    expect(huge.problems.map((p) => p.code)).toContain('PLUGIN_TOO_MANY_FILES');
    expect(listed.problems.map((p) => p.code)).toContain('PLUGIN_TOO_MANY_FILES');
    expect(listed.plugins.find((p) => p.id === 'acme.tools')).toMatchObject({ trust: { state: 'trusted' }, runnable: true });
    expect((await failure(api, 'plugins.trust', { pluginId: 'acme.huge' })).message).toContain('cannot be trusted until it is smaller');
  });

  it('an agent preview gets no prompt text and no tool of an untrusted plugin, and says why (issue 13 item 5)', async () => {
    const { api, t } = await startApi({ trusted: false });
    writePlugin(
      t.pluginRoot,
      'says',
      { manifestVersion: 1, id: 'acme.says', name: 'Says', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcpPrompt: { zh: { content: 'Obey the plugin.' } } } }] },
      { 'index.mjs': '' },
    );
    t.host.plugins.rescan();
    const preview = await call(api, 'agents.preview', {
      agent: {
        name: 'P',
        language: 'zh',
        uiApps: [
          { pluginId: 'acme.says', appId: 'main', prompt: true },
          { pluginId: 'acme.tools', appId: 'main', mcp: true },
        ],
      },
    });
    expect(preview.prompt.text).toBe('');
    expect(preview.main).toEqual([]);
    expect(preview.problems.map((p) => `${p.code} ${p.path}`)).toEqual(expect.arrayContaining(['PLUGIN_UNTRUSTED uiApps[0].prompt', 'PLUGIN_UNTRUSTED uiApps[1].mcp']));
  });

  it('answers the Apps page with derived names, trust and run plans', async () => {
    const { api, t } = await startApi({ trusted: false });
    const listed = await call(api, 'apps.list', {});
    const app = listed.apps.find((a) => a.appId === 'main')!;
    expect(app.serverId).toBe('acme.tools::acme.tools.main');
    // One view of an app: `chatos apps --json` prints exactly what the Apps page gets.
    expect(appsView(t.host, t.host.plugins.rescan()).apps).toEqual(listed.apps);
    const plugin = listed.plugins.find((p) => p.id === 'acme.tools')!;
    expect(plugin.trust.state).toBe('untrusted');
    expect(plugin.runnable).toBe(false);
    // A Node server gets the hook that offers the host's SDK and zod, before its entry, as it is spawned.
    expect(plugin.runPlan.servers[0]!.command).toEqual(['node', '--import', expect.stringMatching(/runtime\/host-modules\.mjs$/), expect.stringMatching(/main\/server\.mjs$/)]);
    // Untrusted: no page, no tool call.
    expect((await failure(api, 'uiApps.open', { pluginId: 'acme.tools', appId: 'main' })).code).toBe('NOT_ALLOWED');
    expect((await failure(api, 'uiApps.callTool', { pluginId: 'acme.tools', appId: 'main', tool: 'echo', args: { text: 'x' } })).message).toMatch(/not trusted/);
    const trusted = await call(api, 'plugins.trust', { pluginId: 'acme.tools' });
    expect(trusted.trust.state).toBe('trusted');
    expect((await call(api, 'uiApps.open', { pluginId: 'acme.tools', appId: 'main', surface: 'full' })).url).toBe('/ui/test/acme.tools/main/__shell?surface=full');
  });

  it("lets a page call only its own server's tools", async () => {
    const { api } = await startApi();
    const outcome = await call(api, 'uiApps.callTool', { pluginId: 'acme.tools', appId: 'main', tool: 'echo_meta', args: {} });
    expect(outcome.structuredContent).toMatchObject({ meta: { chatos: { uiApp: { pluginId: 'acme.tools', appId: 'main' } } } });
    // The other app's server offers the same raw names, but a page is bound to its own server.
    const other = await call(api, 'uiApps.callTool', { pluginId: 'acme.tools', appId: 'other', tool: 'echo_meta', args: {} });
    expect(other.structuredContent).toMatchObject({ meta: { chatos: { uiApp: { appId: 'other' } } } });
    expect((await failure(api, 'uiApps.callTool', { pluginId: 'acme.tools', appId: 'main', tool: 'mcp_acme_tools_other_echo', args: {} })).code).toBe('NOT_FOUND');
  });

  it("tells the UI of every call that reached an app's own server (its frames then get tool.called)", async () => {
    const { api, events, t } = await startApi();
    await call(api, 'uiApps.callTool', { pluginId: 'acme.tools', appId: 'main', tool: 'echo', args: { text: 'from the page' } });
    await t.host.tools.call({ appId: 'chatos', conversationId: 'agent-conv', flow: 'main', agentId: 'x' }, 'mcp_acme_tools_other_echo', {});
    expect(events.filter((e) => e.type === 'uiApp.toolCalled')).toEqual([
      { type: 'uiApp.toolCalled', pluginId: 'acme.tools', appId: 'main', tool: 'echo', ok: true, conversationId: expect.any(String) },
      { type: 'uiApp.toolCalled', pluginId: 'acme.tools', appId: 'other', tool: 'echo', ok: false, conversationId: 'agent-conv', agentId: 'x' },
    ]);
  });

  it('saves agents, reports field errors, and previews their tools and prompt live', async () => {
    const { api, events } = await startApi();
    const invalid = await failure(api, 'agents.save', { agent: { name: '' } });
    expect(invalid.code).toBe('INVALID');
    expect(invalid.fields?.map((f) => f.path)).toContain('name');
    const draft = { name: 'Writer', uiApps: [{ pluginId: 'acme.tools', appId: 'main', mcp: true, mcpServerIds: ['acme.tools::acme.tools.main'] }] };
    const preview = await call(api, 'agents.preview', { agent: draft });
    expect(preview.main.map((t) => t.rawName)).toEqual(expect.arrayContaining(['echo', 'dangerous']));
    expect(preview.main.find((t) => t.rawName === 'dangerous')!.permission).toBe('confirm');
    // Its server's tools, and mcp_release: the server keeps one instance per conversation.
    expect(preview.main.every((t) => t.serverId === 'acme.tools::acme.tools.main' || t.name === 'mcp_release')).toBe(true);
    expect(preview.main.find((t) => t.name === 'mcp_release')).toMatchObject({ serverId: 'chatos', permission: 'write' });
    const badDraft = await call(api, 'agents.preview', { agent: { name: 'x', uiApps: [{ pluginId: '' }] } });
    expect(badDraft.fieldErrors.map((f) => f.path)).toContain('uiApps[0].pluginId');
    const saved = await call(api, 'agents.save', { agent: { ...draft, id: 'writer' } });
    expect(saved.agent.id).toBe('writer');
    expect(events.some((e) => e.type === 'agents.changed')).toBe(true);
    expect((await call(api, 'agents.list', {})).agents.map((a) => a.id)).toEqual(['writer']);
  });

  it('grants and revokes, changing what an app may see, with events', async () => {
    const { api, events, t } = await startApi();
    internalsOf(t.host).registry.center.registerApp('aide', 'host');
    const id = 'acme.tools::acme.tools.main';
    expect((await call(api, 'registry.overview', {})).visible.aide!.servers).not.toContain(id);
    expect((await call(api, 'registry.grant', { appId: 'aide', id })).result).toBe('created');
    expect((await call(api, 'registry.overview', {})).visible.aide!.servers).toContain(id);
    expect(events.filter((e) => e.type === 'registry.changed')).toHaveLength(1);
    expect((await call(api, 'registry.revoke', { appId: 'aide', id })).removed).toBe(true);
    expect((await call(api, 'registry.overview', {})).visible.aide!.servers).not.toContain(id);
    expect((await failure(api, 'registry.grant', { appId: 'aide', id: 'nope::x' })).code).toBe('UNKNOWN_ID');
  });

  it("publishes each question under the seed's names too: required with the app whose server it is, expired when nobody answers", async () => {
    const scheduler = new TestScheduler();
    const { api, events, t } = await startApi({ scheduler });
    t.host.agents.create({ id: 'a', name: 'A', uiApps: [{ pluginId: 'acme.tools', appId: 'main', mcp: true, mcpServerIds: ['acme.tools::acme.tools.main'] }] });
    const tools = await call(api, 'tools.list', { agentId: 'a', flow: 'main', conversationId: 'seed-names' });
    const dangerous = tools.tools.find((tool) => tool.rawName === 'dangerous')!;
    const pending = call(api, 'tools.call', { agentId: 'a', flow: 'main', conversationId: 'seed-names', tool: dangerous.name, args: {} });
    await expect.poll(() => events.find((e) => e.type === 'mcp:tool_confirmation_required')).toBeTruthy();
    const [ours, seed] = [events.find((e) => e.type === 'question'), events.find((e) => e.type === 'mcp:tool_confirmation_required')];
    if (ours?.type !== 'question' || seed?.type !== 'mcp:tool_confirmation_required') throw new Error('both names are published');
    expect(seed.request).toEqual(ours.question.request);
    expect(seed.uiApp).toEqual({ pluginId: 'acme.tools', appId: 'main' });
    expect(events.some((e) => e.type === 'mcp:tool_confirmation_expired')).toBe(false);
    scheduler.advance(60_000);
    expect((await pending).decision).toBe('expired');
    const expired = events.find((e) => e.type === 'mcp:tool_confirmation_expired');
    expect(expired).toEqual({ type: 'mcp:tool_confirmation_expired', id: seed.request.id, request: seed.request, uiApp: { pluginId: 'acme.tools', appId: 'main' } });
  });

  it('asks before a confirm-level tool, runs it once approved, and reports server state and artifacts', async () => {
    const { api, events, t } = await startApi();
    t.host.agents.create({ id: 'a', name: 'A', uiApps: [{ pluginId: 'acme.tools', appId: 'main', mcp: true, mcpServerIds: ['acme.tools::acme.tools.main'] }] });
    const tools = await call(api, 'tools.list', { agentId: 'a', flow: 'main', conversationId: 'playground-1' });
    const dangerous = tools.tools.find((tool) => tool.rawName === 'dangerous')!;
    const pending = call(api, 'tools.call', { agentId: 'a', flow: 'main', conversationId: 'playground-1', tool: dangerous.name, args: {} });
    await expect.poll(() => events.find((e) => e.type === 'question')).toBeTruthy();
    const required = events.find((e) => e.type === 'question')!;
    if (required.type !== 'question' || required.question.kind !== 'toolConfirmation') throw new Error('unreachable');
    expect(required.question.request.conversationId).toBe('playground-1');
    expect((await call(api, 'questions.list', {})).pending).toHaveLength(1);
    expect((await call(api, 'questions.respond', { id: required.question.request.id, answer: { kind: 'toolConfirmation', approved: true, scope: 'once' } })).answered).toBe(true);
    const outcome = await pending;
    expect(outcome.decision).toBe('approved');
    expect(outcome.isError).toBe(false);
    expect(events.some((e) => e.type === 'question' && e.change === 'resolved' && e.outcome === 'approved')).toBe(true);
    expect(events.some((e) => e.type === 'server.state' && e.serverId === 'acme.tools::acme.tools.main' && e.state.kind === 'running')).toBe(true);

    const images = await call(api, 'tools.call', { agentId: 'a', flow: 'main', conversationId: 'playground-1', tool: tools.tools.find((tool) => tool.rawName === 'images')!.name, args: {} });
    const artifacts = images.content.filter((item) => item.type === 'artifact');
    expect(artifacts).toHaveLength(2);
    for (const item of artifacts) if (item.type === 'artifact') expect(item.url).toBe(`/artifacts-test${item.path}`);
    const running = (await call(api, 'servers.list', {})).servers.find((s) => s.id === 'acme.tools::acme.tools.main')!;
    expect(running.state.kind).toBe('running');
    // What its process costs (docs/using/mcp-servers.md#what-each-process-costs): a Node MCP server holds tens of MB.
    if (process.platform === 'linux') expect(running.leases[0]!.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect((await call(api, 'conversations.end', { conversationId: 'playground-1' })).released).toBeGreaterThan(0);
  });

  it("lists a server's tools with permissions and switches them off and on", async () => {
    const { api } = await startApi();
    const serverId = 'acme.tools::acme.tools.main';
    const listed = await call(api, 'servers.tools', { serverId });
    expect(listed.tools.find((tool) => tool.rawName === 'echo_meta')).toMatchObject({ permission: 'read', permissionSource: 'annotation', enabled: true, name: 'mcp_acme_tools_main_echo_meta' });
    await call(api, 'servers.setToolEnabled', { serverId, tool: 'echo', enabled: false });
    await call(api, 'servers.setPermission', { serverId, tool: 'echo_meta', level: 'confirm' });
    const after = await call(api, 'servers.tools', { serverId });
    expect(after.tools.find((tool) => tool.rawName === 'echo')!.enabled).toBe(false);
    expect(after.tools.find((tool) => tool.rawName === 'echo_meta')).toMatchObject({ permission: 'confirm', permissionSource: 'override' });
    expect((await failure(api, 'servers.tools', { serverId: 'nope' })).code).toBe('NOT_FOUND');
  });

  it('stops what an untrusted plugin runs now, not only what it would start later', async () => {
    const { api, events, t } = await startApi();
    await call(api, 'uiApps.callTool', { pluginId: 'acme.tools', appId: 'main', tool: 'echo', args: { text: 'x' } });
    const leases = () =>
      t.host.mcp.servers
        .snapshots()
        .filter((s) => s.serverId.startsWith('acme.tools::'))
        .flatMap((s) => s.leases);
    expect(leases().length).toBeGreaterThan(0);
    expect((await call(api, 'plugins.untrust', { pluginId: 'acme.tools' })).changed).toBe(true);
    expect(leases()).toEqual([]);
    expect(events).toContainEqual({ type: 'uiApp.changed', pluginId: 'acme.tools' });
    expect((await failure(api, 'uiApps.callTool', { pluginId: 'acme.tools', appId: 'main', tool: 'echo', args: { text: 'x' } })).code).toBe('NOT_ALLOWED');
  });

  it('uninstalling stops what the plugin runs now (its backend, its server, its open pages), and its registrations and the grants on them go', async () => {
    const { api, events, t } = await startApi();
    const dir = writeGatewayPlugin(path.join(t.home, 'chatos', 'ui_apps', 'plugins'), 'acme.mine', [{ appId: 'main', allowMain: true }]);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'plugin.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify({ ...manifest, backend: { entry: 'backend.mjs' } }));
    fs.writeFileSync(path.join(dir, 'backend.mjs'), 'export const createUiAppsBackend = () => ({ methods: { pid: () => process.pid } });\n');
    await call(api, 'apps.rescan', {});
    trustPlugin(t.host, 'acme.mine');
    const serverId = 'acme.mine::acme.mine.main';
    await call(api, 'registry.grant', { appId: 'acme.tools', id: serverId });
    expect((await call(api, 'uiApps.callTool', { pluginId: 'acme.mine', appId: 'main', tool: 'echo', args: { text: 'x' } })).isError).toBe(false);
    const backend = await call(api, 'uiApps.invokeBackend', { pluginId: 'acme.mine', appId: 'main', method: 'pid' });
    const running = [...pidsOf(t.host, serverId), (backend as { result: number }).result];
    expect(running).toHaveLength(2);
    expect(running.every(isAlive)).toBe(true);

    await call(api, 'plugins.uninstall', { pluginId: 'acme.mine', purge: false });
    expect(running.filter(isAlive)).toEqual([]);
    expect(t.host.plugins.backends.running()).toEqual([]);
    expect(events).toContainEqual({ type: 'uiApp.changed', pluginId: 'acme.mine' });
    const overview = await call(api, 'registry.overview', {});
    expect(overview.servers.map((s) => s.id)).not.toContain(serverId);
    expect(overview.grants.map((g) => g.targetId)).not.toContain(serverId);
  });

  it('installs over an installed copy only as an update: previewed, grants kept, what ran ended, trust needed again', async () => {
    const { api, events, t } = await startApi();
    const source = writeGatewayPlugin(tempDir(), 'acme.mine', [{ appId: 'main', allowMain: true }]);
    expect((await call(api, 'plugins.installPreview', { source })).update).toBeUndefined();
    await call(api, 'plugins.install', { source });
    trustPlugin(t.host, 'acme.mine');
    const serverId = 'acme.mine::acme.mine.main';
    await call(api, 'registry.grant', { appId: 'acme.tools', id: serverId });
    expect((await call(api, 'uiApps.callTool', { pluginId: 'acme.mine', appId: 'main', tool: 'echo', args: { text: 'x' } })).isError).toBe(false);
    const running = pidsOf(t.host, serverId);
    expect(running.every(isAlive)).toBe(true);

    fs.appendFileSync(path.join(source, 'main', 'server.mjs'), '// v2\n');
    const preview = await call(api, 'plugins.installPreview', { source });
    expect(preview.update).toMatchObject({ pluginId: 'acme.mine', wasTrusted: true, runPlanChanged: false, files: { added: [], removed: [], modified: ['main/server.mjs'] } });
    expect((await failure(api, 'plugins.install', { source })).code).toBe('ALREADY_INSTALLED');
    expect(running.every(isAlive)).toBe(true);

    expect(await call(api, 'plugins.install', { source, update: true })).toMatchObject({ pluginId: 'acme.mine', updated: true });
    expect(running.filter(isAlive)).toEqual([]);
    expect(events).toContainEqual({ type: 'uiApp.changed', pluginId: 'acme.mine' });
    const mine = (await call(api, 'apps.list', {})).plugins.find((p) => p.id === 'acme.mine')!;
    expect(mine.trust.state).toBe('changed');
    expect((await call(api, 'registry.overview', {})).grants.map((g) => `${g.appId} ${g.targetId}`)).toContain(`acme.tools ${serverId}`);
    expect((await call(api, 'plugins.uninstallPreview', { pluginId: 'acme.mine' })).grants).toEqual([{ kind: 'server', id: serverId, appId: 'acme.tools' }]);
  });

  it('switches a whole server off (ending its instance, hiding and refusing its tools) and on again', async () => {
    const { api, events, t } = await startApi();
    const serverId = 'acme.tools::acme.tools.main';
    const selecting = { uiApps: [{ pluginId: 'acme.tools', appId: 'main', mcp: true, mcpServerIds: [serverId] }] };
    t.host.agents.create({ id: 'a', name: 'A', ...selecting });
    const at = { agentId: 'a', flow: 'main' as const, conversationId: 'playground-off' };
    const echo = (await call(api, 'tools.list', at)).tools.find((tool) => tool.rawName === 'echo')!;
    const leases = () =>
      t.host.mcp.servers
        .snapshots()
        .filter((s) => s.serverId === serverId)
        .flatMap((s) => s.leases);
    expect(leases().length).toBeGreaterThan(0);

    await call(api, 'servers.setEnabled', { serverId, enabled: false });
    expect(leases()).toEqual([]);
    expect(events).toContainEqual({ type: 'server.settings', serverId });
    expect((await call(api, 'tools.list', at)).tools.filter((tool) => tool.serverId === serverId)).toEqual([]);
    expect((await call(api, 'agents.preview', { agent: { name: 'A', ...selecting } })).main.filter((tool) => tool.serverId === serverId)).toEqual([]);
    const refused = await failure(api, 'tools.call', { ...at, tool: echo.name, args: { text: 'x' } });
    expect(refused.code).toBe('SERVER_DISABLED');
    expect(refused.message).toContain('switched off');
    expect(refused.hint).toContain('MCP servers page');
    expect(leases()).toEqual([]);
    expect((await call(api, 'servers.list', {})).servers.find((s) => s.id === serverId)).toMatchObject({ switchedOff: true, disabled: false });
    expect((await failure(api, 'servers.tools', { serverId })).code).toBe('NOT_ALLOWED');
    expect((await failure(api, 'servers.setEnabled', { serverId: 'nope', enabled: false })).code).toBe('NOT_FOUND');

    await call(api, 'servers.setEnabled', { serverId, enabled: true });
    expect((await call(api, 'servers.list', {})).servers.find((s) => s.id === serverId)!.switchedOff).toBe(false);
    expect((await call(api, 'tools.list', at)).tools.map((tool) => tool.name)).toContain(echo.name);
    expect((await call(api, 'tools.call', { ...at, tool: echo.name, args: { text: 'back' } })).isError).toBe(false);
  });

  it("tells the UI when a server's tool settings change", async () => {
    const { api, events } = await startApi();
    await call(api, 'servers.setToolEnabled', { serverId: 'acme.tools::acme.tools.main', tool: 'echo', enabled: false });
    await call(api, 'servers.setPermission', { serverId: 'acme.tools::acme.tools.main', tool: 'echo', level: null });
    expect(events.filter((e) => e.type === 'server.settings')).toEqual([
      { type: 'server.settings', serverId: 'acme.tools::acme.tools.main' },
      { type: 'server.settings', serverId: 'acme.tools::acme.tools.main' },
    ]);
  });

  it('refuses requests the core cannot carry out with a code and a message that says what to do', async () => {
    const t = await startTestHost(({ pluginRoot }) => {
      writeGatewayPlugin(pluginRoot, 'acme.flags', [{ appId: 'nowhere', allowMain: false, allowSub: false }]);
      writePlugin(
        pluginRoot,
        'acme.plain',
        { manifestVersion: 1, id: 'acme.plain', name: 'Plain', version: '1.0.0', apps: [{ id: 'page', name: 'Page', entry: 'index.mjs' }] },
        { 'index.mjs': 'export function mount() {}\n' },
      );
    });
    trustPlugin(t.host, 'acme.flags');
    trustPlugin(t.host, 'acme.plain');
    const api = createHostApiService(t.host, { face: 'serve', urls, version: '1', locale: 'en' });

    const missing = await failure(api, 'plugins.install', { source: '/nowhere/plugin.zip' });
    expect(missing.code).toBe('SOURCE_MISSING');
    expect(missing.message).toContain('/nowhere/plugin.zip');
    expect((await failure(api, 'uiApps.open', { pluginId: 'acme.plain', appId: 'page', surface: 'compact' })).code).toBe('NOT_FOUND');
    expect((await failure(api, 'uiApps.open', { pluginId: 'acme.plain', appId: 'nope' })).code).toBe('NOT_FOUND');
    const noServer = await failure(api, 'uiApps.callTool', { pluginId: 'acme.plain', appId: 'page', tool: 'x' });
    expect(noServer).toMatchObject({ code: 'NOT_FOUND', hint: expect.stringContaining('ai.mcp') });
    const noFlow = await failure(api, 'uiApps.callTool', { pluginId: 'acme.flags', appId: 'nowhere', tool: 'echo' });
    expect(noFlow).toMatchObject({ code: 'NOT_ALLOWED', hint: expect.stringContaining('allowSub') });
    expect((await failure(api, 'tools.list', { agentId: 'ghost', conversationId: 'c' })).code).toBe('NOT_FOUND');
    expect((await failure(api, 'tools.call', { agentId: 'ghost', conversationId: 'c', tool: 'x' })).code).toBe('NOT_FOUND');
    for (const method of ['servers.log', 'servers.restart', 'servers.setEnabled', 'servers.setToolEnabled'] as const) {
      const params = { serverId: 'nope::x', ...(method === 'servers.setEnabled' ? { enabled: false } : method === 'servers.setToolEnabled' ? { tool: 't', enabled: false } : {}) };
      expect((await failure(api, method, params)).code, method).toBe('NOT_FOUND');
    }
    expect((await failure(api, 'plugins.trust', { pluginId: 'acme.nope' })).code).toBe('NOT_FOUND');
    expect((await failure(api, 'plugins.uninstall', { pluginId: 'acme.nope' })).code).toBe('NOT_FOUND');
    expect(t.host.plugins.catalog.plugins.map((p) => p.id)).toEqual(expect.arrayContaining(['acme.flags', 'acme.plain']));
  });

  it('lists problems from every source and answers host.info', async () => {
    const { api } = await startApi();
    expect(await call(api, 'host.info', {})).toMatchObject({ version: '9.9.9', face: 'serve', locale: 'en-US' });
    const { problems } = await call(api, 'problems.list', {});
    expect(problems.every((p) => ['plugins', 'registry', 'mcp', 'servers'].includes(p.source))).toBe(true);
  });
});
