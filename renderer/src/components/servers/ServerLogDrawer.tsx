import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, Empty, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi, useHostEvent } from '../../api/hooks';
import { CodeBlock } from '../ToolResultView';
import { ServerLogLevel } from './ServerLogLevel';
import '../../i18n/load/servers';

/** A server's recent stderr, connection log and own log messages (`servers.log`), newest last, with the level it logs from; reloads when the server's state changes. */
export function ServerLogDrawer({ serverId, onClose }: { serverId: string | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const log = useApi('servers.log', serverId ? { serverId } : undefined, { skip: !serverId });
  // No event per log line; a state change (start, crash, stop) is when new lines are most likely.
  useHostEvent('server.state', (event) => {
    if (serverId !== undefined && event.serverId === serverId) void log.reload();
  });
  const lines = log.data?.lines ?? [];
  return (
    <Drawer
      open={serverId !== undefined}
      onClose={onClose}
      size="large"
      title={t('servers.log.title', { id: serverId ?? '' })}
      extra={
        <Space>
          {serverId !== undefined && <ServerLogLevel serverId={serverId} onChanged={() => void log.reload()} />}
          <Button icon={<ReloadOutlined />} loading={log.loading} onClick={() => void log.reload()} data-testid="server-log-refresh">
            {t('servers.log.refresh')}
          </Button>
        </Space>
      }
    >
      {log.error && <Alert type="error" showIcon style={{ marginBottom: 12 }} title={log.error.message} description={log.error.hint} />}
      {!log.data && log.loading ? <Skeleton active /> : lines.length === 0 ? <Empty description={t('servers.log.empty')} /> : <CodeBlock testId="server-log-lines">{lines.join('\n')}</CodeBlock>}
    </Drawer>
  );
}
