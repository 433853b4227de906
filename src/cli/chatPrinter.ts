import type { ChatEvent, TurnOutcome } from '../core/facades/chat.js';
import type { AnswerStats, AssistantMessage, ConversationMessage, ToolMessage } from '../shared/chat.js';
import type { CliIo } from './output.js';

const clip = (text: string, max = 80) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** One line of numbers for an answer: first token, speed, tokens (thinking apart), cost. */
export function statsLine(stats: AnswerStats): string {
  return [
    stats.ttftMs !== undefined ? `first token ${Math.round(stats.ttftMs)} ms` : '',
    stats.tokensPerSecond !== undefined ? `${stats.tokensPerSecond} tokens/s` : '',
    stats.inputTokens !== undefined ? `${stats.inputTokens} in / ${stats.outputTokens} out${stats.reasoningTokens !== undefined ? ` (${stats.reasoningTokens} thinking)` : ''}` : '',
    stats.cost !== undefined ? `$${stats.cost.toFixed(4)}` : '',
    stats.attempts > 1 ? `${stats.attempts} tries` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** What the user should know about an answer besides its text: a refusal, a cut (and how to go on, in `conversationId`), what the host noticed. */
function answerNotes(message: AssistantMessage, conversationId?: string): string[] {
  const notes: string[] = [];
  if (message.refusal) notes.push(`refused: ${message.refusal}`);
  if (message.finish === 'content-filter') notes.push("note: the provider's content filter stopped this answer");
  if (message.finish === 'length') notes.push(`note: the answer was cut at the model's token limit${conversationId ? `; continue it: chatos chat --conversation ${conversationId} --continue` : ''}`);
  for (const notice of message.notices ?? []) notes.push(`note: ${notice}`);
  return notes;
}

/**
 * A turn on a terminal: the answer streamed to stdout as it comes, tool
 * calls and retries as lines on stderr, and the model's thinking on stderr
 * as it streams, after "thinking:" (unstyled: the CLI writes no styling of
 * its own, see output.ts) — never mixed into the answer, and not
 * at all with --json (the thinking is in the JSON). Piped, stdout gets the
 * answer once it is complete (see printAnswers), and stderr the same lines.
 */
export function turnPrinter(io: CliIo, conversationId: string, options: { json?: boolean } = {}): { onEvent(event: ChatEvent): void; streamed: boolean } {
  const stream = io.terminal === true && io.write !== undefined;
  let midLine = false;
  /** Calls already printed as started. */
  const shown = new Set<string>();
  /** The thinking being written on stderr, not ended with a newline yet. */
  let thinking = false;
  const endThinking = () => {
    if (!thinking) return;
    io.errWrite?.('\n');
    thinking = false;
  };
  const line = (text: string) => {
    endThinking();
    if (midLine) io.write!('\n');
    midLine = false;
    io.err(text);
  };
  return {
    streamed: stream,
    onEvent(event) {
      switch (event.type) {
        case 'reasoning':
          // On a terminal the text already went out as the answer: say what it was.
          if (event.fromAnswer && stream && event.conversationId === conversationId) return line("  (the text above was the model's thinking: its template opened <think> itself)");
          if (options.json || event.conversationId !== conversationId || !io.errWrite) return;
          if (!thinking) {
            if (midLine) io.write!('\n');
            midLine = false;
            io.errWrite('thinking: ');
            thinking = true;
          }
          io.errWrite(event.text);
          return;
        case 'delta':
          if (event.conversationId !== conversationId) return;
          endThinking();
          if (!stream) return;
          io.write!(event.text);
          midLine = !event.text.endsWith('\n');
          return;
        case 'toolCall': {
          const call = event.call;
          if (call.conversationId !== conversationId) return;
          // A call that waited for approval starts again once approved; the terminal's own question already said it.
          if (call.phase === 'started' && !call.childConversationId) {
            if (!shown.has(call.callId)) line(`  → ${call.name} ${clip(call.argumentsText, 60)}`);
            shown.add(call.callId);
          } else if (call.phase === 'started') line(`  ↳ sub-agent run ${call.childConversationId}`);
          else if (call.phase === 'finished')
            line(
              `  ${call.status === 'ok' ? '✓' : '✗'} ${call.name} ${call.status} in ${call.durationMs} ms${call.summary ? `: ${clip(call.summary)}` : ''}${call.artifacts?.length ? ` [${call.artifacts.map((a) => a.file).join(', ')}]` : ''}`,
            );
          return;
        }
        case 'status': {
          const { retry } = event.status;
          if (event.status.conversationId !== conversationId || !retry) return;
          line(
            `  … ${retry.error.kind}${retry.error.status ? ` ${retry.error.status}` : ''}: ${clip(retry.error.message)}; try ${retry.attempt + 1} of ${retry.maxAttempts} in ${Math.round(retry.delayMs / 100) / 10} s`,
          );
          return;
        }
        case 'message': {
          if (event.conversationId !== conversationId || event.message.role !== 'assistant') return;
          const message = event.message as AssistantMessage;
          endThinking();
          if (midLine) io.write!('\n');
          midLine = false;
          for (const note of answerNotes(message, conversationId)) io.err(note);
          const numbers = statsLine(message.stats);
          if (numbers) io.err(`  (${numbers})`);
          return;
        }
        default:
          return;
      }
    },
  };
}

/** Piped output: the text of each answer of the turn, as written. */
export function printAnswers(io: CliIo, outcome: TurnOutcome): void {
  const texts = outcome.messages.filter((m): m is AssistantMessage => m.role === 'assistant' && m.text.length > 0).map((m) => m.text);
  if (texts.length) io.out(texts.join('\n\n'));
}

/** A message as `conversations show` prints it. */
export function messageLines(message: ConversationMessage): string[] {
  switch (message.role) {
    case 'user':
      return [`you: ${message.text}`];
    case 'assistant': {
      const thought = message.reasoning?.text
        ? [`  (thought${message.reasoning.durationMs !== undefined ? ` for ${Math.round(message.reasoning.durationMs / 1000)} s` : ''}: ${clip(message.reasoning.text)})`]
        : [];
      const calls = message.toolCalls.map((c) => `  → ${c.name} ${clip(c.argumentsText, 60)}`);
      const stopped = message.status === 'stopped' ? [`  (stopped: ${message.stop?.message ?? ''})`] : [];
      const notes = answerNotes(message).map((note) => `  (${note})`);
      const numbers = statsLine(message.stats);
      return [...thought, `${message.agentId}: ${message.text}`, ...calls, ...stopped, ...notes, ...(numbers ? [`  (${numbers})`] : [])];
    }
    case 'tool': {
      const tool = message as ToolMessage;
      const images = tool.content.filter((c) => c.type === 'image').map((c) => (c.type === 'image' ? c.artifact : ''));
      return [
        `  ${tool.status === 'ok' ? '✓' : '✗'} ${tool.name} ${tool.status} in ${tool.durationMs} ms: ${clip(tool.content.map((c) => (c.type === 'image' || c.type === 'reminder' ? '' : c.text)).join(' '))}${images.length ? ` [${images.join(', ')}]` : ''}${tool.childConversationId ? ` (sub-agent run ${tool.childConversationId})` : ''}`,
      ];
    }
    case 'summary':
      return [`-- ${message.summarized} earlier messages summarized here --`, message.text, '--'];
  }
}
