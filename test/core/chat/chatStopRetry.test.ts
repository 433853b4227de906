import { describe, expect, it } from 'vitest';
import { confirm, onAsked, pendingOf } from '../../helpers/questions.js';
import type { ChatEvent } from '../../../src/core/chat/chatPolicy.js';
import type { AssistantMessage, ToolMessage } from '../../../src/shared/chat.js';
import { waitUntil } from '../../helpers/gatewayHost.js';
import { advanceOnRetry, startChatWorld } from '../../helpers/chatWorld.js';
import { TestScheduler } from '../../helpers/testScheduler.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

/** Stop and the retry policy (docs/rules/chat.md#stop-and-retry), against the local provider server and the real chat fixture server. */

function events(host: { chat: { onEvent(l: (e: ChatEvent) => void): () => void } }) {
  const seen: ChatEvent[] = [];
  host.chat.onEvent((event) => seen.push(event));
  return {
    seen,
    next: async (match: (e: ChatEvent) => boolean, what: string) => {
      await waitUntil(() => seen.some(match), what, 20_000);
      return seen.find(match)!;
    },
  };
}

describe('stopping a turn', () => {
  it('aborts the stream mid-answer, keeps the partial answer marked stopped, and resume answers beside it', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', text: ['Once ', 'upon ', 'a ', 'time'], hangAfter: 3 });
    const watch = events(host);
    const turn = host.chat.send({ agentId: 'helper', text: 'tell a story' });
    await watch.next((e) => e.type === 'delta' && e.text === 'upon ', 'the second delta');
    expect(host.chat.stop(turn.conversationId)).toBe(true);
    const outcome = await turn.done;
    expect(outcome).toMatchObject({ status: 'stopped', stop: { kind: 'user' } });
    await provider.requests[0]!.closed;
    const partial = outcome.messages.find((m): m is AssistantMessage => m.role === 'assistant')!;
    expect(partial).toMatchObject({ text: 'Once upon ', status: 'stopped', stop: { kind: 'user' } });
    expect(host.chat.get(turn.conversationId).conversation.status).toMatchObject({ kind: 'stopped', stop: { kind: 'user' } });
    expect(host.chat.problems()).toEqual([]);

    provider.enqueue({ kind: 'reply', text: 'The end.' });
    const resumed = await host.chat.resume(turn.conversationId).done;
    expect(resumed.status).toBe('done');
    const detail = host.chat.get(turn.conversationId);
    expect(detail.messages.map((m) => (m.role === 'assistant' ? m.text : m.role))).toEqual(['user', 'The end.']);
    // The partial answer stays reachable as a sibling of the new one.
    expect(detail.siblings[detail.messages[1]!.id]).toEqual([partial.id, detail.messages[1]!.id]);
  });

  it('cancels tool calls in flight (the server is told) and records them as cancelled', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({
      kind: 'reply',
      toolCalls: [
        { id: 's1', name: 'mcp_chat_sleep', arguments: { ms: 60_000 } },
        { id: 's2', name: 'mcp_chat_echo', arguments: { text: 'quick' } },
      ],
    });
    const watch = events(host);
    const turn = host.chat.send({ agentId: 'helper', text: 'sleep' });
    await watch.next((e) => e.type === 'toolCall' && e.call.callId === 's1' && e.call.phase === 'started', 'the sleep call to start');
    await watch.next((e) => e.type === 'toolCall' && e.call.callId === 's2' && e.call.phase === 'finished', 'the echo call to end');
    host.chat.stop(turn.conversationId);
    const outcome = await turn.done;
    expect(outcome.stop).toMatchObject({ kind: 'user' });
    const results = outcome.messages.filter((m): m is ToolMessage => m.role === 'tool');
    expect(results.map((r) => [r.callId, r.status])).toEqual([
      ['s1', 'cancelled'],
      ['s2', 'ok'],
    ]);
    const log = internalsOf(host).mcp.runtime.connections.logOf('chatos::chat');
    await waitUntil(() => log.entries().some((e) => e.text.includes('sleep cancelled')), 'the server to be told of the cancellation');
    expect(provider.requests).toHaveLength(1);
  });

  it('a declined confirmation tells the model the user declined, and a stop declines what is still waiting', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd1', name: 'mcp_chat_danger', arguments: { what: 'wipe' } }] }, { kind: 'reply', text: 'ok, not done' });
    const declineAll = onAsked(host, 'toolConfirmation', (request) => void confirm(host, request.id, false));
    const outcome = await host.chat.send({ agentId: 'helper', text: 'wipe it' }).done;
    declineAll();
    expect(outcome.messages.find((m): m is ToolMessage => m.role === 'tool')).toMatchObject({ status: 'declined', isError: true });
    expect(JSON.stringify(provider.requests[1]!.body)).toContain('The user declined to run mcp_chat_danger.');

    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd2', name: 'mcp_chat_danger', arguments: {} }] });
    const waiting = host.chat.send({ agentId: 'helper', text: 'again' });
    await waitUntil(() => pendingOf(host, 'toolConfirmation').length === 1, 'the confirmation request');
    host.chat.stop(waiting.conversationId);
    expect((await waiting.done).stop).toMatchObject({ kind: 'user' });
    expect(pendingOf(host, 'toolConfirmation').length).toBe(0);
  });

  it('gives confirmations asked by one message a shared group id', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'g1', name: 'mcp_chat_danger', arguments: { what: 'a' } },
          { id: 'g2', name: 'mcp_chat_echo', arguments: { text: 'x' } },
          { id: 'g3', name: 'mcp_chat_danger', arguments: { what: 'b' } },
        ],
      },
      { kind: 'reply', text: 'done' },
    );
    const requests: { groupId?: string; agentId?: string }[] = [];
    onAsked(host, 'toolConfirmation', (request) => {
      requests.push(request);
      confirm(host, request.id, true);
    });
    const turn = host.chat.send({ agentId: 'helper', text: 'both' });
    await turn.done;
    expect(requests).toHaveLength(2);
    expect(requests[0]!.groupId).toBeDefined();
    expect(requests[1]!.groupId).toBe(requests[0]!.groupId);
    expect(requests[0]!.agentId).toBe('helper');
  });

  it('a call that waits for approval says so (which question, until when), runs once approved, and counts its time from then', async () => {
    // The host's clock is the test's: it moves only while the question waits, so the run time shows what it counted from.
    const scheduler = new TestScheduler();
    const { host, provider } = await startChatWorld({ host: { scheduler } });
    const phases: string[] = [];
    let awaiting: { id: string; expiresAt: number } | undefined;
    host.chat.onEvent((event: ChatEvent) => {
      if (event.type !== 'toolCall' || event.call.callId !== 'w1') return;
      phases.push(event.call.phase);
      if (event.call.phase === 'awaiting') awaiting = event.call.confirmation;
    });
    onAsked(host, 'toolConfirmation', (request) => {
      // The user takes 400 ms to answer: that is not the tool's time.
      scheduler.advance(400);
      confirm(host, request.id, true);
    });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'w1', name: 'mcp_chat_danger', arguments: { what: 'it' } }] }, { kind: 'reply', text: 'done' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'do it' }).done;
    expect(phases).toEqual(['started', 'awaiting', 'started', 'finished']);
    expect(awaiting).toEqual({ id: expect.any(String), expiresAt: expect.any(Number), createdAt: expect.any(Number) });
    expect(awaiting!.expiresAt).toBeGreaterThan(scheduler.now());
    const result = outcome.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    expect(result.status).toBe('ok');
    // Counted from the approval: the clock did not move while the tool ran. From the question, it would be 400.
    expect(result.durationMs).toBe(0);
  });

  it('a declined call never ran and has no run time', async () => {
    const scheduler = new TestScheduler();
    const { host, provider } = await startChatWorld({ host: { scheduler } });
    onAsked(host, 'toolConfirmation', (request) => {
      scheduler.advance(200);
      confirm(host, request.id, false);
    });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd1', name: 'mcp_chat_danger', arguments: {} }] }, { kind: 'reply', text: 'ok' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'do it' }).done;
    expect(outcome.messages.find((m): m is ToolMessage => m.role === 'tool')).toMatchObject({ status: 'declined', durationMs: 0 });
  });

  it('"always allow" is kept per agent and tool until revoked', async () => {
    const { host, provider } = await startChatWorld();
    const once = onAsked(host, 'toolConfirmation', (request) => void confirm(host, request.id, true, 'always'));
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'a1', name: 'mcp_chat_danger', arguments: {} }] }, { kind: 'reply', text: 'done' });
    await host.chat.send({ agentId: 'helper', text: 'one' }).done;
    once();
    expect(host.agents.alwaysAllow.list('helper')).toEqual([expect.objectContaining({ agentId: 'helper', toolName: 'mcp_chat_danger', serverId: 'chatos::chat' })]);

    // Another conversation: no question asked.
    const asked: string[] = [];
    onAsked(host, 'toolConfirmation', (request) => {
      asked.push(request.toolName);
      confirm(host, request.id, false);
    });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'a2', name: 'mcp_chat_danger', arguments: {} }] }, { kind: 'reply', text: 'done' });
    const second = await host.chat.send({ agentId: 'helper', text: 'two' }).done;
    expect(asked).toEqual([]);
    expect(second.messages.find((m): m is ToolMessage => m.role === 'tool')).toMatchObject({ status: 'ok' });

    expect(host.agents.alwaysAllow.revoke('helper', 'mcp_chat_danger')).toBe(true);
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'a3', name: 'mcp_chat_danger', arguments: {} }] }, { kind: 'reply', text: 'done' });
    await host.chat.send({ agentId: 'helper', text: 'three' }).done;
    expect(asked).toEqual(['mcp_chat_danger']);
  });
});

describe('the retry policy', () => {
  it('a 400 stops at once with a problem naming the provider, conversation, error and tool; resume after the fix', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'error', status: 400, message: "Invalid schema for function 'mcp_chat_echo': bad", param: 'tools[1].function.parameters' });
    const turn = host.chat.send({ agentId: 'helper', text: 'x' });
    const outcome = await turn.done;
    expect(provider.requests).toHaveLength(1);
    expect(outcome.stop).toMatchObject({ kind: 'error', code: 'PROVIDER_REJECTED', provider: { kind: 'rejected', status: 400 } });
    const [problem] = host.chat.problems();
    expect(problem).toMatchObject({ severity: 'error', code: 'PROVIDER_REJECTED' });
    expect(problem!.message).toContain(`conversation ${turn.conversationId}`);
    expect(problem!.message).toContain(`model "local" (openai at ${provider.openaiUrl}) rejected the request`);
    expect(problem!.message).toContain("Invalid schema for function 'mcp_chat_echo'");
    expect(problem!.message).toMatch(/\[tool mcp_chat_\w+\]/);

    provider.enqueue({ kind: 'reply', text: 'fixed' });
    expect((await host.chat.resume(turn.conversationId).done).status).toBe('done');
    expect(host.chat.problems()).toEqual([]);
    expect(provider.requests).toHaveLength(2);
  });

  for (const [status, headers] of [
    [500, {}],
    [429, { 'retry-after': '7' }],
  ] as const) {
    it(`a ${status} is retried with bounded backoff on the scheduler, then stops with a problem`, async () => {
      const scheduler = new TestScheduler();
      const { host, provider } = await startChatWorld({ host: { scheduler, chat: { retry: { maxAttempts: 3, baseDelayMs: 1000 } } } });
      const error = { kind: 'error' as const, status, message: `failure ${status}`, headers };
      provider.enqueue(error, error, error, { kind: 'reply', text: 'never sent' });
      // Time moves only on each retry: no real waiting.
      const delays = advanceOnRetry(host, scheduler);
      const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
      expect(provider.requests).toHaveLength(3);
      expect(delays).toEqual(status === 429 ? [7000, 7000] : [1000, 2000]);
      expect(outcome.stop).toMatchObject({ kind: 'error', code: status === 429 ? 'PROVIDER_RATE_LIMITED' : 'PROVIDER_UNAVAILABLE' });
      expect(outcome.stop!.message).toContain('3 times');
      expect(host.chat.problems()).toHaveLength(1);
    });
  }

  it('a retry that succeeds answers normally, counting its attempts', async () => {
    const scheduler = new TestScheduler();
    const { host, provider } = await startChatWorld({ host: { scheduler } });
    provider.enqueue({ kind: 'error', status: 503, message: 'busy' }, { kind: 'reply', text: 'hello' });
    host.chat.onEvent((event) => {
      if (event.type === 'status' && event.status.retry) queueMicrotask(() => scheduler.advance(event.status.retry!.delayMs));
    });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(outcome.status).toBe('done');
    expect(outcome.messages.find((m): m is AssistantMessage => m.role === 'assistant')!.stats.attempts).toBe(2);
  });

  it('auth and not-found stop with the fix, without retrying', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'error', status: 401, message: 'bad key' }, { kind: 'error', status: 404, message: 'no such model' });
    const auth = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(auth.stop).toMatchObject({ code: 'PROVIDER_AUTH' });
    expect(auth.stop!.hint).toContain('valid key');
    const missing = await host.chat.send({ agentId: 'helper', text: 'y' }).done;
    expect(missing.stop).toMatchObject({ code: 'PROVIDER_NOT_FOUND' });
    expect(provider.requests).toHaveLength(2);
  });
});
