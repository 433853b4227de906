import { App as AntApp, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelView } from '../../../../src/shared/models';
import { api, errorLine } from '../../api/client';
import '../../i18n/load/chat';

const AGENT_DEFAULT = '';

export interface ModelSwitchProps {
  conversationId: string;
  /** The model the conversation was switched to; absent: the agent's. */
  current?: string;
  agentModelId?: string;
  models: readonly ModelView[];
  disabled: boolean;
}

/**
 * Which model answers in this conversation: the agent's, or another chat
 * model the user switches to. The switch is recorded on the conversation
 * (the host does it), and the next request uses it.
 */
export function ModelSwitch({ conversationId, current, agentModelId, models, disabled }: ModelSwitchProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [saving, setSaving] = useState(false);
  const chat = models.filter((m) => (m.kind ?? 'chat') === 'chat');
  const nameOf = (id: string | undefined) => (id ? (models.find((m) => m.id === id)?.name ?? id) : '');
  const change = async (value: string) => {
    setSaving(true);
    try {
      await api.call('chat.setModel', { conversationId, modelId: value === AGENT_DEFAULT ? null : value });
      void message.success(t('chat.model.switched', { name: nameOf(value === AGENT_DEFAULT ? agentModelId : value) }));
    } catch (error) {
      void message.error(errorLine(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Select
      size="small"
      style={{ minWidth: 200 }}
      aria-label={t('chat.model.label')}
      data-testid="chat-model"
      value={current ?? AGENT_DEFAULT}
      loading={saving}
      disabled={disabled || saving}
      onChange={(value: string) => void change(value)}
      options={[
        { value: AGENT_DEFAULT, label: t('chat.model.agentDefault', { name: nameOf(agentModelId) || '—' }) },
        ...chat.filter((m) => m.id !== agentModelId || current === m.id).map((m) => ({ value: m.id, label: m.name })),
      ]}
    />
  );
}
