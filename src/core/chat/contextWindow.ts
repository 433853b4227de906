import type { ConversationMessage, SummaryMessage } from '../../shared/chat.js';
import { activeStart } from './history.js';
import { sentChars } from './resultCap.js';
import { estimateTokens, type TokenCounter } from './tokenCount.js';

/**
 * When the history nears the model's context window, older turns are
 * summarized by the model. Pure: token counts come from the counter given
 * (the model's tokenizer, or a per-script estimate: tokenCount.ts), and the
 * provider's own count of the last request wins where it is higher; a
 * fixed amount counts per image. The thresholds leave room for the error.
 */

/** Summarize once the request is estimated above this share of the window… */
export const COMPACT_AT = 0.8;
/** …keeping the newest turns that fit in this share of it. */
export const KEEP_SHARE = 0.4;
const IMAGE_TOKENS = 1_000;

/** How a message's size is counted: the counter, and a document attachment's kept text where it can be read. */
export interface Counting {
  count: TokenCounter;
  /** The text of a document attachment (its artifact), counted as the model is sent it; absent: its characters ÷ 4. */
  documentText?(artifact: string): string | undefined;
}

export function messageTokens(message: ConversationMessage, counting: Counting = { count: estimateTokens }): number {
  const { count } = counting;
  const documentTokens = (artifact: string, chars: number) => {
    const text = counting.documentText?.(artifact);
    return text === undefined ? Math.ceil(chars / 4) : count(text);
  };
  switch (message.role) {
    case 'user':
      // Attachments count too: a document by its kept text, an image as one image.
      return (
        count(message.text) +
        4 +
        (message.attachments ?? []).reduce((sum, a) => sum + (a.kind === 'image' ? IMAGE_TOKENS : documentTokens(a.artifact, a.chars)), 0) +
        (message.appContext ?? []).reduce((sum, c) => sum + count(c.text) + 40, 0)
      );
    case 'summary':
      return count(message.text) + 4;
    case 'assistant':
      return count(message.text) + message.toolCalls.reduce((sum, call) => sum + count(call.name) + count(call.argumentsText) + 8, 4);
    case 'tool': {
      // What the model is sent of it: its text up to the result's cap (resultCap.ts).
      const text = message.content.map((item) => (item.type === 'image' ? '' : item.text)).join('');
      return message.content.reduce((sum, item) => sum + (item.type === 'image' ? IMAGE_TOKENS : 0), 8) + count(text.slice(0, sentChars(message.content, message.maxResultChars)));
    }
  }
}

/**
 * What the provider counted for the newest answer on the path (its request's input and the answer's output) plus
 * the counter's share of what came after it: the provider's own tokenizer, which the host cannot beat. Only an
 * answer made after the latest summary counts: one before it was asked with the turns now summarized.
 */
function reportedTotal(path: readonly ConversationMessage[], summary: SummaryMessage | undefined, active: readonly ConversationMessage[], sizes: readonly number[]): number | undefined {
  const since = summary ? path.indexOf(summary) : -1;
  for (let i = active.length - 1; i >= 0; i--) {
    const message = active[i]!;
    if (path.indexOf(message) < since) return undefined;
    if (message.role !== 'assistant' || !message.stats.inputTokens) continue;
    return message.stats.inputTokens + (message.stats.outputTokens ?? 0) + sizes.slice(i + 1).reduce((a, b) => a + b, 0);
  }
  return undefined;
}

/** The request's size: the active messages' counts, their sum with what is always sent, and the provider's count where higher. */
function measure(path: readonly ConversationMessage[], fixedTokens: number, counting: Counting) {
  const { summary, start } = activeStart(path);
  const active = path.slice(start).filter((m) => m.role !== 'summary');
  const sizes = active.map((m) => messageTokens(m, counting));
  const counted = fixedTokens + (summary ? counting.count(summary.text) : 0) + sizes.reduce((a, b) => a + b, 0);
  const total = Math.max(counted, reportedTotal(path, summary, active, sizes) ?? 0);
  return { summary, active, sizes, counted, total };
}

/** How many tokens sending `path` costs, by the counter (or the provider's count of the last answer, where higher). */
export function requestTokens(path: readonly ConversationMessage[], fixedTokens: number, counting: Counting): number {
  return measure(path, fixedTokens, counting).total;
}

export interface CompactionPlan {
  /** The last message the summary covers: from the one after it, messages are sent as they are. */
  throughId: string;
  /** User and assistant text to summarize, oldest first (tool traffic is not taken: only what was said). */
  transcript: { role: 'user' | 'assistant'; text: string }[];
  /** The summary made last time, which the new one replaces. */
  previousSummary?: string;
  /** How many messages the new summary stands for (the old summary's ones included). */
  summarized: number;
}

/**
 * Whether to summarize before sending `path`, and what. `fixedTokens` is
 * what is sent whatever the history (system prompt, the agent's prompts,
 * tool definitions): never summarized or dropped. The cut falls before a
 * user message, so a tool call is never separated from its result, and
 * the newest user message is always kept as it is. Undefined when the
 * request fits, or when no older turn is left to summarize. `force` (the
 * provider said it is too long, whatever our estimate): summarize now,
 * keeping what fits in the share of the window, or of the request as it is
 * when no window is known.
 */
export function planCompaction(
  path: readonly ConversationMessage[],
  fixedTokens: number,
  contextWindow: number | undefined,
  options: { force?: boolean } & Partial<Counting> = {},
): CompactionPlan | undefined {
  const { summary, active, sizes, counted, total } = measure(path, fixedTokens, { count: options.count ?? estimateTokens, ...(options.documentText ? { documentText: options.documentText } : {}) });
  const window = options.force ? Math.min(contextWindow ?? total, total) : contextWindow;
  if (window === undefined || (!options.force && total <= window * COMPACT_AT)) return undefined;

  // Where the provider counted more than the counter, each message is that much bigger than counted: what is kept must fit by its count.
  const scale = counted > 0 ? total / counted : 1;
  const budget = Math.max(0, window * KEEP_SHARE - fixedTokens * scale);
  let kept = 0;
  let cut = -1;
  for (let i = active.length - 1; i >= 0; i--) {
    kept += sizes[i]! * scale;
    if (active[i]!.role !== 'user') continue;
    // The newest user message stays whatever it costs; older turns only while they fit.
    if (cut === -1 || kept <= budget) cut = i;
    if (kept > budget) break;
  }
  if (cut <= 0) return undefined;
  const older = active.slice(0, cut);
  const transcript = older.flatMap((m) => {
    if (m.role !== 'user' && m.role !== 'assistant') return [];
    // The files a message carried are named, so the summary knows they were there (their content is not summarized).
    const text = [
      ...(m.role === 'user' ? (m.appContext ?? []).map((c) => `[context from the app "${c.from.name}"] ${c.text}`) : []),
      m.text.trim(),
      ...(m.role === 'user' ? (m.attachments ?? []).map((a) => `[attached ${a.kind === 'image' ? 'image' : 'file'} ${a.name}]`) : []),
    ]
      .filter(Boolean)
      .join('\n');
    // An app's message stays the app's in the summary too.
    return text ? [{ role: m.role, text: m.role === 'user' && m.from ? `[from the app "${m.from.name}"] ${text}` : text }] : [];
  });
  return {
    throughId: older.at(-1)!.id,
    transcript,
    ...(summary ? { previousSummary: summary.text } : {}),
    summarized: older.length + (summary?.summarized ?? 0),
  };
}

/** The request that asks the model for the summary. */
export function summaryRequestText(plan: CompactionPlan): string {
  const lines = plan.transcript.map((turn) => `${turn.role === 'user' ? 'User' : 'Assistant'}: ${turn.text}`);
  return [
    'Summarize the conversation below so that it can be continued from the summary alone.',
    'Keep every fact, decision, name, number and open question; leave out small talk. Write it as notes, in the language the user writes in.',
    plan.previousSummary ? `\nSummary of what came before it:\n${plan.previousSummary}` : '',
    `\nConversation:\n${lines.join('\n\n')}`,
  ].join('\n');
}

export const SUMMARY_SYSTEM = 'You write faithful, compact summaries of conversations. Answer with the summary only.';

/** How a summary reaches the model: after the system prompt and the agent's prompts, never in their place. */
export const summaryPreamble = (text: string) => `Summary of the earlier part of this conversation (older turns were summarized to fit the context window):\n${text}`;
