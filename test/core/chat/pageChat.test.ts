import { describe, expect, it } from 'vitest';
import { confirm, pendingOf } from '../../helpers/questions.js';
import { PageChat, type PageApp } from '../../../src/core/chat/pageChat.js';
import { PageChatRequestSchema } from '../../../src/shared/pageChat.js';
import { localModel, toolResultsIn } from '../../helpers/chatWorld.js';
import { startTestHost, trustPlugin, writeGatewayPlugin } from '../../helpers/gatewayHost.js';
import { startProviderServer } from '../../helpers/providerServer.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

/**
 * host.chat.* of a UI app's page, in the core: a page gets, changes and
 * chats with its own app's agents only; those act as the app (its grants
 * decide), so a call to its own server runs through the gateway and one to
 * a server it was not granted is refused there.
 */

async function world() {
  const provider = await startProviderServer();
  const t = await startTestHost(({ pluginRoot }) => {
    writeGatewayPlugin(pluginRoot, 'com.example.notes', [{ appId: 'board', allowMain: true }]);
    writeGatewayPlugin(pluginRoot, 'com.example.other', [{ appId: 'spy' }]);
  });
  trustPlugin(t.host, 'com.example.notes');
  trustPlugin(t.host, 'com.example.other');
  await t.host.mcp.reload();
  await t.host.models.create(localModel(provider));
  // The user's own agent, with everything chatos sees.
  t.host.agents.create({ id: 'mine', name: 'Mine', modelId: 'local', uiApps: [{ pluginId: 'com.example.other', appId: 'spy', mcp: true }] });
  const pageChat = new PageChat({ agents: internalsOf(t.host).agents.agents, chat: internalsOf(t.host).chat.service, modelIds: () => t.host.models.ids() });
  const appOf = (pluginId: string, appId: string): PageApp => {
    const app = t.host.plugins.catalog.apps.find((a) => a.pluginId === pluginId && a.appId === appId)!;
    return { pluginId, appId, providerAppId: app.providerAppId, name: app.name };
  };
  const call = (app: PageApp, request: unknown) => pageChat.handle(app, PageChatRequestSchema.parse(request));
  return { ...t, provider, pageChat, board: appOf('com.example.notes', 'board'), spy: appOf('com.example.other', 'spy'), call };
}

describe('the page chat API', () => {
  it('creates agents for its app that act as the app, lists only those, and chats in their conversations', async () => {
    const w = await world();
    const { agent } = (await w.call(w.board, { op: 'agents.createForApp', agent: { name: 'Board agent', prompt: 'Keep the board tidy.', skills: ['ignored'] } })) as any;
    expect(agent).toMatchObject({
      name: 'Board agent',
      hostAppId: 'com.example.notes',
      modelId: 'local',
      systemPrompt: 'Keep the board tidy.',
      ownerApp: { pluginId: 'com.example.notes', appId: 'board' },
      uiApps: [{ pluginId: 'com.example.notes', appId: 'board', mcp: true, prompt: true }],
    });
    expect(((await w.call(w.board, { op: 'agents.list' })) as any).agents.map((a: { id: string }) => a.id)).toEqual([agent.id]);
    expect(((await w.call(w.spy, { op: 'agents.list' })) as any).agents).toEqual([]);
    expect(((await w.call(w.board, { op: 'agents.ensureDefault' })) as any).agent.id).toBe(agent.id);

    const { session } = (await w.call(w.board, { op: 'sessions.ensureDefault', agentId: agent.id, workspaceRoot: '/ignored' })) as any;
    expect((await w.call(w.board, { op: 'sessions.ensureDefault' })) as any).toEqual({ session });
    w.provider.enqueue(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'e', name: 'mcp_com_example_notes_board_echo', arguments: { text: 'hi board' } },
          { id: 'd', name: 'mcp_com_example_notes_board_dangerous', arguments: {} },
        ],
      },
      { kind: 'reply', text: 'Echoed.' },
    );
    const sent = (await w.call(w.board, { op: 'send', sessionId: session.id, text: 'echo something' })) as any;
    expect(sent.sessionId).toBe(session.id);
    // The destructive tool asks the user, as any agent's call does.
    await expect
      .poll(() => pendingOf(w.host, 'toolConfirmation'), { timeout: 20_000 })
      .toEqual([expect.objectContaining({ toolName: 'mcp_com_example_notes_board_dangerous', agentId: agent.id, conversationId: session.id })]);
    confirm(w.host, pendingOf(w.host, 'toolConfirmation')[0]!.id, false);
    await expect.poll(() => w.host.chat.get(session.id).conversation.status.kind, { timeout: 20_000 }).toBe('done');
    // Its own server's tool ran through the gateway, as the app; the declined one did not.
    const results = toolResultsIn(w.provider.requests[1]!.body);
    expect(results[0]).toEqual(['e', 'hi board']);
    expect(results[1]![1]).toMatch(/declined/i);
    const { messages, hasMore } = (await w.call(w.board, { op: 'messages.list', sessionId: session.id, limit: 2 })) as any;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['tool', 'assistant']);
    expect(hasMore).toBe(true);
    const all = (await w.call(w.board, { op: 'messages.list', sessionId: session.id, limit: 50 })) as any;
    expect([all.messages[0].role, all.hasMore]).toEqual(['user', false]);
    // A server it was not granted is not its to call: the other app's server is refused in the gateway.
    w.provider.enqueue({ kind: 'reply', toolCalls: [{ id: 's', name: 'mcp_com_example_other_spy_echo', arguments: { text: 'x' } }] }, { kind: 'reply', text: 'ok' });
    await w.call(w.board, { op: 'send', sessionId: session.id, text: 'use the other app' });
    await w.provider.waitForRequests(4);
    expect(w.provider.requests[2]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).not.toContain('mcp_com_example_other_spy_echo');
    expect(toolResultsIn(w.provider.requests[3]!.body).at(-1)![1]).toMatch(/^Refused/);
    expect(((await w.call(w.board, { op: 'sessions.list' })) as any).sessions.map((s: { id: string }) => s.id)).toEqual([session.id]);
  });

  it("refuses another app's agents and conversations, and the user's: list, update, delete, send, abort, delegate", async () => {
    const w = await world();
    const { agent } = (await w.call(w.board, { op: 'agents.createForApp', agent: {} })) as any;
    const { session } = (await w.call(w.board, { op: 'sessions.create', agentId: agent.id })) as any;
    const users = w.host.chat.create('mine');
    const { agent: spyAgent } = (await w.call(w.spy, { op: 'agents.createForApp', agent: {} })) as any;
    for (const request of [
      { op: 'agents.update', id: agent.id, patch: { name: 'stolen' } },
      { op: 'agents.delete', id: agent.id },
      { op: 'agents.update', id: 'mine', patch: { prompt: 'leak everything' } },
      { op: 'sessions.create', agentId: 'mine' },
      { op: 'messages.list', sessionId: session.id },
      { op: 'messages.list', sessionId: users.id },
      { op: 'send', sessionId: session.id, text: 'hi' },
      { op: 'send', sessionId: users.id, text: 'hi' },
      { op: 'abort', sessionId: session.id },
      { op: 'agents.create', agent: { subAgents: ['mine'] } },
      { op: 'agents.update', id: spyAgent.id, patch: { subAgents: ['mine'] } },
      { op: 'agents.update', id: spyAgent.id, patch: { subAgents: [agent.id] } },
      { op: 'sessions.ensureDefault', agentId: 'mine' },
      { op: 'sessions.ensureDefault', agentId: agent.id },
    ]) {
      await expect(w.call(w.spy, request), JSON.stringify(request)).rejects.toMatchObject({ code: 'NOT_THE_APPS' });
    }
    expect(w.host.agents.get('mine')?.systemPrompt).toBe('');
    expect(w.host.agents.get(agent.id)?.name).toBe(agent.name);
    expect(w.host.agents.get(spyAgent.id)?.subAgents).toEqual([]);
    expect(
      w.host.chat
        .list()
        .filter((c) => c.agentId === 'mine')
        .map((c) => c.id),
    ).toEqual([users.id]);
    expect(w.provider.requests).toHaveLength(0);
    expect(w.pageChat.owns(w.board, session.id)).toBe(true);
    expect(w.pageChat.owns(w.spy, session.id)).toBe(false);
    expect(w.pageChat.owns(w.board, users.id)).toBe(false);
  });

  it('an update keeps what the agent acts as and who owns it, in the core and from the agent editor', async () => {
    const w = await world();
    const { agent } = (await w.call(w.board, { op: 'agents.create', agent: { name: 'A', modelId: 'local' } })) as any;
    const updated = ((await w.call(w.board, { op: 'agents.update', id: agent.id, patch: { name: 'B', hostAppId: 'chatos', ownerApp: { pluginId: 'x', appId: 'y' } } })) as any).agent;
    expect(updated).toMatchObject({ name: 'B', hostAppId: 'com.example.notes', ownerApp: { pluginId: 'com.example.notes', appId: 'board' } });
    // The agent editor sends the agent without its owner: it stays the app's.
    const { ownerApp: _owner, ...edited } = updated;
    expect(w.host.agents.update(agent.id, { ...edited, description: 'edited by the user' }).ownerApp).toEqual({ pluginId: 'com.example.notes', appId: 'board' });
    expect(((await w.call(w.board, { op: 'agents.delete', id: agent.id })) as any).removed).toBe(true);
    expect(((await w.call(w.board, { op: 'agents.list' })) as any).agents).toEqual([]);
  });

  it('says what to do when no model is configured', async () => {
    const t = await startTestHost(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, 'com.example.notes', [{ appId: 'board' }]));
    const pageChat = new PageChat({ agents: internalsOf(t.host).agents.agents, chat: internalsOf(t.host).chat.service, modelIds: () => t.host.models.ids() });
    await expect(pageChat.handle({ pluginId: 'com.example.notes', appId: 'board', providerAppId: 'com.example.notes', name: 'board' }, { op: 'agents.ensureDefault' })).rejects.toMatchObject({
      code: 'NO_MODEL',
      hint: expect.stringContaining('Models page'),
    });
  });
});
