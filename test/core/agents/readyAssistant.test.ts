import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../../src/api/hostApiService.js';
import { HostApiMethods } from '../../../src/shared/hostApi.js';
import { fixtureServer, startTestHost, writeGatewayPlugin, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { repoRoot } from '../../helpers/tempDir.js';

/**
 * The ready assistant (docs/using/agents.md#a-ready-assistant): made through
 * the API a first run calls, it chats with the model just added and gets the
 * built-in apps' servers and the user's own, nothing the user installed,
 * and no problem to fix.
 */
async function world() {
  const t = await startTestHost(
    ({ home, pluginRoot }) => {
      writeMcpYaml(home, { mine: fixtureServer(), off: fixtureServer({ disabled: true }) });
      writeGatewayPlugin(pluginRoot, 'com.example.extra', [{ appId: 'extra', allowMain: true }]);
    },
    { builtinPluginsDir: path.join(repoRoot, 'plugins') },
  );
  await t.host.models.create({ id: 'local', name: 'Local', api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
  const api = createHostApiService(t.host, { face: 'serve', urls: { uiAppUrl: () => '/', artifactUrl: () => '/' }, version: '0', locale: 'en-US' });
  const create = async (params: unknown) => {
    const reply = await api.handle({ method: 'agents.createReady', params });
    if (!reply.ok) return reply.error;
    return HostApiMethods['agents.createReady'].result.parse(reply.result).agent;
  };
  return { ...t, create };
}

describe('the ready assistant', () => {
  it("gets the built-in apps and the user's own servers, in the user's language, and resolves with no problem", async () => {
    const { host, create } = await world();
    const agent = await create({ modelId: 'local', language: 'en' });
    if ('code' in agent) throw new Error(agent.message);
    expect(agent).toMatchObject({ id: 'assistant', name: 'Assistant', language: 'en', modelId: 'local', hostAppId: 'chatos' });
    expect(agent.uiApps.map((u) => `${u.pluginId}/${u.appId}`)).toEqual(['chatos.canvas/canvas', 'chatos.notes/notes', 'chatos/chatos']);
    const resolved = host.agents.resolve(agent);
    expect(resolved.problems).toEqual([]);
    expect(resolved.serverIds).toEqual(['chatos.canvas::chatos.canvas.canvas', 'chatos.notes::chatos.notes.notes', 'chatos::time', 'chatos::calculator', 'chatos::mine']);
    expect(resolved.prompt.parts.map((p) => p.lang)).toEqual(['en', 'en']);

    // A second one gets its own id; a Chinese one its Chinese name.
    const zh = await create({ modelId: 'local', language: 'zh' });
    expect(zh).toMatchObject({ id: 'assistant-2', name: '助手', language: 'zh' });
  });

  it('a fresh install: the safe built-in tools (time, calculator) are switched on for it and work at once; fetch is left to the editor', async () => {
    const { host, create } = await world();
    expect(host.mcp.builtins.list().map((t) => `${t.name}:${t.enabled}`)).toEqual(['time:false', 'fetch:false', 'calculator:false']);
    const agent = await create({ modelId: 'local', language: 'en' });
    if ('code' in agent) throw new Error(agent.message);
    expect(host.mcp.builtins.list().map((t) => `${t.name}:${t.enabled}`)).toEqual(['time:true', 'fetch:false', 'calculator:true']);
    const resolved = host.agents.resolve(agent);
    expect(resolved.serverIds).toEqual(expect.arrayContaining(['chatos::time', 'chatos::calculator']));
    expect(resolved.serverIds).not.toContain('chatos::fetch');
    const tools = (await host.tools.list(resolved.callerFor('main', 'conv-ready'))).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['mcp_time_get_current_time', 'mcp_calculator_calculate']));
    const answer = await host.tools.call(resolved.callerFor('main', 'conv-ready'), 'mcp_calculator_calculate', { expression: '6*7' });
    expect(JSON.stringify(answer.result.content)).toContain('42');
  });

  it('refuses a model that does not exist, naming the field', async () => {
    const { create, host } = await world();
    expect(await create({ modelId: 'nope', language: 'en' })).toMatchObject({ code: 'INVALID', fields: [{ path: 'modelId', message: 'names no model entry' }] });
    expect(host.agents.list()).toEqual([]);
  });
});
