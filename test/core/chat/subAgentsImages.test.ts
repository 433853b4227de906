import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, ToolMessage } from '../../../src/shared/chat.js';
import { API_KINDS } from '../../../src/shared/models.js';
import { agentUsing, chatServerEntry, startChatWorld } from '../../helpers/chatWorld.js';
import { repoRoot } from '../../helpers/tempDir.js';

/** Sub-agents in the sub flow, and image results fed back (or not) to the model. */

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function?.name ?? t.name).sort();

describe('sub-agents', () => {
  it('runs a sub-agent in the sub flow in a child conversation, and returns its answer as the result', async () => {
    const { host, provider } = await startChatWorld({
      servers: { sub: chatServerEntry({ allowSub: true }), mainonly: chatServerEntry({ allowSub: false }) },
      agents: [agentUsing([], { id: 'boss', name: 'Boss', subAgents: ['worker'] }), agentUsing(['sub', 'mainonly'], { id: 'worker', name: 'Worker', description: 'Does the work' })],
    });
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'delegate', name: 'subagent_worker', arguments: { task: 'count to three' } }] },
      {
        kind: 'reply',
        toolCalls: [
          { id: 'w1', name: 'mcp_mainonly_echo', arguments: { text: 'hi' } },
          { id: 'w2', name: 'mcp_sub_echo', arguments: { text: 'one two three' } },
        ],
      },
      { kind: 'reply', text: 'worker done: one two three' },
      { kind: 'reply', text: 'boss done' },
    );
    const turn = host.chat.send({ agentId: 'boss', text: 'get it counted' });
    const outcome = await turn.done;
    expect(outcome.status).toBe('done');

    // The boss (no servers of its own, so no mcp_release) is offered the worker as a tool; the worker, in the sub flow, only the server that allows it.
    expect(toolNames(provider.requests[0]!.body)).toEqual(['subagent_worker']);
    const workerTools = toolNames(provider.requests[1]!.body);
    expect(workerTools).toContain('mcp_sub_echo');
    expect(workerTools.some((name) => name.startsWith('mcp_mainonly_'))).toBe(false);
    expect(provider.requests[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'count to three' });

    const delegated = outcome.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    expect(delegated).toMatchObject({ callId: 'delegate', status: 'ok', content: [{ type: 'text', text: 'worker done: one two three' }] });
    const childId = delegated.childConversationId!;
    const child = host.chat.get(childId);
    expect(child.conversation).toMatchObject({ agentId: 'worker', parent: { conversationId: turn.conversationId, callId: 'delegate', depth: 1 }, status: { kind: 'done' } });
    const refused = child.messages.find((m): m is ToolMessage => m.role === 'tool' && m.callId === 'w1')!;
    expect(refused.status).toBe('refused');
    expect(refused.content[0]).toMatchObject({ text: expect.stringContaining('allowSub false') });
    expect(host.chat.get(turn.conversationId).children).toEqual([{ callId: 'delegate', conversationId: childId }]);
    // Runs of sub-agents are not listed as conversations of their own; their leases ended with the run.
    expect(host.chat.list().map((c) => c.id)).toEqual([turn.conversationId]);
    expect(
      host.mcp.connections
        .snapshot()
        .flatMap((s) => s.leases)
        .some((l) => l.conversationId === childId),
    ).toBe(false);

    // Deleting the conversation removes the run with it.
    await host.chat.delete(turn.conversationId);
    expect(host.chat.list({ includeChildren: true })).toEqual([]);
  });

  it('offers no sub-agent past the depth limit, and reports a sub-agent that names no agent', async () => {
    const { host, provider } = await startChatWorld({ agents: [agentUsing([], { id: 'loop', name: 'Loop', subAgents: ['loop', 'ghost'] })], host: { chat: { maxDepth: 1 } } });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'again', name: 'subagent_loop', arguments: { task: 'again' } }] }, { kind: 'reply', text: 'inner' }, { kind: 'reply', text: 'outer' });
    const outcome = await host.chat.send({ agentId: 'loop', text: 'go' }).done;
    expect(outcome.status).toBe('done');
    expect(toolNames(provider.requests[0]!.body)).toEqual(['subagent_loop']);
    expect(toolNames(provider.requests[1]!.body)).toEqual([]);
    expect(outcome.problems).toEqual([expect.objectContaining({ code: 'AGENT_SUBAGENT_MISSING', path: 'subAgents[1]' })]);
  });
});

describe('image results', () => {
  for (const api of API_KINDS) {
    it(`are saved in the conversation's folder and fed back to a vision model as images (${api})`, async () => {
      const { host, provider, home } = await startChatWorld({ api, model: { vision: true } });
      provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'img', name: 'mcp_chat_image', arguments: {} }] }, { kind: 'reply', text: 'a dot' });
      const turn = host.chat.send({ agentId: 'helper', text: 'draw' });
      const outcome = await turn.done;
      const result = outcome.messages.find((m): m is ToolMessage => m.role === 'tool')!;
      const image = result.content.find((c) => c.type === 'image')!;
      expect(image).toMatchObject({ type: 'image', mimeType: 'image/png', artifact: expect.stringMatching(/^artifacts\/mcp\/chatos__chat\/image\/\d+-[0-9a-f-]+\.png$/) });
      const file = path.join(home, 'chatos', 'conversations', turn.conversationId, image.type === 'image' ? image.artifact : '');
      expect(fs.readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
      // The SVG is a note, not an image, for any model.
      expect(result.content.some((c) => c.type === 'text' && c.text.includes('image/svg+xml'))).toBe(true);
      const png = fs.readFileSync(file).toString('base64');
      expect(JSON.stringify(provider.requests[1]!.body)).toContain(png);
      expect(fs.existsSync(path.join(home, 'chatos', 'artifacts'))).toBe(false);
    });
  }

  it('reach a model without vision as a short note, never as image data', async () => {
    const { host, provider } = await startChatWorld({ model: { vision: false } });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'img', name: 'mcp_chat_image', arguments: {} }] }, { kind: 'reply', text: 'ok' });
    await host.chat.send({ agentId: 'helper', text: 'draw' }).done;
    const sent = JSON.stringify(provider.requests[1]!.body);
    expect(sent).not.toContain('base64');
    expect(sent).toContain('it is not shown because this model does not accept images');
  });

  it("Notes' color_swatch reaches a vision model as the PNG it made", async () => {
    const { host, provider } = await startChatWorld({
      model: { vision: true },
      host: { builtinPluginsDir: path.join(repoRoot, 'plugins') },
      agents: [agentUsing([], { uiApps: [{ pluginId: 'chatos.notes', appId: 'notes', mcp: true, prompt: true, mcpServerIds: [], promptIds: [] }] })],
    });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'sw', name: 'mcp_chatos_notes_notes_color_swatch', arguments: { color: '#ff0000', size: 4 } }] }, { kind: 'reply', text: 'red' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'a red swatch' }).done;
    expect(outcome.status, JSON.stringify(outcome.stop)).toBe('done');
    const openaiMessages = provider.requests[1]!.body.messages as any[];
    const imageMessage = openaiMessages.find((m) => Array.isArray(m.content) && m.content.some((p: any) => p.type === 'image_url'));
    expect(imageMessage.content.find((p: any) => p.type === 'image_url').image_url.url).toMatch(/^data:image\/png;base64,iVBOR/);
    // The Notes prompt (its own, in the agent's language) follows the agent's system prompt.
    expect(openaiMessages[0].content).toMatch(/^You are a test agent\.\n\n.*color_swatch/s);
    expect(outcome.messages.filter((m): m is AssistantMessage => m.role === 'assistant').at(-1)!.text).toBe('red');
  });
});
