import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnswerStats as Stats, ConversationTotals } from '../../../../src/shared/chat';
import { useRowWords } from './rowContext';
import '../../i18n/load/chat';

// Number formats are costly to build and every answer shows several: one per locale and kind, kept.
const formats = new Map<string, Intl.NumberFormat>();
function format(locale: string, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${locale}|${key}`;
  let found = formats.get(id);
  if (!found) formats.set(id, (found = new Intl.NumberFormat(locale, options)));
  return found;
}
const number = (value: number, locale: string, digits = 0) => format(locale, `n${digits}`, { maximumFractionDigits: digits }).format(value);
const money = (value: number, locale: string) =>
  format(locale, value < 0.01 ? 'usd4' : 'usd2', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: value < 0.01 ? 4 : 2 }).format(value);

/** Answers' numbers as text, by the stats object (kept with its message) and the words: a row that scrolls into view again does not format them again. */
const statsTexts = new WeakMap<Stats, { t: TFunction; text: string }>();

function statsText(stats: Stats, t: TFunction, locale: string): string {
  const known = statsTexts.get(stats);
  if (known?.t === t) return known.text;
  const parts = [
    stats.ttftMs !== undefined ? t('chat.stats.ttft', { ms: number(stats.ttftMs, locale) }) : undefined,
    stats.tokensPerSecond !== undefined ? t('chat.stats.speed', { rate: number(stats.tokensPerSecond, locale, 1) }) : undefined,
    stats.inputTokens !== undefined ? t('chat.stats.input', { count: stats.inputTokens, n: number(stats.inputTokens, locale) }) : undefined,
    stats.outputTokens !== undefined ? t('chat.stats.output', { count: stats.outputTokens, n: number(stats.outputTokens, locale) }) : undefined,
    stats.reasoningTokens !== undefined ? t('chat.stats.reasoning', { n: number(stats.reasoningTokens, locale) }) : undefined,
    stats.cost !== undefined ? money(stats.cost, locale) : undefined,
    t('chat.stats.tools', { count: stats.toolsSent }),
    stats.attempts > 1 ? t('chat.stats.attempts', { count: stats.attempts }) : undefined,
  ].filter((part): part is string => part !== undefined);
  const text = parts.join(' · ');
  statsTexts.set(stats, { t, text });
  return text;
}

/** The numbers of one answer: time to first token, tokens per second, tokens in and out (thinking apart), cost, tools sent, tries. A plain span (styles.css): every answer has one. */
export const AnswerStats = memo(function AnswerStats({ stats }: { stats: Stats }) {
  const { t, language } = useRowWords();
  return (
    <span className="answer-stats" data-testid="answer-stats">
      {statsText(stats, t, language)}
    </span>
  );
});

/** A conversation's totals: answers, tokens in and out, cost where known. */
export function ConversationTotalsText({ totals }: { totals: ConversationTotals }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const parts = [
    t('chat.totals.answers', { count: totals.answers }),
    t('chat.stats.input', { count: totals.inputTokens, n: number(totals.inputTokens, locale) }),
    t('chat.stats.output', { count: totals.outputTokens, n: number(totals.outputTokens, locale) }),
    totals.cost > 0 ? money(totals.cost, locale) : undefined,
  ].filter((part): part is string => part !== undefined);
  return (
    <Typography.Text type="secondary" className="conversation-totals" data-testid="chat-totals">
      {parts.join(' · ')}
    </Typography.Text>
  );
}
