import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../../src/api/hostApiService.js';
import { HostApiMethods } from '../../../src/shared/hostApi.js';
import { startTestHost } from '../../helpers/gatewayHost.js';

/**
 * docs/using/agents.md#ready-built-in-tools: time, fetch and calculator are ready built-ins "the user can add
 * in one click". The one step the agent editor calls (agents.addBuiltin)
 * switches the tool on when it is off and picks it for that agent only.
 */
async function world() {
  const t = await startTestHost();
  const api = createHostApiService(t.host, { face: 'serve', urls: { uiAppUrl: () => '/', artifactUrl: () => '/' }, version: '0', locale: 'en-US' });
  const add = async (params: unknown) => {
    const reply = await api.handle({ method: 'agents.addBuiltin', params });
    if (!reply.ok) return reply.error;
    return HostApiMethods['agents.addBuiltin'].result.parse(reply.result).agent;
  };
  const agent = (id: string) => t.host.agents.create({ id, name: id, hostAppId: 'chatos', uiApps: [] });
  return { ...t, add, agent };
}

describe('adding a ready built-in tool to one agent', () => {
  it('switches it on, gives it to that agent, and its tool works there at once; the other agent gets nothing', async () => {
    const { host, add, agent } = await world();
    agent('writer');
    agent('other');
    expect(host.mcp.builtins.list().find((t) => t.name === 'calculator')?.enabled).toBe(false);

    const added = await add({ agentId: 'writer', name: 'calculator' });
    if ('code' in added) throw new Error(added.message);
    expect(host.mcp.builtins.list().find((t) => t.name === 'calculator')?.enabled).toBe(true);
    const resolved = host.agents.resolve(added);
    expect(resolved.problems).toEqual([]);
    expect(resolved.serverIds).toEqual(['chatos::calculator']);
    const answer = await host.tools.call(resolved.callerFor('main', 'conv-calc'), 'mcp_calculator_calculate', { expression: '6*7' });
    expect(JSON.stringify(answer.result)).toContain('42');

    expect(host.agents.resolve(host.agents.get('other')!).serverIds).toEqual([]);
    // Once is enough: adding again changes nothing.
    const again = await add({ agentId: 'writer', name: 'calculator' });
    if ('code' in again) throw new Error(again.message);
    expect(again.uiApps).toEqual(added.uiApps);
  });

  it('keeps what the agent already picked, and adds fetch beside it', async () => {
    const { host, add, agent } = await world();
    agent('reader');
    await add({ agentId: 'reader', name: 'time' });
    const added = await add({ agentId: 'reader', name: 'fetch' });
    if ('code' in added) throw new Error(added.message);
    expect(host.agents.resolve(added).serverIds).toEqual(['chatos::time', 'chatos::fetch']);
  });

  it('adds the settings assistant the same way: a new agent has none of its tools; added, that agent alone is offered them', async () => {
    const { host, add, agent } = await world();
    const listed = async (id: string) => (await host.tools.list(host.agents.resolve(host.agents.get(id)!).callerFor('main', `conv-${id}`))).tools.map((t) => t.name);
    agent('manager');
    agent('other');
    expect(await listed('manager')).not.toContain('mcp_settings_list_agents');

    const added = await add({ agentId: 'manager', name: 'settings' });
    if ('code' in added) throw new Error(added.message);
    expect(host.agents.resolve(added).serverIds).toEqual(['chatos::settings']);
    expect(await listed('manager')).toEqual(expect.arrayContaining(['mcp_settings_list_agents', 'mcp_settings_delete_agent']));
    expect(await listed('other')).toEqual([]);
    // Nothing was switched on for it: the built-in tools stay as they were.
    expect(host.mcp.builtins.list().every((t) => !t.enabled)).toBe(true);
  });

  it('refuses an unknown tool or agent, naming what is wrong, and changes nothing', async () => {
    const { host, add, agent } = await world();
    agent('writer');
    expect(await add({ agentId: 'writer', name: 'shell' })).toMatchObject({ code: 'MCP_BUILTIN_UNKNOWN', hint: expect.stringContaining('time, fetch, calculator') });
    expect(await add({ agentId: 'nobody', name: 'time' })).toMatchObject({ code: 'AGENT_NOT_FOUND' });
    expect(host.mcp.builtins.list().every((t) => !t.enabled)).toBe(true);
    expect(host.agents.get('writer')?.uiApps).toEqual([]);
  });
});
