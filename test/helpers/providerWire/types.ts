/** One scripted tool call; `arguments` (an object is sent as its JSON) is split into `pieces` deltas (default 3). */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** Responses API only: the namespace tool the function belongs to (Codex groups an MCP server's tools so: `mcp__<server>`). */
  namespace?: string;
  arguments: string | Record<string, unknown>;
  pieces?: number;
}

/** A streamed answer as a test scripts it, the same for every API. */
export interface ScriptedReply {
  /** The answer text, as one string (sent word by word) or as the exact pieces to send. */
  text?: string | string[];
  toolCalls?: ScriptedToolCall[];
  usage?: { input: number; output: number };
  /** Default: `tool-calls` when there are tool calls, else `stop`. */
  finish?: 'stop' | 'length';
  /** Wait this long before each frame. */
  delayMs?: number;
  /** Destroy the connection after this many frames (a stream cut mid-way). */
  cutAfter?: number;
  /** After this many frames, send nothing more and keep the connection open until the client goes. */
  hangAfter?: number;
  /** Before frame `after`, wait until `open` resolves (the model is held mid-answer while a test looks); several are kept in turn. */
  gate?: Gate | Gate[];
  headers?: Record<string, string>;
}

interface Gate {
  after: number;
  open: Promise<void>;
}

/** The gate before frame `i`, if any. */
export function gateAt(gate: Gate | Gate[] | undefined, i: number): Promise<void> | undefined {
  return (Array.isArray(gate) ? gate : gate ? [gate] : []).find((g) => g.after === i)?.open;
}

/** One server-sent event: `event:` (when named) and `data:` (an object is sent as JSON). */
export interface SseFrame {
  event?: string;
  data: unknown;
}

export const textPieces = (text: ScriptedReply['text']): string[] => (text === undefined ? [] : Array.isArray(text) ? text : (text.match(/\S+\s*|\s+/g) ?? []));

export const argumentsText = (call: ScriptedToolCall) => (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments));

/** The arguments cut into `pieces` parts of about equal length (so a JSON value is split mid-token). */
export function argumentPieces(call: ScriptedToolCall): string[] {
  const text = argumentsText(call);
  const count = Math.max(1, Math.min(call.pieces ?? 3, text.length));
  const size = Math.ceil(text.length / count);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length ? pieces : [''];
}

export const callId = (call: ScriptedToolCall, index: number) => call.id ?? `call_${index + 1}`;
export const usageOf = (reply: ScriptedReply) => reply.usage ?? { input: 11, output: 7 };
