import type { AnswerStats, ConversationTotals } from '../../shared/chat.js';
import type { ModelEntry } from '../../shared/models.js';

export interface AnswerTiming {
  /** performance.now() when the request that answered was sent. */
  startedMs: number;
  /** When its first reasoning, text or tool-call piece arrived, and its last. */
  firstTokenMs?: number;
  lastTokenMs?: number;
  endedMs: number;
  usage?: { inputTokens: number; outputTokens: number; reasoningTokens?: number };
  toolsSent: number;
  attempts: number;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Below this, pieces came in one burst (a tool call sent whole, a buffering
 * proxy): there is no rate to tell, and dividing by a few milliseconds
 * would show tens of thousands of tokens a second.
 */
const MIN_STREAMING_MS = 100;

/**
 * Time to first token (the first piece of thinking or of the answer),
 * tokens per second over the time pieces were arriving (not the wait for
 * the usage and the end after them), tokens (thinking apart where the
 * provider says), and cost where the entry gives prices (per million
 * tokens). Pure.
 */
export function answerStats(timing: AnswerTiming, prices: ModelEntry['prices']): AnswerStats {
  const { usage } = timing;
  const streamingMs = timing.firstTokenMs === undefined || timing.lastTokenMs === undefined ? 0 : timing.lastTokenMs - timing.firstTokenMs;
  const stats: AnswerStats = { durationMs: round(timing.endedMs - timing.startedMs), toolsSent: timing.toolsSent, attempts: timing.attempts };
  if (timing.firstTokenMs !== undefined) stats.ttftMs = round(timing.firstTokenMs - timing.startedMs);
  if (usage) {
    stats.inputTokens = usage.inputTokens;
    stats.outputTokens = usage.outputTokens;
    if (usage.reasoningTokens !== undefined) stats.reasoningTokens = usage.reasoningTokens;
    if (streamingMs >= MIN_STREAMING_MS && usage.outputTokens > 0) stats.tokensPerSecond = round(usage.outputTokens / (streamingMs / 1000));
    if (prices) stats.cost = (usage.inputTokens * prices.input + usage.outputTokens * prices.output) / 1_000_000;
  }
  return stats;
}

/** `answer`: false for a request that is not an answer (a summary of older turns): its tokens and cost count, not as an answer. */
export function addToTotals(totals: ConversationTotals, stats: AnswerStats | undefined, answer = true): ConversationTotals {
  if (!stats) return totals;
  return {
    answers: totals.answers + (answer ? 1 : 0),
    inputTokens: totals.inputTokens + (stats.inputTokens ?? 0),
    outputTokens: totals.outputTokens + (stats.outputTokens ?? 0),
    cost: totals.cost + (stats.cost ?? 0),
  };
}
