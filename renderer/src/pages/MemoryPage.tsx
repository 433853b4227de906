import { Button, Card, Empty, Input, Skeleton, Space, Tag, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useApi } from '../api/hooks';
import { AgentMemoryList } from '../components/agents/AgentMemoryList';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import '../i18n/load/agents';
import '../i18n/load/memory';

/**
 * Every agent's memories in one place (docs/using/memory.md): one search
 * box over all of them (the same search an agent's memory_recall runs),
 * each agent's list editable as on its Memory tab, with who saved or
 * changed each memory and when. An agent that shares its app's memories
 * shows that space, and says so.
 */
export default function MemoryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const agents = useApi('agents.list', {}, { refreshOn: ['agents.changed'] });
  const [query, setQuery] = useState('');
  const list = useMemo(() => agents.data?.agents ?? [], [agents.data]);
  const names = useMemo(() => new Map(list.map((a) => [a.id, a.name])), [list]);
  const agentName = useCallback((id: string) => names.get(id) ?? id, [names]);

  return (
    <div className="page-stack" data-testid="page-memory">
      <Typography.Paragraph type="secondary">{t('memory.intro')}</Typography.Paragraph>
      <Input.Search
        allowClear
        size="large"
        placeholder={t('memory.search')}
        onSearch={(value) => setQuery(value.trim())}
        style={{ maxWidth: 560, marginBottom: 16 }}
        data-testid="memory-search"
        aria-label={t('memory.search')}
      />
      {agents.error && <ApiErrorAlert error={agents.error} onRetry={() => void agents.reload()} />}
      {!agents.data && !agents.error ? (
        <Skeleton active />
      ) : list.length === 0 ? (
        <Empty description={t('memory.noAgents')} />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {list.map((agent) => (
            <Card
              key={agent.id}
              size="small"
              title={
                <Space wrap>
                  <span>{agent.name}</span>
                  <Typography.Text type="secondary">{agent.id}</Typography.Text>
                  {agent.memory?.enabled ? <Tag color="green">{t('memory.on')}</Tag> : <Tag>{t('memory.off')}</Tag>}
                  {agent.memory?.shared && <Tag color="blue">{t('memory.shared', { app: agent.hostAppId })}</Tag>}
                </Space>
              }
              extra={
                <Button size="small" onClick={() => void navigate('/agents')} data-testid={`memory-agent-open-${agent.id}`}>
                  {t('memory.openAgent')}
                </Button>
              }
              data-testid={`memory-agent-${agent.id}`}
            >
              <AgentMemoryList agentId={agent.id} query={query} agentName={agentName} />
            </Card>
          ))}
        </Space>
      )}
    </div>
  );
}
