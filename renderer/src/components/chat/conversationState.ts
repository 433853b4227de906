import type { ChatStatusEvent, ConversationMessage, StopInfo, ToolCallEvent } from '../../../../src/shared/chat';
import type { ConversationView, HostEventMessage } from '../../../../src/shared/hostApi';

/**
 * One conversation as the Chat page follows it: what `conversations.get`
 * returned, then kept current by the chat.* events of that conversation
 * (pure, so it is tested without a browser). Deltas build the answer being
 * written until its message is stored; tool-call events carry the live
 * status of each call until its result is stored.
 */
export interface ConversationState {
  view: ConversationView;
  /** Answers being written, by message id: text not stored yet. */
  streaming: Map<string, string>;
  /** What the model thinks before it answers, by message id, while the answer is written (the Thinking block, live). */
  reasoning: Map<string, string>;
  /** The latest event of each tool call, by call id. */
  calls: Map<string, ToolCallEvent>;
  /** `running` from the first status event of a turn to its end. */
  phase: { kind: 'idle' } | { kind: 'running'; retry?: NonNullable<ChatStatusEvent['retry']> } | { kind: 'stopped'; stop: StopInfo } | { kind: 'done' };
  /** Bumped whenever the branch changed shape in a way only a reload shows (siblings of an edit or regeneration). */
  stale: boolean;
}

export function initialState(view: ConversationView): ConversationState {
  const { status } = view.conversation;
  const phase: ConversationState['phase'] =
    status.kind === 'running' ? { kind: 'running' } : status.kind === 'stopped' ? { kind: 'stopped', stop: status.stop } : status.kind === 'done' ? { kind: 'done' } : { kind: 'idle' };
  return { view, streaming: new Map(), reasoning: new Map(), calls: new Map(), phase, stale: false };
}

/** The branch with `message` stored: after its parent (a branch from an earlier message cuts what followed it). */
function withMessage(messages: ConversationMessage[], message: ConversationMessage): { messages: ConversationMessage[]; branched: boolean } {
  if (messages.some((m) => m.id === message.id)) return { messages, branched: false };
  if (message.parentId === null) return { messages: [message], branched: messages.length > 0 };
  const at = messages.findIndex((m) => m.id === message.parentId);
  if (at === -1) return { messages: [...messages, message], branched: false };
  return { messages: [...messages.slice(0, at + 1), message], branched: at < messages.length - 1 };
}

/** The state after one host event; the same object when the event is not about this conversation. */
export function applyEvent(state: ConversationState, event: HostEventMessage): ConversationState {
  const id = state.view.conversation.id;
  switch (event.type) {
    case 'chat.delta': {
      if (event.conversationId !== id) return state;
      const streaming = new Map(state.streaming);
      streaming.set(event.messageId, (streaming.get(event.messageId) ?? '') + event.text);
      return { ...state, streaming };
    }
    case 'chat.reasoning': {
      if (event.conversationId !== id) return state;
      const reasoning = new Map(state.reasoning);
      reasoning.set(event.messageId, (reasoning.get(event.messageId) ?? '') + event.text);
      // An answer that is only thinking so far is being written too: it shows, with its Thinking block open.
      const streaming = state.streaming.has(event.messageId) ? state.streaming : new Map(state.streaming).set(event.messageId, '');
      return { ...state, reasoning, streaming };
    }
    case 'chat.message': {
      if (event.conversationId !== id) return state;
      const { messages, branched } = withMessage(state.view.messages, event.message);
      const streaming = new Map(state.streaming);
      streaming.delete(event.message.id);
      const reasoning = new Map(state.reasoning);
      reasoning.delete(event.message.id);
      const leafId = messages.at(-1)?.id ?? null;
      return { ...state, streaming, reasoning, stale: state.stale || branched, view: { ...state.view, messages, conversation: { ...state.view.conversation, leafId } } };
    }
    case 'chat.toolCall': {
      if (event.conversationId !== id) return state;
      const calls = new Map(state.calls);
      const { type: _type, ...call } = event;
      calls.set(call.callId, { ...calls.get(call.callId), ...call });
      return { ...state, calls };
    }
    case 'chat.status': {
      if (event.conversationId !== id) return state;
      if (event.status === 'running') {
        // A retried request's partial text and thinking are void: the next try writes the answer anew.
        const streaming = new Map(state.streaming);
        const reasoning = new Map(state.reasoning);
        if (event.retry) {
          streaming.delete(event.retry.discardedMessageId);
          reasoning.delete(event.retry.discardedMessageId);
        }
        return { ...state, streaming, reasoning, phase: event.retry ? { kind: 'running', retry: event.retry } : { kind: 'running' } };
      }
      const conversation = { ...state.view.conversation, ...(event.totals ? { totals: event.totals } : {}) };
      const phase: ConversationState['phase'] = event.status === 'stopped' ? { kind: 'stopped', stop: event.stop ?? { kind: 'error', message: '' } } : { kind: 'done' };
      // What was streaming and never stored (stopped before any text) is gone.
      return { ...state, streaming: new Map(), reasoning: new Map(), phase, view: { ...state.view, conversation } };
    }
    default:
      return state;
  }
}

/** Whether an event may change this conversation's state (cheap filter before the reducer). */
export function concerns(event: HostEventMessage, conversationId: string): boolean {
  return (event.type === 'chat.delta' || event.type === 'chat.reasoning' || event.type === 'chat.message' || event.type === 'chat.toolCall' || event.type === 'chat.status') && event.conversationId === conversationId;
}
