import { Descriptions, Drawer, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AuditRecord } from '../../../../src/shared/audit';
import { ArgsList } from '../chat/ArgsList';
import { CodeBlock } from '../ToolResultView';
import { OUTCOME_COLOR, outcomeKey } from './callWords';
import '../../i18n/load/history';

/** One call of the History page, opened: who called which tool, how it was decided and ended, its arguments, result and duration. */
export function CallDetail({ record, onClose }: { record: AuditRecord | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const dash = '—';
  return (
    <Drawer open={record !== undefined} onClose={onClose} size="large" title={record?.tool ?? t('history.detail.title')} data-testid="history-detail">
      {record && (
        <>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'outcome', label: t('history.column.outcome'), children: <Tag color={record.outcome ? OUTCOME_COLOR[record.outcome] : 'default'}>{t(outcomeKey(record))}</Tag> },
              { key: 'time', label: t('history.column.time'), children: record.time ? new Date(record.time).toLocaleString() : dash },
              {
                key: 'duration',
                label: t('history.column.duration'),
                children: <span data-testid="history-detail-duration">{record.durationMs === null ? dash : t('history.ms', { ms: Math.round(record.durationMs) })}</span>,
              },
              { key: 'app', label: t('history.column.app'), children: record.appId ?? dash },
              { key: 'agent', label: t('history.column.agent'), children: record.agentId ?? dash },
              { key: 'server', label: t('history.detail.server'), children: record.serverId ? <Typography.Text code>{record.serverId}</Typography.Text> : dash },
              { key: 'decision', label: t('history.column.decision'), children: record.decision ? t(`history.decision.${record.decision}`) : dash },
              { key: 'flow', label: t('history.detail.flow'), children: record.flow ? t(`history.flow.${record.flow}`) : dash },
              { key: 'conversation', label: t('history.detail.conversation'), children: record.conversationId ?? dash },
              ...(record.reason ? [{ key: 'reason', label: t('history.detail.reason'), children: <Typography.Text code>{record.reason}</Typography.Text> }] : []),
              // A server's refused requests are recorded once a minute with their count.
              ...(record.count
                ? [{ key: 'count', label: t('history.detail.count'), children: <span data-testid="history-detail-count">{t('history.detail.countText', { count: record.count })}</span> }]
                : []),
            ]}
          />
          {record.error && (
            <>
              <Typography.Title level={5}>{t('history.detail.error')}</Typography.Title>
              <CodeBlock testId="history-detail-error">{record.error}</CodeBlock>
            </>
          )}
          <Typography.Title level={5}>{t('history.detail.arguments')}</Typography.Title>
          {record.args === undefined ? <Typography.Text type="secondary">{t('history.detail.notKept')}</Typography.Text> : <ArgsList args={record.args} testId="history-detail-args" />}
          <Typography.Title level={5}>{t('history.detail.result')}</Typography.Title>
          {record.result === undefined ? (
            <Typography.Text type="secondary">{t(record.outcome === 'ok' || record.outcome === 'tool-error' ? 'history.detail.notKept' : 'history.detail.noResult')}</Typography.Text>
          ) : (
            <CodeBlock testId="history-detail-result" maxHeight={360}>
              {record.result}
            </CodeBlock>
          )}
        </>
      )}
    </Drawer>
  );
}
