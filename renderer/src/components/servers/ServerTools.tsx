import { Alert, Button, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/hooks';
import { ProblemList } from '../ProblemList';
import { ToolTable } from './ToolTable';
import { useToolActions } from './useToolActions';
import '../../i18n/load/servers';

/** A server's tools, listed on demand: `servers.tools` may start the server, so this shows progress while it does. */
export function ServerTools({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const tools = useApi('servers.tools', { serverId }, { refreshOn: ['mcp.reloaded', 'server.settings', 'server.tools'] });
  const actions = useToolActions(serverId, tools.reload);
  if (!tools.data && tools.loading)
    return (
      <Spin tip={t('servers.tools.loading')} style={{ display: 'block', padding: 24 }}>
        <div style={{ minHeight: 40 }} />
      </Spin>
    );
  if (!tools.data && tools.error)
    return (
      <Alert
        type="error"
        showIcon
        title={tools.error.message}
        description={tools.error.hint}
        action={
          <Button size="small" onClick={() => void tools.reload()}>
            {t('servers.retry')}
          </Button>
        }
      />
    );
  if (!tools.data) return null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid={`server-tools-${serverId}`}>
      {tools.error && <Alert type="warning" showIcon title={tools.error.message} description={tools.error.hint} />}
      <ToolTable serverId={serverId} tools={tools.data.tools} actions={actions} />
      {tools.data.problems.length > 0 && <ProblemList problems={tools.data.problems} />}
    </Space>
  );
}
