import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AnswerStats as Stats, ConversationTotals } from '../../../../src/shared/chat';

const number = (value: number, locale: string, digits = 0) => value.toLocaleString(locale, { maximumFractionDigits: digits });
const money = (value: number, locale: string) => value.toLocaleString(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: value < 0.01 ? 4 : 2 });

/** The numbers of one answer: time to first token, tokens per second, tokens in and out, cost, tools sent, tries. */
export function AnswerStats({ stats }: { stats: Stats }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const parts = [
    stats.ttftMs !== undefined ? t('chat.stats.ttft', { ms: number(stats.ttftMs, locale) }) : undefined,
    stats.tokensPerSecond !== undefined ? t('chat.stats.speed', { rate: number(stats.tokensPerSecond, locale, 1) }) : undefined,
    stats.inputTokens !== undefined ? t('chat.stats.input', { count: stats.inputTokens, n: number(stats.inputTokens, locale) }) : undefined,
    stats.outputTokens !== undefined ? t('chat.stats.output', { count: stats.outputTokens, n: number(stats.outputTokens, locale) }) : undefined,
    stats.cost !== undefined ? money(stats.cost, locale) : undefined,
    t('chat.stats.tools', { count: stats.toolsSent }),
    stats.attempts > 1 ? t('chat.stats.attempts', { count: stats.attempts }) : undefined,
  ].filter((part): part is string => part !== undefined);
  return (
    <Typography.Text type="secondary" className="answer-stats" data-testid="answer-stats">
      {parts.join(' · ')}
    </Typography.Text>
  );
}

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
