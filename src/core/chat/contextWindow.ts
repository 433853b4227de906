import type { ConversationMessage } from '../../shared/chat.js';
import { activeStart } from './history.js';
import { sentChars } from './resultCap.js';

/**
 * When the history nears the model's context window, older turns are
 * summarized by the model. Pure: token counts are estimates (about four
 * characters a token, a fixed amount per image), which is what a host can
 * know without each provider's tokenizer; the thresholds leave room for
 * that error.
 */

/** Summarize once the request is estimated above this share of the window… */
export const COMPACT_AT = 0.8;
/** …keeping the newest turns that fit in this share of it. */
export const KEEP_SHARE = 0.4;
const IMAGE_TOKENS = 1_000;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function messageTokens(message: ConversationMessage): number {
  switch (message.role) {
    case 'user':
      // Attachments count too: a document by its kept text, an image as one image.
      return (
        estimateTokens(message.text) +
        4 +
        (message.attachments ?? []).reduce((sum, a) => sum + (a.kind === 'image' ? IMAGE_TOKENS : Math.ceil(a.chars / 4)), 0) +
        (message.appContext ?? []).reduce((sum, c) => sum + estimateTokens(c.text) + 40, 0)
      );
    case 'summary':
      return estimateTokens(message.text) + 4;
    case 'assistant':
      return estimateTokens(message.text) + message.toolCalls.reduce((sum, call) => sum + estimateTokens(call.name) + estimateTokens(call.argumentsText) + 8, 4);
    case 'tool':
      // What the model is sent of it: its text up to the result's cap (resultCap.ts).
      return message.content.reduce((sum, item) => sum + (item.type === 'image' ? IMAGE_TOKENS : 0), 8) + Math.ceil(sentChars(message.content, message.maxResultChars) / 4);
  }
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
export function planCompaction(path: readonly ConversationMessage[], fixedTokens: number, contextWindow: number | undefined, options: { force?: boolean } = {}): CompactionPlan | undefined {
  const { summary, start } = activeStart(path);
  const active = path.slice(start).filter((m) => m.role !== 'summary');
  const sizes = active.map(messageTokens);
  const total = fixedTokens + (summary ? estimateTokens(summary.text) : 0) + sizes.reduce((a, b) => a + b, 0);
  const window = options.force ? Math.min(contextWindow ?? total, total) : contextWindow;
  if (window === undefined || (!options.force && total <= window * COMPACT_AT)) return undefined;

  const budget = Math.max(0, window * KEEP_SHARE - fixedTokens);
  let kept = 0;
  let cut = -1;
  for (let i = active.length - 1; i >= 0; i--) {
    kept += sizes[i]!;
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
