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
  /** Where `view.messages` sit on the branch: the first one's index, the index after the last, and the branch's length (a long conversation is loaded by windows). */
  window: { start: number; end: number; total: number };
}

export function initialState(view: ConversationView): ConversationState {
  const { status } = view.conversation;
  const phase: ConversationState['phase'] =
    status.kind === 'running' ? { kind: 'running' } : status.kind === 'stopped' ? { kind: 'stopped', stop: status.stop } : status.kind === 'done' ? { kind: 'done' } : { kind: 'idle' };
  return { view, streaming: new Map(), reasoning: new Map(), calls: new Map(), phase, stale: false, window: view.window ?? { start: 0, end: view.messages.length, total: view.messages.length } };
}

/** Whether the newest message of the branch is loaded: new messages then join the list; else they are counted until the user goes to them. */
export const reachesEnd = (state: ConversationState) => state.window.end >= state.window.total;
export const hasOlder = (state: ConversationState) => state.window.start > 0;

/** The branch with `message` stored: after its parent (a branch from an earlier message cuts what followed it). */
function withMessage(state: ConversationState, message: ConversationMessage): { messages: ConversationMessage[]; window: ConversationState['window']; branched: boolean } {
  const { messages } = state.view;
  const { start, end, total } = state.window;
  if (messages.some((m) => m.id === message.id)) return { messages, window: state.window, branched: false };
  if (message.parentId === null) return { messages: [message], window: { start: 0, end: 1, total: 1 }, branched: total > 0 };
  const at = messages.findIndex((m) => m.id === message.parentId);
  // Below a message not loaded: the branch's newest goes on beyond this window (counted, shown when the user goes there), or a branch from an older message (a reload shows it).
  if (at === -1) return reachesEnd(state) && messages.length > 0 ? { messages, window: state.window, branched: true } : { messages, window: { start, end, total: total + 1 }, branched: false };
  // After the last loaded message: the branch grows by one. After an earlier one: a new branch from there (a reload counts it).
  if (at === messages.length - 1) return { messages: [...messages, message], window: { start, end: end + 1, total: end + 1 }, branched: end < total };
  return { messages: [...messages.slice(0, at + 1), message], window: state.window, branched: true };
}

/** Older messages of the same branch, loaded as the user scrolled up: before what is shown. */
export function withOlder(state: ConversationState, older: ConversationView): ConversationState {
  const known = new Set(state.view.messages.map((m) => m.id));
  const added = older.messages.filter((m) => !known.has(m.id));
  return {
    ...state,
    window: { ...state.window, start: Math.min(state.window.start, older.window?.start ?? 0) },
    view: {
      ...state.view,
      messages: [...added, ...state.view.messages],
      siblings: { ...older.siblings, ...state.view.siblings },
      children: [...older.children, ...state.view.children],
      artifactUrls: { ...older.artifactUrls, ...state.view.artifactUrls },
    },
  };
}

/** Newer messages of the same branch (after a jump to an old one, as the user scrolls down): after what is shown. */
export function withNewer(state: ConversationState, newer: ConversationView): ConversationState {
  const known = new Set(state.view.messages.map((m) => m.id));
  const added = newer.messages.filter((m) => !known.has(m.id));
  return {
    ...state,
    window: { start: state.window.start, end: Math.max(state.window.end, newer.window?.end ?? state.window.end + added.length), total: Math.max(state.window.total, newer.window?.total ?? 0) },
    view: {
      ...state.view,
      messages: [...state.view.messages, ...added],
      siblings: { ...state.view.siblings, ...newer.siblings },
      children: [...state.view.children, ...newer.children],
      artifactUrls: { ...state.view.artifactUrls, ...newer.artifactUrls },
    },
  };
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
      // Thinking that came as the answer's text (a lone `</think>` closed it) leaves the answer.
      const streaming = state.streaming.has(event.messageId) && !event.fromAnswer ? state.streaming : new Map(state.streaming).set(event.messageId, '');
      return { ...state, reasoning, streaming };
    }
    case 'chat.message': {
      if (event.conversationId !== id) return state;
      const { messages, window, branched } = withMessage(state, event.message);
      const streaming = new Map(state.streaming);
      streaming.delete(event.message.id);
      const reasoning = new Map(state.reasoning);
      reasoning.delete(event.message.id);
      const leafId = messages === state.view.messages && window === state.window ? state.view.conversation.leafId : event.message.id;
      // The images a user's message carries come with it: the view loaded before it has no url for them.
      const artifactUrls = event.artifactUrls ? { ...state.view.artifactUrls, ...event.artifactUrls } : state.view.artifactUrls;
      return { ...state, streaming, reasoning, window, stale: state.stale || branched, view: { ...state.view, messages, artifactUrls, conversation: { ...state.view.conversation, leafId } } };
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
  return (
    (event.type === 'chat.delta' || event.type === 'chat.reasoning' || event.type === 'chat.message' || event.type === 'chat.toolCall' || event.type === 'chat.status') &&
    event.conversationId === conversationId
  );
}
