import { describe, expect, it } from 'vitest';
import { confirm, onAsked } from '../../helpers/questions.js';
import type { ToolMessage } from '../../../src/shared/chat.js';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { GatewayError } from '../../../src/core/tools/toolGateway.js';
import { agentUsing, startChatWorld } from '../../helpers/chatWorld.js';

/**
 * A sub-agent call goes through the gateway like any tool (issue 26): a
 * caller whose agent does not list the sub-agent is refused, a call whose
 * level is `confirm` asks the user, and every call leaves an audit line with
 * its outcome. A real host, a real model on the local provider server.
 */

const toolMessage = (messages: readonly { role: string }[], callId: string) => messages.find((m): m is ToolMessage => m.role === 'tool' && (m as ToolMessage).callId === callId)!;

describe('sub-agent calls through the gateway', () => {
  it('refuse a caller whose agent does not list the sub-agent, and an app calling as itself; both are audited', async () => {
    const { host, provider } = await startChatWorld({
      servers: {},
      agents: [agentUsing([], { id: 'worker', name: 'Worker' }), agentUsing([], { id: 'stranger', name: 'Stranger' })],
    });
    // The model of an agent without sub-agents makes the name up: the gateway refuses it, saying how to allow it.
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'sneak', name: 'subagent_worker', arguments: { task: 'do it' } }] }, { kind: 'reply', text: 'I may not' });
    const outcome = await host.chat.send({ agentId: 'stranger', text: 'ask the worker' }).done;
    const refused = toolMessage(outcome.messages, 'sneak');
    expect(refused.status).toBe('refused');
    expect(refused.content[0]).toMatchObject({ text: expect.stringContaining('agent "stranger" may not call sub-agent "worker": it is not among its sub-agents') });
    // No run of the worker was started.
    expect(provider.requests).toHaveLength(2);

    const asApp = host.tools.call({ appId: 'chatos', conversationId: 'script', flow: 'main' }, 'subagent_worker', { task: 'do it' });
    await expect(asApp).rejects.toBeInstanceOf(GatewayError);
    await expect(asApp).rejects.toMatchObject({ code: 'NOT_GRANTED' });

    const lines = host.audit.query({ tool: 'subagent_worker' });
    expect(lines).toEqual([
      expect.objectContaining({ appId: 'chatos', conversationId: 'script', decision: 'refused', outcome: 'refused', reason: 'NOT_GRANTED' }),
      expect.objectContaining({ agentId: 'stranger', conversationId: outcome.conversationId, serverId: 'chatos', decision: 'refused', outcome: 'refused', reason: 'NOT_GRANTED' }),
    ]);
  });

  it("asks for confirmation when the calling agent's settings give the sub-agent the confirm level, and audits the call with its outcome", async () => {
    const { host, provider } = await startChatWorld({
      servers: {},
      agents: [
        agentUsing([], { id: 'worker', name: 'Worker', description: 'Does the work' }),
        agentUsing([], { id: 'boss', name: 'Boss', subAgents: ['worker'], subAgentPermissions: { worker: 'confirm' } }),
      ],
    });
    const asked: ToolConfirmationRequest[] = [];
    onAsked(host, 'toolConfirmation', (request) => {
      asked.push(request);
      confirm(host, request.id, true);
    });
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'delegate', name: 'subagent_worker', arguments: { task: 'count to three' } }] },
      { kind: 'reply', text: 'one two three' },
      { kind: 'reply', text: 'boss done' },
    );
    const turn = host.chat.send({ agentId: 'boss', text: 'get it counted' });
    const outcome = await turn.done;
    expect(outcome.status).toBe('done');
    expect(asked).toEqual([expect.objectContaining({ toolName: 'subagent_worker', agentId: 'boss', conversationId: turn.conversationId })]);
    expect(toolMessage(outcome.messages, 'delegate')).toMatchObject({ status: 'ok', content: [{ type: 'text', text: 'one two three' }] });
    expect(host.audit.query({ tool: 'subagent_worker' })).toEqual([
      expect.objectContaining({
        agentId: 'boss',
        conversationId: turn.conversationId,
        serverId: 'chatos',
        permission: 'confirm',
        decision: 'approved',
        outcome: 'ok',
        args: JSON.stringify({ task: 'count to three' }),
        result: 'one two three',
      }),
    ]);
  });

  it('runs without asking by default, audited all the same; a declined call does not run the sub-agent', async () => {
    const { host, provider } = await startChatWorld({
      servers: {},
      agents: [
        agentUsing([], { id: 'worker', name: 'Worker' }),
        agentUsing([], { id: 'boss', name: 'Boss', subAgents: ['worker'] }),
        agentUsing([], { id: 'careful', name: 'Careful', subAgents: ['worker'], subAgentPermissions: { worker: 'confirm' } }),
      ],
    });
    const asked: string[] = [];
    onAsked(host, 'toolConfirmation', (request) => {
      asked.push(request.agentId ?? '');
      confirm(host, request.id, false);
    });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'free', name: 'subagent_worker', arguments: { task: 'go' } }] }, { kind: 'reply', text: 'went' }, { kind: 'reply', text: 'boss done' });
    const free = await host.chat.send({ agentId: 'boss', text: 'delegate' }).done;
    expect(toolMessage(free.messages, 'free')).toMatchObject({ status: 'ok' });

    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'held', name: 'subagent_worker', arguments: { task: 'go' } }] }, { kind: 'reply', text: 'careful done' });
    const held = await host.chat.send({ agentId: 'careful', text: 'delegate' }).done;
    expect(toolMessage(held.messages, 'held')).toMatchObject({ status: 'declined' });
    expect(asked).toEqual(['careful']);
    // Boss: its request, the worker's, its own again. Careful: its request and its answer after the refusal; no worker run.
    expect(provider.requests).toHaveLength(5);

    const lines = host.audit.query({ tool: 'subagent_worker' });
    expect(lines).toEqual([
      expect.objectContaining({ agentId: 'careful', permission: 'confirm', decision: 'declined', outcome: 'declined' }),
      expect.objectContaining({ agentId: 'boss', permission: 'write', decision: 'auto', outcome: 'ok' }),
    ]);
  });
});
