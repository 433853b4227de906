import { randomBytes } from 'node:crypto';
import { toolCallEvent, type StreamEvent } from './streamEvent.js';

/**
 * Tool calls of a chat-completions stream, put together from their pieces
 * whatever shape the provider streams them in. OpenAI sends the id and name
 * once, then the arguments in many deltas, all under one `index`; the
 * servers people run say otherwise:
 *
 * - Ollama 0.20 sends every call whole under `index: 0` (a new id each);
 *   older Ollama and Gemini's OpenAI endpoint send no `index` at all.
 * - DashScope repeats `"id": ""` on every piece after the first, vLLM
 *   `"id": null`; a name may come split over pieces, or repeated.
 * - Arguments may come as an object (not a JSON string), or all at once.
 * - An id may be missing, or the same for two calls of one message.
 *
 * So a piece continues the call at its index (or the latest call, without
 * one), and starts a new call when it brings a new id with a name (or after
 * that call's arguments were complete), or a name once that call's
 * arguments began. A new id without a name in the middle of arguments is
 * the same call with its id changed by the provider: the first id is kept
 * and a notice says so. Calls without a usable id get one of ours, made once
 * and stored, so the results go back under the same id every time.
 */

export interface ToolCallPiece {
  index?: number;
  id?: string | null;
  name?: string | null;
  arguments?: unknown;
  extraContent?: Record<string, unknown>;
}

interface Call {
  id: string;
  name: string;
  args: string;
  extraContent?: Record<string, unknown>;
}

/** Arguments this long are cut off: a provider streaming without end does not fill the memory. */
const MAX_ARGUMENT_CHARS = 4 * 1024 * 1024;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function completeJson(args: string): boolean {
  if (!args.trim()) return false;
  try {
    JSON.parse(args);
    return true;
  } catch {
    return false;
  }
}

export class ToolCallAssembler {
  private readonly calls: Call[] = [];
  private readonly byIndex = new Map<number, Call>();
  private readonly notices: string[] = [];

  get size(): number {
    return this.calls.length;
  }

  push(piece: ToolCallPiece): void {
    const id = text(piece.id);
    const name = text(piece.name);
    const args = typeof piece.arguments === 'string' ? piece.arguments : piece.arguments !== null && typeof piece.arguments === 'object' ? JSON.stringify(piece.arguments) : '';
    const index = typeof piece.index === 'number' && Number.isInteger(piece.index) ? piece.index : undefined;
    let call = index !== undefined ? this.byIndex.get(index) : this.calls.at(-1);
    if (call && this.startsAnother(call, id, name)) call = undefined;
    if (!call) {
      call = { id: id ?? '', name: '', args: '' };
      this.calls.push(call);
    } else if (id && call.id && id !== call.id) {
      this.notices.push(`the provider changed the id of the call to ${call.name || 'a tool'} mid-stream (from "${call.id}" to "${id}"); the first id is kept`);
    }
    if (index !== undefined) this.byIndex.set(index, call);
    if (!call.id && id) call.id = id;
    // A name split over pieces is joined; one repeated whole is not doubled.
    if (name && name !== call.name && !call.args) call.name += name;
    if (args && call.args.length < MAX_ARGUMENT_CHARS) call.args += args.slice(0, MAX_ARGUMENT_CHARS - call.args.length);
    if (piece.extraContent) call.extraContent = piece.extraContent;
  }

  private startsAnother(call: Call, id: string | undefined, name: string | undefined): boolean {
    if (id && call.id && id !== call.id) return name !== undefined || completeJson(call.args);
    if ((id && id === call.id) || name === undefined) return false;
    // Another tool's name once arguments began, or any name once they are complete (the same tool called twice).
    if (name !== call.name && call.args.trim() !== '') return true;
    return completeJson(call.args);
  }

  /** The calls in the order they began, each with an id unique in this answer, then what was noticed. */
  finish(): StreamEvent[] {
    const used = new Set<string>();
    const events: StreamEvent[] = this.notices.map((notice) => ({ type: 'notice' as const, text: notice }));
    for (const call of this.calls) {
      let id = call.id;
      if (!id || used.has(id)) id = `call_${randomBytes(9).toString('base64url')}`;
      used.add(id);
      const extra = call.extraContent ? { extraContent: call.extraContent } : {};
      events.push(
        call.name
          ? toolCallEvent(id, call.name, call.args, extra)
          : { type: 'tool-call-malformed', id, name: '', argumentsText: call.args, message: 'the provider sent a tool call without a tool name', ...extra },
      );
    }
    return events;
  }
}
