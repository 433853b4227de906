import { DeleteOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Empty, List, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorLine } from '../../api/client';
import { useApi } from '../../api/hooks';
import { formatAgo, useNow } from '../servers/time';
import '../../i18n/load/agents';

/**
 * The confirm-level tools this agent runs without asking ("always allow",
 * answered on a confirmation card), each revocable: the next call asks again.
 */
export function AlwaysAllowedTools({ agentId }: { agentId: string }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const { message } = AntApp.useApp();
  // Answers given in a conversation arrive as resolved confirmations; the list follows them.
  const entries = useApi('alwaysAllow.list', { agentId }, { refreshOn: ['question', 'agents.changed'] });
  const [revoking, setRevoking] = useState<string>();

  const revoke = async (toolName: string) => {
    setRevoking(toolName);
    try {
      await api.call('alwaysAllow.revoke', { agentId, toolName });
      void message.success(t('agents.alwaysAllow.revoked', { tool: toolName }));
      await entries.reload();
    } catch (error) {
      void message.error(errorLine(error));
    } finally {
      setRevoking(undefined);
    }
  };

  const list = entries.data?.entries ?? [];
  return (
    <div data-testid="agent-always-allowed">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('agents.alwaysAllow.help')}
      </Typography.Paragraph>
      {entries.error && <Typography.Text type="danger">{entries.error.message}</Typography.Text>}
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('agents.alwaysAllow.none')} />
      ) : (
        <List
          size="small"
          bordered
          dataSource={list}
          renderItem={(entry) => (
            <List.Item
              data-testid={`always-allowed-${entry.toolName}`}
              actions={[
                <Button
                  key="revoke"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  loading={revoking === entry.toolName}
                  onClick={() => void revoke(entry.toolName)}
                  data-testid={`always-allowed-revoke-${entry.toolName}`}
                >
                  {t('agents.alwaysAllow.revoke')}
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={<Typography.Text code>{entry.toolName}</Typography.Text>}
                description={t('agents.alwaysAllow.since', { server: entry.serverId, when: formatAgo(entry.createdAt, i18n.language, now) })}
              />
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
