import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../../src/core/agents/agentResolver.js';
import { HostPromptError } from '../../../src/core/registry/hostPromptError.js';
import { startTestHost, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { writePlugin, writeProviderPlugin } from '../../helpers/plugins.js';

/**
 * The host's own prompts (its `prompts` table, which nothing wrote before):
 * zh/en pairs, registered under chatos at once, picked by an agent's
 * language, granted to another app like any prompt, and gone with their
 * grants when removed.
 */

async function world() {
  return startTestHost(({ home, pluginRoot }) => {
    // A way-B app (exposes everything) whose agents run as provider app "other": it sees only its own and its grants.
    writePlugin(
      pluginRoot,
      'hub',
      {
        manifestVersion: 1,
        id: 'com.example.hub',
        name: 'Hub',
        version: '1.0.0',
        providerAppId: 'other',
        apps: [{ id: 'hub', name: 'Hub', entry: 'index.mjs', ai: { mcpServers: true, prompts: true } }],
      },
      { 'index.mjs': '' },
    );
    writeMcpYaml(home, { reviewer: { command: 'x' } });
  });
}

const hub = { pluginId: 'com.example.hub', appId: 'hub' };

describe('host prompts', () => {
  it('a zh/en pair is registered under chatos and an agent gets the text in its language', async () => {
    const { host } = await world();
    const prompt = host.registry.prompts.save({ name: 'review', title: 'Review', zh: '请仔细审阅。', en: 'Review carefully.' }, { create: true });
    expect(prompt).toMatchObject({ name: 'review', ids: ['chatos::review', 'chatos::review__en'], grantedTo: [] });
    expect(host.registry.getPrompt('chatos::review__en')).toMatchObject({ content: 'Review carefully.', lang: 'en', providerAppId: 'chatos' });
    for (const language of ['zh', 'en'] as const) {
      const agent = host.agents.create({ id: `a-${language}`, name: 'A', language, uiApps: [{ ...hub, prompt: true, promptIds: ['chatos::review'] }] });
      const resolved = resolveAgent(agent, { registry: host.registry, catalog: host.plugins.catalog, runGate: host.plugins.runGate });
      expect(resolved.prompt.text).toBe(language === 'zh' ? '请仔细审阅。' : 'Review carefully.');
    }
  });

  it('is granted to another app like any prompt (both texts), and removing it takes its grants', async () => {
    const { host } = await world();
    host.registry.prompts.save({ name: 'review', zh: '审阅', en: 'Review' }, { create: true });
    const agent = host.agents.create({ id: 'other-agent', name: 'O', hostAppId: 'other', language: 'en', uiApps: [{ ...hub, prompt: true, promptIds: ['chatos::review'] }] });
    const resolve = () => resolveAgent(agent, { registry: host.registry, catalog: host.plugins.catalog, runGate: host.plugins.runGate });
    expect(resolve().problems.map((p) => p.code)).toContain('AGENT_ID_NOT_VISIBLE');
    expect(host.registry.prompts.setGrant('review', 'other', true).grantedTo).toEqual(['other']);
    expect(resolve().prompt.text).toBe('Review');
    expect(host.registry.prompts.remove('review')).toEqual({ removed: true, revokedGrants: 2 });
    expect(host.registry.listGrants('prompt', 'other')).toEqual([]);
    expect(host.registry.getPrompt('chatos::review')).toBeUndefined();
  });

  it('editing drops a text left empty; bad names and names a server holds are refused', async () => {
    const { host } = await world();
    host.registry.prompts.save({ name: 'p', zh: '中', en: 'en' }, { create: true });
    expect(host.registry.prompts.save({ name: 'p', zh: '中文' }, { create: false })).toMatchObject({ zh: '中文', ids: ['chatos::p'] });
    expect(host.registry.prompts.get('p').en).toBeUndefined();
    expect(host.registry.getPrompt('chatos::p__en')).toBeUndefined();
    const codeOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as HostPromptError).code;
      }
      return 'saved';
    };
    expect(codeOf(() => host.registry.prompts.save({ name: 'p', en: 'x' }, { create: true }))).toBe('PROMPT_EXISTS');
    expect(codeOf(() => host.registry.prompts.save({ name: 'x__en', en: 'x' }, { create: true }))).toBe('PROMPT_INVALID');
    expect(codeOf(() => host.registry.prompts.save({ name: 'empty' }, { create: true }))).toBe('PROMPT_INVALID');
    expect(codeOf(() => host.registry.prompts.save({ name: 'reviewer', en: 'x' }, { create: true }))).toBe('PROMPT_NAME_TAKEN');
    expect(codeOf(() => host.registry.prompts.save({ name: 'nope', en: 'x' }, { create: false }))).toBe('PROMPT_NOT_FOUND');
    for (const name of ['bad name', '-dash', 'a/b', ''])
      expect(
        codeOf(() => host.registry.prompts.save({ name, en: 'x' }, { create: true })),
        name,
      ).toBe('PROMPT_INVALID');
  });

  it("a name a plugin's prompt holds in the host's list (syncAiContributes) is refused, and the plugin's text is left", async () => {
    const { host } = await startTestHost(({ pluginRoot }) => void writeProviderPlugin(pluginRoot, 'com.example.git', 'git_app'), { syncAiContributes: true });
    host.plugins.rescan();
    const copy = 'mcp_com_example_git_main';
    expect(host.registry.prompts.list().map((p) => p.name)).not.toContain(copy);
    let refused: unknown;
    try {
      host.registry.prompts.save({ name: copy, en: 'taken over' }, { create: true });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'PROMPT_NAME_TAKEN', fields: [{ path: 'name', message: "is a plugin's prompt" }] });
    expect(host.registry.getPrompt(`chatos::${copy}`)).toBeUndefined();
    expect(host.registry.getPrompt(`git_app::${copy}`)?.content).not.toBe('taken over');
  });
});
