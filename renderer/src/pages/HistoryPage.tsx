import { ReloadOutlined } from '@ant-design/icons';
import { Button, Select, Space, Table, Tag, Typography } from 'antd';
import { useMemo, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditDecision, AuditOutcome, AuditRecord } from '../../../src/shared/audit';
import { useApi } from '../api/hooks';
import { CallDetail } from '../components/history/CallDetail';
import { OUTCOME_COLOR, outcomeKey, recordKey } from '../components/history/callWords';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import '../i18n/load/history';

const DECISIONS: AuditDecision[] = ['auto', 'approved', 'declined', 'expired', 'withdrawn', 'refused'];
const OUTCOMES: AuditOutcome[] = ['ok', 'tool-error', 'failed', 'cancelled', 'declined', 'refused', 'released'];
/** How many calls a view shows: the newest, filtered in the host. */
const LIMIT = 500;

interface Filters {
  appId?: string;
  agentId?: string;
  tool?: string;
  decision?: AuditDecision;
  outcome?: AuditOutcome;
}

/** The distinct values of one field among the records, sorted, for a filter's choices. */
function valuesOf(records: readonly AuditRecord[], field: 'appId' | 'agentId' | 'tool'): string[] {
  const values = new Set<string>();
  for (const record of records) {
    const value = record[field];
    if (typeof value === 'string') values.add(value);
  }
  return [...values].sort();
}

/**
 * Every tool call the gateway made or refused (the audit), newest first:
 * filtered by app, agent, tool, decision and outcome; a row opens the call
 * with its arguments, result and duration.
 */
export default function HistoryPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const [open, setOpen] = useState<AuditRecord | undefined>();
  const refreshOn = ['chat.toolCall', 'uiApp.toolCalled', 'question'] as const;
  // The newest calls, unfiltered, give each filter its choices; the table asks the host for the filtered ones.
  const choices = useApi('audit.list', { limit: 1000 }, { refreshOn: [...refreshOn] });
  const calls = useApi('audit.list', { limit: LIMIT, ...filters }, { refreshOn: [...refreshOn] });
  const seen = choices.data?.records ?? [];
  const options = useMemo(() => ({ appId: valuesOf(seen, 'appId'), agentId: valuesOf(seen, 'agentId'), tool: valuesOf(seen, 'tool') }), [seen]);
  const set = <K extends keyof Filters>(key: K, value: Filters[K] | undefined) => setFilters((previous) => ({ ...previous, [key]: value }));

  const select = (key: 'appId' | 'agentId' | 'tool', width = 200) => (
    <Select
      allowClear
      showSearch
      placeholder={t(`history.filter.${key}`)}
      style={{ width }}
      value={filters[key]}
      onChange={(value: string | undefined) => set(key, value)}
      options={options[key].map((value) => ({ value, label: value }))}
      aria-label={t(`history.filter.${key}`)}
      data-testid={`history-filter-${key}`}
    />
  );

  return (
    <div data-testid="page-history" className="page-stack">
      <div className="page-toolbar">
        <Typography.Text type="secondary" className="page-toolbar-text">
          {t('history.intro')}
        </Typography.Text>
        <Button icon={<ReloadOutlined />} onClick={() => void Promise.all([calls.reload(), choices.reload()])} data-testid="history-reload">
          {t('history.reload')}
        </Button>
      </div>
      <Space wrap>
        {select('appId')}
        {select('agentId', 160)}
        {select('tool', 260)}
        <Select
          allowClear
          placeholder={t('history.filter.decision')}
          style={{ width: 170 }}
          value={filters.decision}
          onChange={(value: AuditDecision | undefined) => set('decision', value)}
          options={DECISIONS.map((value) => ({ value, label: t(`history.decision.${value}`) }))}
          aria-label={t('history.filter.decision')}
          data-testid="history-filter-decision"
        />
        <Select
          allowClear
          placeholder={t('history.filter.outcome')}
          style={{ width: 200 }}
          value={filters.outcome}
          onChange={(value: AuditOutcome | undefined) => set('outcome', value)}
          options={OUTCOMES.map((value) => ({ value, label: t(outcomeKey({ outcome: value, decision: null })) }))}
          aria-label={t('history.filter.outcome')}
          data-testid="history-filter-outcome"
        />
      </Space>
      {calls.error && <ApiErrorAlert error={calls.error} onRetry={() => void calls.reload()} />}
      <Table<AuditRecord>
        size="small"
        loading={!calls.data && calls.loading}
        dataSource={(calls.data?.records ?? []).map((record, index) => ({ ...record, key: recordKey(record, index) }))}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: t(Object.values(filters).some((value) => value !== undefined) ? 'history.noMatch' : 'history.empty') }}
        onRow={(record) => ({ onClick: () => setOpen(record), style: { cursor: 'pointer' }, 'data-testid': `history-row-${record.tool ?? 'none'}` }) as HTMLAttributes<HTMLElement>}
        data-testid="history-table"
        columns={[
          { key: 'time', title: t('history.column.time'), width: 190, render: (_, r) => (r.time ? new Date(r.time).toLocaleString() : '—') },
          { key: 'tool', title: t('history.column.tool'), render: (_, r) => <Typography.Text code>{r.tool ?? '—'}</Typography.Text> },
          { key: 'app', title: t('history.column.app'), render: (_, r) => r.appId ?? '—' },
          { key: 'agent', title: t('history.column.agent'), render: (_, r) => r.agentId ?? '—' },
          { key: 'decision', title: t('history.column.decision'), width: 130, render: (_, r) => (r.decision ? t(`history.decision.${r.decision}`) : '—') },
          {
            key: 'outcome',
            title: t('history.column.outcome'),
            width: 220,
            render: (_, r) => (
              <Tag color={r.outcome ? OUTCOME_COLOR[r.outcome] : 'default'} data-testid="history-outcome">
                {t(outcomeKey(r))}
              </Tag>
            ),
          },
          { key: 'duration', title: t('history.column.duration'), width: 110, align: 'right', render: (_, r) => (r.durationMs === null ? '—' : t('history.ms', { ms: Math.round(r.durationMs) })) },
        ]}
      />
      <CallDetail record={open} onClose={() => setOpen(undefined)} />
    </div>
  );
}
