import { describe, expect, it } from 'vitest';
import type { AssistantMessage, ToolMessage } from '../../../src/shared/chat.js';
import { API_KINDS } from '../../../src/shared/models.js';
import { agentUsing, startChatWorld, toolResultsIn } from '../../helpers/chatWorld.js';

/**
 * The conversation loop against the local provider server (each wire
 * format) and the real chat fixture server through the real gateway.
 */

const toolMessages = (messages: readonly { role: string }[]) => messages.filter((m): m is ToolMessage => m.role === 'tool');

describe('a chat turn', () => {
  for (const api of API_KINDS) {
    it(`runs two tool calls of one message in parallel, then answers (${api})`, async () => {
      const { host, provider } = await startChatWorld({ api });
      // Each call answers only once the other is in flight too: run one after the other, the first would wait alone and fail.
      provider.enqueue(
        {
          kind: 'reply',
          text: 'Let me check.',
          toolCalls: [
            { id: 'c1', name: 'mcp_chat_rendezvous', arguments: { key: 'k', count: 2 } },
            { id: 'c2', name: 'mcp_chat_echo', arguments: { text: 'second' } },
            { id: 'c3', name: 'mcp_chat_rendezvous', arguments: { key: 'k', count: 2 } },
          ],
          usage: { input: 100, output: 20 },
        },
        { kind: 'reply', text: 'Both met.', usage: { input: 150, output: 5 } },
      );
      const turn = host.chat.send({ agentId: 'helper', text: 'meet twice' });
      const outcome = await turn.done;
      expect(outcome.status, JSON.stringify(outcome.stop)).toBe('done');
      expect(provider.requests).toHaveLength(2);

      const results = toolMessages(outcome.messages);
      expect(results.map((r) => [r.callId, r.status, r.content[0]])).toEqual([
        ['c1', 'ok', { type: 'text', text: 'met 2 at k' }],
        ['c2', 'ok', { type: 'text', text: 'second' }],
        ['c3', 'ok', { type: 'text', text: 'met 2 at k' }],
      ]);
      const answers = outcome.messages.filter((m): m is AssistantMessage => m.role === 'assistant');
      expect(answers.map((a) => a.text)).toEqual(['Let me check.', 'Both met.']);
      expect(answers[0]!.stats).toMatchObject({ inputTokens: 100, outputTokens: 20, attempts: 1, toolsSent: 8 });
      expect(answers[0]!.stats.ttftMs).toBeGreaterThanOrEqual(0);

      // The second request carried the results, in the order of the calls.
      expect(toolResultsIn(provider.requests[1]!.body)).toEqual([
        ['c1', 'met 2 at k'],
        ['c2', 'second'],
        ['c3', 'met 2 at k'],
      ]);
      const detail = host.chat.get(turn.conversationId);
      expect(detail.conversation).toMatchObject({ status: { kind: 'done' }, title: 'meet twice', totals: { answers: 2, inputTokens: 250, outputTokens: 25 } });
      expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
    });
  }

  it('sends the system prompt, then the tools the gateway offers plus mcp_release', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', text: 'hi' });
    await host.chat.send({ agentId: 'helper', text: 'hello' }).done;
    const body = provider.requests[0]!.body;
    // The agent's own prompt first; the first lease of a stateful server adds the reminder to release it (docs/rules/mcp-yaml.md#leases).
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content).toMatch(/^You are a test agent\.\n\nNotes from the host:\n- You now hold a dedicated instance of MCP server "chatos::chat".*mcp_release/);
    expect(body.tools.map((t: any) => t.function.name).sort()).toEqual([
      'mcp_chat_danger',
      'mcp_chat_echo',
      'mcp_chat_image',
      'mcp_chat_picture',
      'mcp_chat_rendezvous',
      'mcp_chat_sleep',
      'mcp_chat_slow',
      'mcp_release',
    ]);
  });

  it('tells the model a malformed tool call failed, and goes on', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'bad', name: 'mcp_chat_echo', arguments: '{"text": ' }] }, { kind: 'reply', text: 'sorry' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(outcome.status).toBe('done');
    const [result] = toolMessages(outcome.messages);
    expect(result).toMatchObject({ callId: 'bad', status: 'error', isError: true });
    expect(JSON.stringify(provider.requests[1]!.body)).toContain('are not valid JSON');
  });

  it('stops at the round limit with a clear message', async () => {
    const { host, provider } = await startChatWorld({ host: { chat: { maxRounds: 2 } } });
    const call = (id: string) => ({ kind: 'reply' as const, toolCalls: [{ id, name: 'mcp_chat_echo', arguments: { text: id } }] });
    provider.enqueue(call('a'), call('b'), call('c'));
    const outcome = await host.chat.send({ agentId: 'helper', text: 'loop' }).done;
    expect(outcome).toMatchObject({ status: 'stopped', stop: { kind: 'round-limit', code: 'ROUND_LIMIT' } });
    expect(outcome.stop!.message).toContain('after 2 rounds');
    expect(provider.requests).toHaveLength(2);
  });

  it('is a clear stop with the fix, before any request, when the model or its key is missing or it takes fewer tools', async () => {
    const { host, provider } = await startChatWorld({ agents: [agentUsing(['chat']), agentUsing([], { id: 'nomodel', modelId: 'gone' })] });
    const missing = await host.chat.send({ agentId: 'nomodel', text: 'x' }).done;
    expect(missing.stop).toMatchObject({ kind: 'error', code: 'MODEL_NOT_FOUND' });
    expect(missing.stop!.hint).toContain('chatos models add');

    await host.models.update('local', { ...host.models.get('local'), key: { kind: 'env', name: 'CHAT_TEST_UNSET_KEY' } });
    const noKey = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(noKey.stop).toMatchObject({ kind: 'error', code: 'MODEL_KEY_MISSING' });

    await host.models.update('local', { ...host.models.get('local'), key: { kind: 'none' }, maxTools: 3 });
    const tooMany = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(tooMany.stop).toMatchObject({ kind: 'error', code: 'TOO_MANY_TOOLS' });
    expect(tooMany.stop!.message).toBe('agent "helper" would send 8 tools to model "local", which takes at most 3');
    expect(provider.requests).toHaveLength(0);
    // Each is a problem until fixed and resumed.
    expect(
      host.chat
        .problems()
        .map((p) => p.code)
        .sort(),
    ).toEqual(['MODEL_KEY_MISSING', 'MODEL_NOT_FOUND', 'TOO_MANY_TOOLS']);
  });

  it('summarizes older turns near the context window: the system prompt stays, tool traffic is left out, and the branch shows where', async () => {
    // About 420 tokens of history and no tools (an agent without servers is offered no mcp_release): past 80% of 500.
    const { host, provider } = await startChatWorld({ model: { contextWindow: 500 }, agents: [agentUsing([], { systemPrompt: 'SYSTEM RULES' })] });
    provider.enqueue({ kind: 'reply', text: 'B'.repeat(800) });
    const first = host.chat.send({ agentId: 'helper', text: 'A'.repeat(800) });
    await first.done;
    provider.enqueue({ kind: 'reply', text: 'SUMMARY: the user sent As, the agent Bs.' }, { kind: 'reply', text: 'fine' });
    const second = await host.chat.send({ conversationId: first.conversationId, text: 'second' }).done;
    expect(second.status).toBe('done');
    expect(provider.requests).toHaveLength(3);
    const summaryRequest = provider.requests[1]!.body;
    expect(summaryRequest.tools).toBeUndefined();
    expect(JSON.stringify(summaryRequest)).toContain('A'.repeat(800));
    const after = provider.requests[2]!.body.messages;
    expect(after[0].content).toMatch(/^SYSTEM RULES\n\n.*Summary of the earlier part of this conversation.*SUMMARY: the user sent As/s);
    expect(after.slice(1)).toEqual([{ role: 'user', content: 'second' }]);
    const detail = host.chat.get(first.conversationId);
    expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'summary', 'assistant']);
    expect(detail.messages[3]).toMatchObject({ role: 'summary', throughId: detail.messages[1]!.id, summarized: 2 });
  });
});
