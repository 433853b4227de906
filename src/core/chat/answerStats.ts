import type { AnswerStats, ConversationTotals } from '../../shared/chat.js';
import type { ModelEntry } from '../../shared/models.js';

export interface AnswerTiming {
  /** performance.now() when the request that answered was sent. */
  startedMs: number;
  /** When its first text or tool call arrived. */
  firstTokenMs?: number;
  endedMs: number;
  usage?: { inputTokens: number; outputTokens: number };
  toolsSent: number;
  attempts: number;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Time to first token, tokens per second after it, tokens, and cost where the entry gives prices (per million tokens). Pure. */
export function answerStats(timing: AnswerTiming, prices: ModelEntry['prices']): AnswerStats {
  const { usage } = timing;
  const streamingMs = timing.firstTokenMs === undefined ? 0 : timing.endedMs - timing.firstTokenMs;
  const stats: AnswerStats = { durationMs: round(timing.endedMs - timing.startedMs), toolsSent: timing.toolsSent, attempts: timing.attempts };
  if (timing.firstTokenMs !== undefined) stats.ttftMs = round(timing.firstTokenMs - timing.startedMs);
  if (usage) {
    stats.inputTokens = usage.inputTokens;
    stats.outputTokens = usage.outputTokens;
    if (streamingMs > 0 && usage.outputTokens > 0) stats.tokensPerSecond = round(usage.outputTokens / (streamingMs / 1000));
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
