/**
 * The postMessage protocol between a UI-app frame and the shell (see the
 * bridge section of the design notes). Messages come from an untrusted page,
 * so they are checked field by field before anything acts on them.
 */

import type { ToolConfirmationRequest } from '../../../../src/shared/confirmation';
import type { HostEventMessage } from '../../../../src/shared/hostApi';

export type Theme = 'light' | 'dark';

export type FrameMessage =
  | { kind: 'request'; id: number; op: string; args: unknown[] }
  | { kind: 'ready' }
  /** `message` is absent when the page said nothing; the shell words that itself, in the user's language. */
  | { kind: 'failed'; message?: string };

export type ParentReply = { chatos: 'bridge'; v: 1; id: number; ok: true; result: unknown } | { chatos: 'bridge'; v: 1; id: number; ok: false; message: string };

export type ParentEvent =
  | { chatos: 'bridge'; v: 1; event: 'theme'; payload: Theme }
  | { chatos: 'bridge'; v: 1; event: 'app'; type: string; payload: unknown }
  | { chatos: 'bridge'; v: 1; event: 'chat'; payload: { type: string; sessionId: string; [key: string]: unknown } };

export function parseFrameMessage(data: unknown): FrameMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  if (message.chatos !== 'bridge' || message.v !== 1 || typeof message.op !== 'string') return null;
  if (message.op === 'ready' && message.id === undefined) return { kind: 'ready' };
  if (message.op === 'failed' && message.id === undefined) {
    return typeof message.message === 'string' && message.message ? { kind: 'failed', message: message.message.slice(0, 2000) } : { kind: 'failed' };
  }
  if (typeof message.id !== 'number' || !Number.isFinite(message.id)) return null;
  return { kind: 'request', id: message.id, op: message.op, args: Array.isArray(message.args) ? message.args : [] };
}

export function replyOk(id: number, result: unknown): ParentReply {
  return { chatos: 'bridge', v: 1, id, ok: true, result: result ?? null };
}

export function replyError(id: number, message: string): ParentReply {
  return { chatos: 'bridge', v: 1, id, ok: false, message };
}

export function themeEvent(theme: Theme): ParentEvent {
  return { chatos: 'bridge', v: 1, event: 'theme', payload: theme };
}

export function appEvent(type: string, payload: unknown): ParentEvent {
  return { chatos: 'bridge', v: 1, event: 'app', type, payload };
}

/**
 * A confirmation question as a page gets it (`mcp:tool_confirmation_required` /
 * `_expired`): what is asked and until when; not who asks (agent,
 * conversation), which a page learns of no other call either.
 */
export function confirmationForPage(request: ToolConfirmationRequest) {
  const { id, serverName, toolName, args, summary, risk, createdAt, expiresAt } = request;
  return { id, serverName, toolName, args, summary, risk, createdAt, expiresAt };
}

/**
 * A host chat event as a page gets it (the original page API's names: a
 * streamed piece is `assistant_delta` with `delta`), or undefined for an
 * event that is not about a conversation.
 */
export function chatPageEvent(event: HostEventMessage): ParentEvent | undefined {
  const wrap = (payload: { type: string; sessionId: string; [key: string]: unknown }): ParentEvent => ({ chatos: 'bridge', v: 1, event: 'chat', payload });
  switch (event.type) {
    case 'chat.delta':
      return wrap({ type: 'assistant_delta', sessionId: event.conversationId, messageId: event.messageId, delta: event.text });
    case 'chat.message':
      return wrap({ type: 'message', sessionId: event.conversationId, message: event.message });
    case 'chat.toolCall': {
      const { type: _type, conversationId, ...call } = event;
      return wrap({ type: 'tool_call', sessionId: conversationId, ...call });
    }
    case 'chat.status': {
      const { type: _type, conversationId, ...status } = event;
      return wrap({ type: 'status', sessionId: conversationId, ...status });
    }
    default:
      return undefined;
  }
}
