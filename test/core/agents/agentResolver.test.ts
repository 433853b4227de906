import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../../src/core/agents/agentResolver.js';
import type { Host } from '../../../src/core/host.js';
import { GatewayError } from '../../../src/core/tools/toolGateway.js';
import type { AgentInput } from '../../../src/shared/agents.js';
import { startTestHost, textOf, trustPlugin, writeGatewayPlugin } from '../../helpers/gatewayHost.js';
import { writePlugin, writeProviderPlugin } from '../../helpers/plugins.js';
import { repoRoot } from '../../helpers/tempDir.js';

/** The shipped world: built-in Notes (own server, zh/en prompts) and Workbench, aide from bundled defaults. */
const shipped = { builtinPluginsDir: path.join(repoRoot, 'plugins'), defaultsDir: path.join(repoRoot, 'defaults') };

const NOTES_SERVER = 'chatos.notes::chatos.notes.notes';
const NOTES_ZH = 'chatos.notes::mcp_chatos_notes_notes';
const NOTES_EN = 'chatos.notes::mcp_chatos_notes_notes__en';
const GIT_SERVER = 'vcs_app::com.example.git.status';
const GIT_ZH = 'vcs_app::mcp_com_example_git_status';
const GIT_EN = 'vcs_app::mcp_com_example_git_status__en';

const notesText = (lang: 'zh' | 'en') => fs.readFileSync(path.join(repoRoot, 'plugins', 'notes', 'prompts', `${lang}.md`), 'utf8').trim();
const aideText = (name: string) => fs.readFileSync(path.join(repoRoot, 'defaults', 'providers', 'aide', 'prompts', `${name}.md`), 'utf8').trim();

/**
 * The shipped world plus com.example.git, trusted (an untrusted plugin
 * reaches no agent: see its own tests), and a way-B hub app exposing every
 * server and prompt, under which an agent may select anything (docs/rules/names-and-exposure.md#exposure: an
 * app bounds what is selected under it; Notes and Git expose nothing).
 */
async function world(setup: (pluginRoot: string) => void = () => {}) {
  const t = await startTestHost(({ pluginRoot }) => {
    writeProviderPlugin(pluginRoot, 'com.example.git', 'vcs_app', ['status']);
    writePlugin(
      pluginRoot,
      'hub',
      { manifestVersion: 1, id: 'com.example.hub', name: 'Hub', version: '1.0.0', apps: [{ id: 'hub', name: 'Hub', entry: 'index.mjs', ai: { mcpServers: true, prompts: true } }] },
      { 'index.mjs': '' },
    );
    setup(pluginRoot);
  }, shipped);
  trustPlugin(t.host, 'com.example.git');
  return t;
}

function resolveNew(host: Host, input: AgentInput) {
  const agent = host.agents.create(input);
  return resolveAgent(agent, { registry: host.registry, catalog: host.plugins.catalog, runGate: host.plugins.runGate });
}

const notesApp = { pluginId: 'chatos.notes', appId: 'notes' };
const gitApp = { pluginId: 'com.example.git', appId: 'status' };
const hubApp = { pluginId: 'com.example.hub', appId: 'hub' };
const codes = (problems: { code: string; path: string }[]) => problems.map((p) => `${p.code} ${p.path}`);

describe('resolveAgent: servers', () => {
  it("offers an app's own server when its MCP is on, plus its selected ids, in selection order without repeats", async () => {
    const { host } = await world();
    const resolved = resolveNew(host, {
      id: 'a1',
      name: 'A1',
      uiApps: [
        { ...notesApp, mcp: true, mcpServerIds: [NOTES_SERVER] },
        { ...hubApp, mcp: true, mcpServerIds: ['aide::memory', NOTES_SERVER] },
        { ...gitApp, mcp: true },
        { ...hubApp, mcp: true, mcpServerIds: ['aide::project_files'] },
      ],
    });
    expect(resolved.serverIds).toEqual([NOTES_SERVER, 'aide::memory', GIT_SERVER, 'aide::project_files']);
    expect(resolved.problems).toEqual([]);
  });

  it('offers nothing of an app whose MCP is off, even with ids selected', async () => {
    const { host } = await world();
    const resolved = resolveNew(host, {
      id: 'off',
      name: 'Off',
      uiApps: [
        { ...hubApp, mcp: false, mcpServerIds: ['aide::memory'] },
        { ...gitApp, mcp: true },
      ],
    });
    expect(resolved.serverIds).toEqual([GIT_SERVER]);
    expect(resolved.problems).toEqual([]);
  });

  it('keeps only what the host app may see, reports the rest, and follows a grant at once', async () => {
    const { host } = await world();
    const agent = host.agents.create({ id: 'aider', name: 'Aider', hostAppId: 'aide', uiApps: [{ ...hubApp, mcp: true, mcpServerIds: ['aide::memory', GIT_SERVER] }] });
    const before = resolveAgent(agent, { registry: host.registry, catalog: host.plugins.catalog, runGate: host.plugins.runGate });
    expect(before.serverIds).toEqual(['aide::memory']);
    expect(before.problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'AGENT_ID_NOT_VISIBLE',
        file: 'aider',
        path: 'uiApps[0].mcpServerIds[1]',
        hint: `grant it: chatos grant aide ${GIT_SERVER} (or remove it from the agent)`,
      }),
    ]);
    expect(before.callerFor('main', 'c1')).toEqual({ appId: 'aide', agentId: 'aider', conversationId: 'c1', flow: 'main', serverIds: ['aide::memory'] });

    host.registry.grantMcpServerAccess('aide', GIT_SERVER);
    const after = resolveAgent(agent, { registry: host.registry, catalog: host.plugins.catalog, runGate: host.plugins.runGate });
    expect(after.serverIds).toEqual(['aide::memory', GIT_SERVER]);
    expect(after.problems).toEqual([]);
  });

  it("the app's own server also needs the host app's sight", async () => {
    const { host } = await world();
    const resolved = resolveNew(host, { id: 'own', name: 'Own', hostAppId: 'aide', uiApps: [{ ...gitApp, mcp: true }] });
    expect(resolved.serverIds).toEqual([]);
    expect(codes(resolved.problems)).toEqual(['AGENT_ID_NOT_VISIBLE uiApps[0].mcp']);
  });
});

describe('resolveAgent: prompt', () => {
  it("gives an app's own prompt in the agent's language", async () => {
    const { host } = await world();
    const zh = resolveNew(host, { id: 'zh', name: 'zh', language: 'zh', uiApps: [{ ...notesApp, prompt: true }] });
    expect(zh.prompt.text).toBe(notesText('zh'));
    expect(zh.prompt.parts).toEqual([{ id: NOTES_ZH, title: 'Notes', lang: 'zh', source: 'app' }]);
    const en = resolveNew(host, { id: 'en', name: 'en', language: 'en', uiApps: [{ ...notesApp, prompt: true }] });
    expect(en.prompt.text).toBe(notesText('en'));
    expect(en.prompt.parts).toEqual([{ id: NOTES_EN, title: 'Notes', lang: 'en', source: 'app' }]);
  });

  it("an app's own prompt falls back to the other language when its own is missing", async () => {
    const { host } = await world((root) =>
      writePlugin(
        root,
        'only-en',
        { manifestVersion: 1, id: 'com.example.onlyen', name: 'x', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcpPrompt: { en: 'en.md' } } }] },
        { 'index.mjs': '', 'en.md': 'English only' },
      ),
    );
    trustPlugin(host, 'com.example.onlyen');
    const resolved = resolveNew(host, { id: 'zh', name: 'zh', language: 'zh', uiApps: [{ pluginId: 'com.example.onlyen', appId: 'main', prompt: true }] });
    expect(resolved.prompt.text).toBe('English only');
    expect(resolved.prompt.parts).toEqual([{ id: 'com.example.onlyen::mcp_com_example_onlyen_main__en', lang: 'en', source: 'app' }]);
    expect(resolved.problems).toEqual([]);
  });

  it('a registry prompt id of a pair gives the variant in the agent language, whichever variant it names', async () => {
    const { host } = await world();
    const en = resolveNew(host, {
      id: 'en',
      name: 'en',
      language: 'en',
      uiApps: [
        { ...gitApp, prompt: true },
        { ...hubApp, promptIds: [GIT_ZH], prompt: true },
      ],
    });
    expect(en.prompt.parts.map((p) => [p.id, p.lang, p.source])).toEqual([
      [GIT_EN, 'en', 'app'], // the app's own prompt comes first…
    ]);
    // …and the selected id resolves to the same variant, so it is not repeated.
    expect(en.prompt.text).toBe('status prompt');

    const zh = resolveNew(host, { id: 'zh', name: 'zh', language: 'zh', uiApps: [{ ...hubApp, prompt: true, promptIds: [GIT_EN] }] });
    expect(zh.prompt.parts).toEqual([{ id: GIT_ZH, lang: 'zh', source: 'registry' }]);
    expect(zh.prompt.text).toBe('status 的提示');
  });

  it('a registry prompt with one variant left is used in that language, with no problem', async () => {
    const { host } = await world((root) =>
      writePlugin(
        root,
        'only-en',
        { manifestVersion: 1, id: 'com.example.onlyen', name: 'x', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcpPrompt: { en: 'en.md' } } }] },
        { 'index.mjs': '', 'en.md': 'English only' },
      ),
    );
    trustPlugin(host, 'com.example.onlyen');
    // The zh id is named, but only the __en variant is registered.
    const resolved = resolveNew(host, { id: 'zh', name: 'zh', language: 'zh', uiApps: [{ ...hubApp, prompt: true, promptIds: ['com.example.onlyen::mcp_com_example_onlyen_main'] }] });
    expect(resolved.prompt.parts).toEqual([{ id: 'com.example.onlyen::mcp_com_example_onlyen_main__en', lang: 'en', source: 'registry' }]);
    expect(resolved.problems).toEqual([]);
  });

  it('joins, in uiApps order, each app’s own prompt then its selected ids, with blank lines; a prompt-off app adds nothing', async () => {
    const { host } = await world();
    const resolved = resolveNew(host, {
      id: 'order',
      name: 'Order',
      language: 'en',
      uiApps: [
        { pluginId: 'chatos.workbench', appId: 'panel', prompt: true, promptIds: ['aide::mcp_memory', 'aide::default', 'aide::mcp_memory'] },
        { ...hubApp, prompt: false, promptIds: ['aide::mcp_project_files'] },
        { ...notesApp, prompt: true },
        { ...hubApp, prompt: true, promptIds: [GIT_ZH, GIT_EN] },
      ],
    });
    expect(resolved.prompt.parts).toEqual([
      { id: 'aide::mcp_memory', title: 'Memory', lang: 'en', source: 'registry' },
      { id: 'aide::default', title: 'AIDE', lang: 'en', source: 'registry' },
      { id: NOTES_EN, title: 'Notes', lang: 'en', source: 'app' },
      { id: GIT_EN, lang: 'en', source: 'registry' },
    ]);
    expect(resolved.prompt.text).toBe([aideText('mcp_memory'), aideText('default'), notesText('en'), 'status prompt'].join('\n\n'));
    expect(resolved.problems).toEqual([]);
  });
});

describe('resolveAgent: problems', () => {
  it('reports missing ids and apps with their JSON path, and never drops them from the stored agent', async () => {
    const { host } = await world();
    const uiApps = [
      { ...notesApp, mcp: true, prompt: true },
      { ...hubApp, mcp: true, prompt: true, mcpServerIds: ['aide::memory', 'aide::memroy', GIT_ZH], promptIds: ['aide::nothing'] },
      { pluginId: 'com.example.gone', appId: 'main', mcp: true, mcpServerIds: [] },
    ];
    const resolved = resolveNew(host, { id: 'stale', name: 'Stale', uiApps });
    expect(resolved.problems.every((p) => p.severity === 'warning' && p.file === 'stale')).toBe(true);
    expect(codes(resolved.problems)).toEqual([
      'AGENT_ID_MISSING uiApps[1].mcpServerIds[1]',
      'AGENT_ID_MISSING uiApps[1].mcpServerIds[2]',
      'AGENT_ID_MISSING uiApps[1].promptIds[0]',
      'AGENT_APP_MISSING uiApps[2]',
    ]);
    expect(resolved.problems[0]!.message).toContain('did you mean "aide::memory"');
    expect(resolved.problems[1]!.message).toContain('is a prompt');
    // What still resolves is still offered.
    expect(resolved.serverIds).toEqual([NOTES_SERVER, 'aide::memory']);
    expect(resolved.prompt.parts.map((p) => p.id)).toEqual([NOTES_ZH]);
    expect(host.agents.get('stale')!.uiApps.map((a) => [a.mcpServerIds, a.promptIds])).toEqual(uiApps.map((a) => [a.mcpServerIds ?? [], a.promptIds ?? []]));
  });

  it('an app whose plugin vanished is reported after a rescan; its ids stay in the agent', async () => {
    const { host, pluginRoot } = await world();
    const agent = host.agents.create({ id: 'git', name: 'Git', uiApps: [{ ...gitApp, mcp: true, prompt: true, mcpServerIds: [GIT_SERVER], promptIds: [GIT_EN] }] });
    expect(host.agents.resolve(agent).problems).toEqual([]);

    fs.rmSync(path.join(pluginRoot, 'com.example.git'), { recursive: true });
    host.plugins.rescan();
    const after = host.agents.resolve(host.agents.get('git')!);
    expect(codes(after.problems)).toEqual(['AGENT_APP_MISSING uiApps[0]', 'AGENT_ID_MISSING uiApps[0].mcpServerIds[0]', 'AGENT_ID_MISSING uiApps[0].promptIds[0]']);
    expect(after.serverIds).toEqual([]);
    expect(after.prompt).toEqual({ text: '', parts: [] });
    expect(host.agents.get('git')!.uiApps[0]).toMatchObject({ mcpServerIds: [GIT_SERVER], promptIds: [GIT_EN] });
  });

  it('a prompt the host app may not see is reported and left out', async () => {
    const { host } = await world();
    const resolved = resolveNew(host, { id: 'p', name: 'P', hostAppId: 'aide', uiApps: [{ ...hubApp, prompt: true, promptIds: ['aide::default', GIT_ZH] }] });
    expect(codes(resolved.problems)).toEqual(['AGENT_ID_NOT_VISIBLE uiApps[0].promptIds[1]']);
    expect(resolved.prompt.parts.map((p) => p.id)).toEqual(['aide::default']);
  });

  it("an app's own prompt counts only when the host app may see its registered copy", async () => {
    const { host } = await world();
    const agent = host.agents.create({ id: 'g', name: 'G', hostAppId: 'aide', uiApps: [{ ...gitApp, prompt: true }] });
    const before = host.agents.resolve(agent);
    expect(codes(before.problems)).toEqual(['AGENT_ID_NOT_VISIBLE uiApps[0].prompt']);
    expect(before.prompt).toEqual({ text: '', parts: [] });
    host.registry.grantPromptAccess('aide', GIT_ZH);
    const after = host.agents.resolve(agent);
    expect(after.problems).toEqual([]);
    expect(after.prompt.parts).toEqual([{ id: GIT_ZH, lang: 'zh', source: 'app' }]);
  });

  it('an unknown host app is reported', async () => {
    const { host } = await world();
    const resolved = resolveNew(host, { id: 'h', name: 'H', hostAppId: 'aid', uiApps: [] });
    expect(codes(resolved.problems)).toEqual(['AGENT_HOST_APP_UNKNOWN hostAppId']);
    expect(resolved.problems[0]!.message).toContain('did you mean "aide"');
  });
});

describe('resolveAgent through the gateway (real stdio servers)', () => {
  const PLUGIN = 'com.example.gw';
  const ECHO_A = 'mcp_com_example_gw_a_echo';
  const ECHO_B = 'mcp_com_example_gw_b_echo';

  it("the agent's caller is offered and may call only its selected servers; the flow still applies", async () => {
    const { host } = await startTestHost(({ pluginRoot }) =>
      writeGatewayPlugin(pluginRoot, PLUGIN, [
        { appId: 'a', allowMain: true, mcpServers: true },
        { appId: 'b', allowMain: true },
        { appId: 'c', allowMain: false },
      ]),
    );
    trustPlugin(host, PLUGIN);
    const agent = host.agents.create({ id: 'only-a', name: 'Only A', uiApps: [{ pluginId: PLUGIN, appId: 'a', mcp: true, mcpServerIds: [`${PLUGIN}::${PLUGIN}.c`] }] });
    const resolved = host.agents.resolve(agent);
    const main = resolved.callerFor('main', 'conv-agent');
    expect(host.tools.visibleServers(main).map((s) => s.id)).toEqual([`${PLUGIN}::${PLUGIN}.a`]);
    expect(host.tools.visibleServers(resolved.callerFor('sub', 'conv-agent')).map((s) => s.id)).toEqual([`${PLUGIN}::${PLUGIN}.a`, `${PLUGIN}::${PLUGIN}.c`]);

    const listed = await host.tools.list(main);
    expect(new Set(listed.tools.filter((t) => t.name !== 'mcp_release').map((t) => t.serverId))).toEqual(new Set([`${PLUGIN}::${PLUGIN}.a`]));
    expect(textOf((await host.tools.call(main, ECHO_A, { text: 'hi' })).result)).toBe('hi');
    const refused = await host.tools.call(main, ECHO_B, { text: 'x' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).message).toContain('not among the servers selected');
  });
});
