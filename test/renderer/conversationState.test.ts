import { describe, expect, it } from 'vitest';
import { applyEvent, hasOlder, initialState, reachesEnd, withNewer, withOlder } from '../../renderer/src/components/chat/conversationState.js';
import type { ConversationMessage } from '../../src/shared/chat.js';
import type { ConversationView, HostEventMessage } from '../../src/shared/hostApi.js';

const stats = { durationMs: 10, toolsSent: 0, attempts: 1 };
const user = (id: string, parentId: string | null, text: string): ConversationMessage => ({ id, parentId, at: 1, role: 'user', text });
const answer = (id: string, parentId: string, text: string): ConversationMessage => ({
  id,
  parentId,
  at: 2,
  role: 'assistant',
  agentId: 'a',
  modelId: 'm',
  text,
  toolCalls: [],
  status: 'complete',
  stats,
});

function view(messages: ConversationMessage[]): ConversationView {
  return {
    conversation: {
      id: 'c1',
      title: '',
      agentId: 'a',
      createdAt: 0,
      updatedAt: 0,
      leafId: messages.at(-1)?.id ?? null,
      status: { kind: 'idle' },
      totals: { answers: 0, inputTokens: 0, outputTokens: 0, cost: 0 },
    },
    messages,
    siblings: {},
    children: [],
    notices: [],
    artifactUrls: {},
  };
}

const run = (events: HostEventMessage[], messages: ConversationMessage[] = []) => events.reduce(applyEvent, initialState(view(messages)));

describe('the Chat page conversation state', () => {
  it('builds the answer from deltas until it is stored, and ignores other conversations', () => {
    let state = run([
      { type: 'chat.status', conversationId: 'c1', status: 'running' },
      { type: 'chat.message', conversationId: 'c1', message: user('u1', null, 'hi') },
      { type: 'chat.delta', conversationId: 'c1', messageId: 'a1', text: 'Hel' },
      { type: 'chat.delta', conversationId: 'other', messageId: 'x', text: 'nope' },
      { type: 'chat.delta', conversationId: 'c1', messageId: 'a1', text: 'lo' },
    ]);
    expect(state.phase.kind).toBe('running');
    expect([...state.streaming]).toEqual([['a1', 'Hello']]);
    state = applyEvent(state, { type: 'chat.message', conversationId: 'c1', message: answer('a1', 'u1', 'Hello') });
    expect(state.streaming.size).toBe(0);
    expect(state.view.messages.map((m) => m.id)).toEqual(['u1', 'a1']);
    state = applyEvent(state, { type: 'chat.status', conversationId: 'c1', status: 'done', totals: { answers: 1, inputTokens: 3, outputTokens: 2, cost: 0 } });
    expect(state.phase.kind).toBe('done');
    expect(state.view.conversation.totals.answers).toBe(1);
  });

  it('keeps what the model thinks apart, showing the answer as written while it only thinks; a retry drops it, the stored answer takes it', () => {
    let state = run([
      { type: 'chat.reasoning', conversationId: 'c1', messageId: 'a1', text: 'Let me ' },
      { type: 'chat.reasoning', conversationId: 'c1', messageId: 'a1', text: 'think.' },
      { type: 'chat.reasoning', conversationId: 'other', messageId: 'x', text: 'nope' },
    ]);
    expect([...state.reasoning]).toEqual([['a1', 'Let me think.']]);
    expect([...state.streaming]).toEqual([['a1', '']]);
    state = applyEvent(state, { type: 'chat.delta', conversationId: 'c1', messageId: 'a1', text: 'Yes.' });
    expect([...state.streaming]).toEqual([['a1', 'Yes.']]);
    expect(state.reasoning.get('a1')).toBe('Let me think.');
    const retried = applyEvent(state, {
      type: 'chat.status',
      conversationId: 'c1',
      status: 'running',
      retry: { attempt: 1, maxAttempts: 4, delayMs: 1000, error: { kind: 'server', message: '503' }, discardedMessageId: 'a1' },
    });
    expect(retried.reasoning.size).toBe(0);
    state = applyEvent(state, { type: 'chat.message', conversationId: 'c1', message: { ...answer('a1', 'u1', 'Yes.'), reasoning: { text: 'Let me think.', durationMs: 900 } } as ConversationMessage });
    expect(state.reasoning.size).toBe(0);
    expect(state.streaming.size).toBe(0);
  });

  it('drops a retried request’s partial text, and a stopped turn’s text that was never stored', () => {
    const state = run([
      { type: 'chat.delta', conversationId: 'c1', messageId: 'try1', text: 'half' },
      {
        type: 'chat.status',
        conversationId: 'c1',
        status: 'running',
        retry: { attempt: 1, maxAttempts: 4, delayMs: 1000, error: { kind: 'server', message: '503', retryable: true } as never, discardedMessageId: 'try1' },
      },
      { type: 'chat.delta', conversationId: 'c1', messageId: 'try2', text: 'whole' },
    ]);
    expect([...state.streaming]).toEqual([['try2', 'whole']]);
    expect(state.phase).toMatchObject({ kind: 'running', retry: { discardedMessageId: 'try1' } });
    const stopped = applyEvent(state, { type: 'chat.status', conversationId: 'c1', status: 'stopped', stop: { kind: 'user', message: 'stopped by the user' } });
    expect(stopped.streaming.size).toBe(0);
    expect(stopped.phase).toEqual({ kind: 'stopped', stop: { kind: 'user', message: 'stopped by the user' } });
  });

  it('an edit is a branch: the new message follows its parent, what came after it goes, and the view is marked for a reload', () => {
    const state = run([{ type: 'chat.message', conversationId: 'c1', message: user('u2', null, 'edited') }], [user('u1', null, 'first'), answer('a1', 'u1', 'reply')]);
    expect(state.view.messages.map((m) => m.id)).toEqual(['u2']);
    expect(state.view.conversation.leafId).toBe('u2');
    expect(state.stale).toBe(true);
    // A message already shown (an event that raced the load) is not added twice.
    const again = applyEvent(state, { type: 'chat.message', conversationId: 'c1', message: user('u2', null, 'edited') });
    expect(again.view.messages).toHaveLength(1);
  });

  it('keeps the latest event of each tool call, merged with what it knew', () => {
    const base = { conversationId: 'c1', messageId: 'a1', callId: 'k', name: 'mcp_x_y', argumentsText: '{}' };
    const state = run([
      { type: 'chat.toolCall', ...base, phase: 'started' },
      { type: 'chat.toolCall', ...base, phase: 'started', childConversationId: 'child' },
      { type: 'chat.toolCall', ...base, phase: 'finished', status: 'ok', durationMs: 5 },
    ]);
    expect(state.calls.get('k')).toMatchObject({ phase: 'finished', status: 'ok', durationMs: 5, childConversationId: 'child' });
  });

  it('holds a window of a long branch: older and newer pages join it, and a message below an unloaded one is counted, not shown', () => {
    const all = Array.from({ length: 10 }, (_, i) => (i % 2 ? answer(`m${i}`, `m${i - 1}`, `a${i}`) : user(`m${i}`, i ? `m${i - 1}` : null, `q${i}`)));
    const windowed = (from: number, to: number): ConversationView => ({ ...view(all.slice(from, to)), window: { start: from, end: to, total: 10 } });
    // Opened at m4..m5 (a search hit): neither end is loaded.
    let state = initialState(windowed(4, 6));
    expect([hasOlder(state), reachesEnd(state)]).toEqual([true, false]);
    // The answer to a new question arrives: it is after m9, not loaded, so it is counted.
    state = applyEvent(state, { type: 'chat.message', conversationId: 'c1', message: user('m10', 'm9', 'new') });
    expect(state.view.messages.map((m) => m.id)).toEqual(['m4', 'm5']);
    expect(state.window).toEqual({ start: 4, end: 6, total: 11 });
    expect(state.stale).toBe(false);
    state = withOlder(state, windowed(1, 4));
    expect(state.view.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(state.window).toEqual({ start: 1, end: 6, total: 11 });
    state = withNewer(state, { ...view([...all.slice(6), user('m10', 'm9', 'new')]), window: { start: 6, end: 11, total: 11 } });
    expect(state.view.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10']);
    expect([hasOlder(state), reachesEnd(state)]).toEqual([true, true]);
    // With the end loaded, the next message joins the list.
    state = applyEvent(state, { type: 'chat.message', conversationId: 'c1', message: answer('m11', 'm10', 'shown') });
    expect(state.view.messages.at(-1)!.id).toBe('m11');
    expect(state.window).toEqual({ start: 1, end: 12, total: 12 });
    // An edit of a message before the window: only a reload shows that branch.
    expect(applyEvent(state, { type: 'chat.message', conversationId: 'c1', message: user('e1', 'm0', 'edited') }).stale).toBe(true);
  });
});
