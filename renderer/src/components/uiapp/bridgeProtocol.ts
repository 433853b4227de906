/**
 * The postMessage protocol between a UI-app frame and the shell (see the
 * bridge section of the design notes). Messages come from an untrusted page,
 * so they are checked field by field before anything acts on them.
 */

export type Theme = 'light' | 'dark';

export type FrameMessage =
  | { kind: 'request'; id: number; op: string; args: unknown[] }
  | { kind: 'ready' }
  /** `message` is absent when the page said nothing; the shell words that itself, in the user's language. */
  | { kind: 'failed'; message?: string };

export type ParentReply =
  | { chatos: 'bridge'; v: 1; id: number; ok: true; result: unknown }
  | { chatos: 'bridge'; v: 1; id: number; ok: false; message: string };

export type ParentEvent =
  | { chatos: 'bridge'; v: 1; event: 'theme'; payload: Theme }
  | { chatos: 'bridge'; v: 1; event: 'app'; type: string; payload: unknown };

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
