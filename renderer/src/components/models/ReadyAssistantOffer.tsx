import { RocketOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, errorLine } from '../../api/client';
import { useApi } from '../../api/hooks';
import '../../i18n/load/models';

/**
 * A first run's next step once a model exists (docs/using/agents.md#a-ready-assistant):
 * while no agent can chat (none has a model that exists), offer the ready
 * assistant for that model, and open a chat with it once it is made.
 */
export function ReadyAssistantOffer() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { message } = AntApp.useApp();
  const models = useApi('models.list', {}, { refreshOn: ['models.changed'] });
  const agents = useApi('agents.list', {}, { refreshOn: ['agents.changed'] });
  const [modelId, setModelId] = useState<string>();
  const [busy, setBusy] = useState(false);
  const list = models.data?.models ?? [];
  if (!models.data || !agents.data || list.length === 0) return null;
  const canChat = agents.data.agents.some((a) => a.modelId !== undefined && list.some((m) => m.id === a.modelId));
  if (canChat) return null;
  const chosen = list.some((m) => m.id === modelId) ? modelId! : list[0]!.id;

  const create = async () => {
    setBusy(true);
    try {
      const { agent } = await api.call('agents.createReady', { modelId: chosen, language: i18n.language === 'zh' ? 'zh' : 'en' });
      void message.success(t('models.ready.created', { name: agent.name }));
      void navigate(`/chat?agent=${encodeURIComponent(agent.id)}`);
    } catch (error) {
      void message.error(errorLine(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Alert
      type="success"
      showIcon
      icon={<RocketOutlined />}
      style={{ marginBottom: 16 }}
      data-testid="ready-assistant"
      title={t('models.ready.title')}
      description={
        <Space orientation="vertical" size={8} style={{ width: '100%' }}>
          <span>{t('models.ready.help')}</span>
          <Space wrap>
            {list.length > 1 && (
              <Select
                value={chosen}
                onChange={setModelId}
                style={{ minWidth: 200 }}
                options={list.map((m) => ({ value: m.id, label: m.name }))}
                aria-label={t('models.ready.model')}
                data-testid="ready-assistant-model"
              />
            )}
            <Button type="primary" loading={busy} onClick={() => void create()} data-testid="ready-assistant-create">
              {t('models.ready.create')}
            </Button>
            <Button onClick={() => void navigate('/agents')} data-testid="ready-assistant-own">
              {t('models.ready.own')}
            </Button>
          </Space>
        </Space>
      }
    />
  );
}
