import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ServerView } from '../../../../src/shared/hostApi';
import { formatMemory } from './formatMemory';
import { ServerStateBadge } from './ServerStateBadge';
import { formatAgo, useNow } from './time';
import '../../i18n/load/servers';

type Lease = ServerView['leases'][number];

/** A server's running instances: one row per conversation holding it, with its process, memory and last use. */
export function LeaseTable({ leases }: { leases: Lease[] }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  return (
    <Table<Lease>
      size="small"
      rowKey="conversationId"
      pagination={false}
      dataSource={leases}
      columns={[
        { title: t('servers.lease.conversation'), dataIndex: 'conversationId', render: (c: string) => <Typography.Text code>{c}</Typography.Text> },
        { title: t('servers.lease.state'), key: 'state', render: (_: unknown, lease) => <ServerStateBadge state={lease.state} /> },
        { title: t('servers.lease.pid'), dataIndex: 'pid', width: 90, render: (pid?: number) => pid ?? '—' },
        { title: t('servers.lease.memory'), dataIndex: 'rssBytes', width: 120, align: 'right', render: (bytes?: number) => (bytes === undefined ? '—' : formatMemory(bytes)) },
        { title: t('servers.lease.inFlight'), dataIndex: 'inFlight', width: 110, align: 'right' },
        { title: t('servers.lease.lastUsed'), dataIndex: 'lastUsed', width: 150, render: (ms: number) => <span title={new Date(ms).toLocaleString()}>{formatAgo(ms, i18n.language, now)}</span> },
      ]}
    />
  );
}
