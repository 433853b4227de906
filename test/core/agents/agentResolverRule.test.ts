import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgent, type AgentResolverDeps } from '../../../src/core/agents/agentResolver.js';
import { RUN_ALLOWED } from '../../../src/core/policy/runGate.js';
import { RegistryCenter } from '../../../src/core/registry/registryCenter.js';
import { RecordsStore } from '../../../src/core/store/recordsStore.js';
import { AgentSchema, type AgentInput } from '../../../src/shared/agents.js';
import type { AppContribution } from '../../../src/shared/appContribution.js';
import { tempDir } from '../../helpers/tempDir.js';

/**
 * The resolving rule on its own (docs/rules/agents.md#resolving-a-run): a real
 * registry in a sql.js file and no plugins, no host. The whole-host cases
 * (plugins, trust, the shipped world) are in agentResolver.test.ts.
 */
const clock = { now: () => Date.parse('2026-11-23T00:00:00Z') };
const stores: RecordsStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function world() {
  const store = await RecordsStore.open(path.join(tempDir(), 'admin.db'), { clock });
  stores.push(store);
  const registry = new RegistryCenter(store, clock);
  for (const app of ['aide', 'git_app', 'hub']) registry.registerApp(app, 'test');
  registry.registerMcpServer('aide', { name: 'files', url: 'cmd://node /srv/files.js' });
  registry.registerMcpServer('git_app', { name: 'git', url: 'cmd://node /srv/git.js' });
  registry.registerPrompt('aide', { name: 'mcp_style', content: '用中文回答', lang: 'zh' });
  registry.registerPrompt('aide', { name: 'mcp_style__en', content: 'Answer in English', lang: 'en' });
  registry.registerPrompt('git_app', { name: 'mcp_lone', content: 'Only one language' });
  const deps: AgentResolverDeps = {
    registry,
    catalog: { apps: [TOOLS], getAiContribution: (pluginId, appId) => (pluginId === TOOLS.pluginId && appId === TOOLS.appId ? TOOLS : undefined) },
    runGate: { checkCached: () => RUN_ALLOWED },
  };
  return { registry, deps };
}

/**
 * The app `tools`: installed, with no server or prompt of its own, exposing
 * every server and prompt (way B), so what decides in these cases is the
 * host app's sight alone. An app not installed exposes nothing (see
 * agentExposure.test.ts).
 */
const TOOLS = {
  pluginId: 'tools',
  appId: 'main',
  providerAppId: 'tools',
  pluginDir: '/p/tools',
  serverName: 'tools.main',
  promptNames: { zh: 'mcp_tools_main', en: 'mcp_tools_main__en' },
  exposure: { mcpServers: { exposure: { mode: 'all' }, source: 'inline' }, prompts: { exposure: { mode: 'all' }, source: 'inline' } },
} as unknown as AppContribution;

/** An agent using the app `tools` (its own server and prompt are not part of these cases). */
const agent = (input: Partial<AgentInput> & { mcpServerIds?: string[]; promptIds?: string[] }) =>
  AgentSchema.parse({
    id: 'a1',
    name: 'A',
    hostAppId: input.hostAppId ?? 'aide',
    language: input.language ?? 'zh',
    uiApps: [{ pluginId: 'tools', appId: 'main', mcp: true, prompt: true, mcpServerIds: input.mcpServerIds ?? [], promptIds: input.promptIds ?? [] }],
  });

const codes = (problems: { code: string; path: string }[]) => problems.filter((p) => p.code !== 'AGENT_APP_MISSING').map((p) => `${p.code} ${p.path}`);

describe('resolving an agent (the rule, without a host)', () => {
  it("offers what its host app may see: its own, then what it is granted, never another app's until granted", async () => {
    const { registry, deps } = await world();
    const before = resolveAgent(agent({ mcpServerIds: ['aide::files', 'git_app::git'] }), deps);
    expect(before.serverIds).toEqual(['aide::files']);
    expect(codes(before.problems)).toEqual(['AGENT_ID_NOT_VISIBLE uiApps[0].mcpServerIds[1]']);
    expect(before.problems.find((p) => p.code === 'AGENT_ID_NOT_VISIBLE')?.hint).toBe('grant it: chatos grant aide git_app::git (or remove it from the agent)');

    registry.grantMcpServerAccess('aide', 'git_app::git');
    const after = resolveAgent(agent({ mcpServerIds: ['aide::files', 'git_app::git', 'aide::files'] }), deps);
    expect(after.serverIds).toEqual(['aide::files', 'git_app::git']);
    expect(codes(after.problems)).toEqual([]);
    expect(after.callerFor('sub', 'c1')).toEqual({ appId: 'aide', agentId: 'a1', conversationId: 'c1', flow: 'sub', serverIds: ['aide::files', 'git_app::git'] });
  });

  it("gives a prompt pair in the agent's language, the other one when its own is missing, and a lone prompt as it is", async () => {
    const { registry, deps } = await world();
    registry.grantPromptAccess('aide', 'git_app::mcp_lone');
    const zh = resolveAgent(agent({ promptIds: ['aide::mcp_style__en', 'git_app::mcp_lone'] }), deps);
    expect(zh.prompt.text).toBe('用中文回答\n\nOnly one language');
    expect(zh.prompt.parts.map((p) => [p.id, p.lang])).toEqual([
      ['aide::mcp_style', 'zh'],
      ['git_app::mcp_lone', 'zh'],
    ]);
    const en = resolveAgent(agent({ language: 'en', promptIds: ['aide::mcp_style'] }), deps);
    expect(en.prompt.text).toBe('Answer in English');
  });

  it('says what does not resolve, with the likely fix, and drops nothing from the stored agent', async () => {
    const { deps } = await world();
    const stored = agent({ hostAppId: 'nobody', mcpServerIds: ['aide::file', 'aide::mcp_style'], promptIds: ['aide::files'] });
    const resolved = resolveAgent(stored, deps);
    expect(resolved.serverIds).toEqual([]);
    expect(codes(resolved.problems)).toEqual([
      'AGENT_HOST_APP_UNKNOWN hostAppId',
      'AGENT_ID_MISSING uiApps[0].mcpServerIds[0]',
      'AGENT_ID_MISSING uiApps[0].mcpServerIds[1]',
      'AGENT_ID_MISSING uiApps[0].promptIds[0]',
    ]);
    const messages = resolved.problems.filter((p) => p.code !== 'AGENT_APP_MISSING').map((p) => p.message);
    expect(messages[1]).toBe('no server with registry id "aide::file"; did you mean "aide::files"?');
    expect(messages[2]).toContain('(that id is a prompt: list it under promptIds)');
    expect(messages[3]).toContain('(that id is a server: list it under mcpServerIds)');
    expect(resolved.agent.uiApps[0]!.mcpServerIds).toEqual(['aide::file', 'aide::mcp_style']);
  });
});
