import { randomUUID } from 'node:crypto';
import type { PlanEntry, SessionUpdate, ToolCall, ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { AssistantMessage, ToolCallStatus, ToolMessage } from '../../shared/chat.js';
import type { ChatEvent } from '../chat/chatPolicy.js';

/** One tool call the agent reported, as it stands. */
interface AgentCall {
  id: string;
  title: string;
  input: unknown;
  status: ToolCall['status'];
  content: ToolCallContent[];
  output: unknown;
  startedAt: number;
}

/** What the transcript appends (the turn's state keeps ids, parents and times). */
export interface TranscriptSink {
  append(message: Omit<AssistantMessage, 'id' | 'parentId' | 'at'> & { id: string }): void;
  appendTool(message: Omit<ToolMessage, 'id' | 'parentId' | 'at'>): void;
  emit(event: ChatEvent): void;
  now(): number;
}

/** How a call ended, by the agent's status (a Map: the status is the agent's data, never a key into a prototype). */
const ENDED = new Map<unknown, ToolCallStatus>([
  ['completed', 'ok'],
  ['failed', 'error'],
]);

/** A tool call's content as the text its card shows. */
function contentText(call: AgentCall): string {
  const parts = call.content.map((item) => {
    if (item.type === 'diff') return `${item.path}\n--- before\n${item.oldText ?? '(new file)'}\n+++ after\n${item.newText}`;
    if (item.type === 'terminal') return `(terminal ${item.terminalId})`;
    return item.content.type === 'text' ? item.content.text : `(${item.content.type})`;
  });
  if (parts.length === 0 && call.output !== undefined && call.output !== null) parts.push(typeof call.output === 'string' ? call.output : JSON.stringify(call.output, null, 2));
  return parts.join('\n');
}

const planText = (entries: readonly PlanEntry[]) => `Plan:\n${entries.map((e) => `${e.status === 'completed' ? '[x]' : e.status === 'in_progress' ? '[~]' : '[ ]'} ${e.content}`).join('\n')}`;

/**
 * The agent's `session/update`s written into the conversation as the host's
 * own messages (docs/using/acp.md#what-the-conversation-shows): its message
 * chunks and thoughts stream into an assistant message (the same delta and
 * reasoning events a model's answer sends), its tool calls become that
 * message's calls with one result each (the same tool cards), and its plan
 * is kept on the message. Text after a tool call starts the next message,
 * so the order reads as the agent worked. Bounded: past `maxChars` of text
 * the transcript says so and the turn is cut.
 */
export class AcpTranscript {
  private messageId = randomUUID();
  private text = '';
  private reasoning = '';
  private plan: PlanEntry[] = [];
  private calls = new Map<string, AgentCall>();
  /** What the host says about the turn (a session that could not be resumed), kept with the next message. */
  private notes: string[] = [];
  private startedAt: number;
  private total = 0;
  /** Set once the text passed its bound: the turn ends. */
  overflowed = false;

  constructor(
    private readonly sink: TranscriptSink,
    private readonly who: { conversationId: string; agentId: string; modelId: string },
    private readonly maxChars: number,
  ) {
    this.startedAt = sink.now();
  }

  /** A notice of the host's own, shown with the turn's next message. */
  note(text: string): void {
    this.notes.push(text);
  }

  /** A call that waits for the person's answer to `request`: its card shows the question (a permission, a terminal command). */
  awaiting(callId: string, name: string, input: unknown, request: { id: string; expiresAt: number; createdAt: number }): void {
    this.sink.emit({
      type: 'toolCall',
      call: {
        conversationId: this.who.conversationId,
        messageId: this.messageId,
        callId,
        name,
        argumentsText: JSON.stringify(input ?? {}),
        phase: 'awaiting',
        confirmation: { id: request.id, expiresAt: request.expiresAt, createdAt: request.createdAt },
      },
    });
  }

  update(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type !== 'text') return;
        if (this.calls.size) this.flush('complete');
        if (!this.take(update.content.text.length)) return;
        this.text += update.content.text;
        this.sink.emit({ type: 'delta', conversationId: this.who.conversationId, messageId: this.messageId, text: update.content.text });
        return;
      case 'agent_thought_chunk':
        if (update.content.type !== 'text' || !this.take(update.content.text.length)) return;
        this.reasoning += update.content.text;
        this.sink.emit({ type: 'reasoning', conversationId: this.who.conversationId, messageId: this.messageId, text: update.content.text });
        return;
      case 'tool_call':
        this.call(update);
        return;
      case 'tool_call_update':
        this.callUpdate(update);
        return;
      case 'plan':
        this.plan = update.entries.slice(0, 200);
        return;
      default:
        // Commands, modes, usage, notices: nothing the conversation shows yet.
        return;
    }
  }

  private take(chars: number): boolean {
    this.total += chars;
    if (this.total > this.maxChars) this.overflowed = true;
    return !this.overflowed;
  }

  private call(update: ToolCall): void {
    if (!this.take(0) || this.calls.size >= 1000) return;
    const call: AgentCall = {
      id: update.toolCallId,
      title: update.title,
      input: update.rawInput,
      status: update.status,
      content: update.content ?? [],
      output: update.rawOutput,
      startedAt: this.sink.now(),
    };
    this.calls.set(call.id, call);
    this.sink.emit({
      type: 'toolCall',
      call: { conversationId: this.who.conversationId, messageId: this.messageId, callId: call.id, name: call.title, argumentsText: JSON.stringify(call.input ?? {}), phase: 'started' },
    });
    if (ENDED.get(call.status) !== undefined) this.finished(call);
  }

  private callUpdate(update: ToolCallUpdate): void {
    const call = this.calls.get(update.toolCallId);
    if (!call) return;
    if (update.title) call.title = update.title;
    if (update.rawInput !== undefined) call.input = update.rawInput;
    if (update.content) call.content = update.content;
    if (update.rawOutput !== undefined) call.output = update.rawOutput;
    if (update.status) call.status = update.status;
    if (ENDED.get(call.status) !== undefined) this.finished(call);
  }

  private finished(call: AgentCall): void {
    const status = ENDED.get(call.status) ?? 'ok';
    this.sink.emit({
      type: 'toolCall',
      call: {
        conversationId: this.who.conversationId,
        messageId: this.messageId,
        callId: call.id,
        name: call.title,
        argumentsText: JSON.stringify(call.input ?? {}),
        phase: 'finished',
        status,
        durationMs: this.sink.now() - call.startedAt,
        summary: contentText(call).slice(0, 500),
      },
    });
  }

  /** Writes what came since the last flush: the message, then one result per call (a call still open is `cancelled` when the turn stopped). */
  flush(status: 'complete' | 'stopped', extra: Pick<AssistantMessage, 'stop' | 'finish' | 'refusal' | 'notices'> = {}): void {
    const calls = [...this.calls.values()];
    if (!this.text && !this.reasoning && calls.length === 0 && this.plan.length === 0 && this.notes.length === 0 && !extra.notices?.length && !extra.stop) return;
    const notices = [...this.notes, ...(this.plan.length ? [planText(this.plan)] : []), ...(extra.notices ?? [])];
    this.sink.append({
      id: this.messageId,
      role: 'assistant',
      agentId: this.who.agentId,
      modelId: this.who.modelId,
      text: this.text,
      toolCalls: calls.map((c) => ({ id: c.id, name: c.title, argumentsText: JSON.stringify(c.input ?? {}) })),
      status,
      stats: { durationMs: this.sink.now() - this.startedAt, toolsSent: 0, attempts: 1 },
      ...(this.reasoning ? { reasoning: { text: this.reasoning } } : {}),
      ...(extra.stop ? { stop: extra.stop } : {}),
      ...(extra.finish ? { finish: extra.finish } : {}),
      ...(extra.refusal ? { refusal: extra.refusal } : {}),
      ...(notices.length ? { notices } : {}),
    });
    for (const call of calls) {
      const ended = ENDED.get(call.status);
      const callStatus: ToolCallStatus = ended ?? (status === 'stopped' ? 'cancelled' : 'ok');
      const text = contentText(call);
      this.sink.appendTool({
        role: 'tool',
        callId: call.id,
        name: call.title,
        content: text ? [{ type: 'text', text }] : [],
        isError: callStatus === 'error',
        status: callStatus,
        durationMs: this.sink.now() - call.startedAt,
      });
    }
    this.messageId = randomUUID();
    this.text = '';
    this.reasoning = '';
    this.plan = [];
    this.notes = [];
    this.calls = new Map();
    this.startedAt = this.sink.now();
  }
}
