import { describe, expect, it } from 'vitest';
import { confirm, onAsked, onResolved, pendingOf } from '../../helpers/questions.js';
import type { ChatEvent } from '../../../src/core/chat/chatPolicy.js';
import type { ToolMessage } from '../../../src/shared/chat.js';
import type { ConfirmationDecision, ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { waitUntil } from '../../helpers/gatewayHost.js';
import { agentUsing, chatServerEntry, startChatWorld, toolResultsIn } from '../../helpers/chatWorld.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

/** One long tool call of a turn: its progress reaches the faces, and Cancel ends that call alone (the server is told), not the turn. */

describe('a long tool call in a chat turn', () => {
  it('reports the server progress as events, and cancelling it tells the server and lets the turn go on', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'long1', name: 'mcp_chat_slow', arguments: { steps: 10_000, stepMs: 50 } }] }, { kind: 'reply', text: 'Understood, cancelled.' });
    const seen: ChatEvent[] = [];
    host.chat.onEvent((event) => seen.push(event));
    const turn = host.chat.send({ agentId: 'helper', text: 'do the long job' });
    const progressOf = (e: ChatEvent) => (e.type === 'toolCall' && e.call.callId === 'long1' && e.call.phase === 'progress' ? e.call.progress : undefined);
    await waitUntil(() => seen.some((e) => (progressOf(e)?.progress ?? 0) >= 2), 'two progress notifications', 20_000);
    const progress = seen.map(progressOf).find((p) => p?.progress === 2);
    expect(progress).toEqual({ progress: 2, total: 10_000, message: 'step 2 of 10000' });

    expect(host.chat.cancelCall(turn.conversationId, 'nope')).toBe(false);
    expect(host.chat.cancelCall(turn.conversationId, 'long1')).toBe(true);
    const outcome = await turn.done;
    // The turn was not stopped: the model got the cancelled result and answered.
    expect(outcome.status).toBe('done');
    const result = outcome.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    expect(result).toMatchObject({ callId: 'long1', status: 'cancelled' });
    expect(toolResultsIn(provider.requests[1]!.body)).toEqual([['long1', 'Cancelled: the user cancelled this call while it ran.']]);
    const log = internalsOf(host).mcp.runtime.connections.logOf('chatos::chat');
    await waitUntil(() => log.entries().some((e) => e.text.includes('slow cancelled')), 'the server to be told of the cancellation', 20_000);
    // Once ended, the call cannot be cancelled again.
    expect(host.chat.cancelCall(turn.conversationId, 'long1')).toBe(false);
  });

  it('cancelling a call while its confirmation waits withdraws the question: the card goes, the tool never runs, the turn goes on', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd1', name: 'mcp_chat_danger', arguments: { what: 'the deed' } }] }, { kind: 'reply', text: 'Not done, as you wished.' });
    const resolved: [string, ConfirmationDecision][] = [];
    onResolved(host, 'toolConfirmation', (request, decision) => resolved.push([request.id, decision]));
    const asked = new Promise<ToolConfirmationRequest>((resolve) => onAsked(host, 'toolConfirmation', resolve));
    const turn = host.chat.send({ agentId: 'helper', text: 'do the dangerous thing' });
    const request = await asked;
    expect(host.chat.cancelCall(turn.conversationId, 'd1')).toBe(true);
    const outcome = await turn.done;
    expect(outcome.status).toBe('done');
    // The faces drop the card on this event; nothing is left waiting for an answer.
    expect(resolved).toEqual([[request.id, 'withdrawn']]);
    expect(pendingOf(host, 'toolConfirmation').length).toBe(0);
    expect(confirm(host, request.id, true)).toBe(false);
    expect(outcome.messages.find((m): m is ToolMessage => m.role === 'tool')).toMatchObject({ callId: 'd1', status: 'cancelled' });
    await waitUntil(() => host.audit.query({ tool: 'mcp_chat_danger' }).length > 0, 'the call to be on the record', 20_000);
    expect(host.audit.query({ tool: 'mcp_chat_danger' }).map((r) => [r.decision, r.outcome])).toEqual([['withdrawn', 'cancelled']]);
    expect(
      internalsOf(host)
        .mcp.runtime.connections.logOf('chatos::chat')
        .entries()
        .some((e) => e.text.includes('did the deed')),
    ).toBe(false);
  });
});

describe('a sub-agent call in a chat turn', () => {
  it('is cancelled alone from its card: the sub-agent stops, the parent turn goes on with the call cancelled', async () => {
    const { host, provider } = await startChatWorld({
      servers: { sub: chatServerEntry({ allowSub: true }) },
      agents: [agentUsing([], { id: 'boss', name: 'Boss', subAgents: ['worker'] }), agentUsing(['sub'], { id: 'worker', name: 'Worker', description: 'Does the long work' })],
    });
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'delegate', name: 'subagent_worker', arguments: { task: 'the long job' } }] },
      { kind: 'reply', toolCalls: [{ id: 'slow', name: 'mcp_sub_slow', arguments: { steps: 10_000, stepMs: 50 } }] },
      { kind: 'reply', text: 'boss: the worker was cancelled' },
    );
    const seen: ChatEvent[] = [];
    host.chat.onEvent((event) => seen.push(event));
    const turn = host.chat.send({ agentId: 'boss', text: 'delegate it' });
    await waitUntil(() => seen.some((e) => e.type === 'toolCall' && e.call.callId === 'slow' && e.call.phase === 'progress'), 'the worker to be in its long call', 20_000);
    expect(host.chat.cancelCall(turn.conversationId, 'delegate')).toBe(true);
    const outcome = await turn.done;
    expect(outcome.status).toBe('done');
    const delegated = outcome.messages.find((m): m is ToolMessage => m.role === 'tool' && m.callId === 'delegate')!;
    expect(delegated.status).toBe('cancelled');
    expect(host.chat.get(delegated.childConversationId!).conversation.status.kind).toBe('stopped');
    expect(outcome.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'boss: the worker was cancelled' });
  });
});
