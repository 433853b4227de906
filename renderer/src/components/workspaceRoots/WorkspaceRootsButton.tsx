import { FolderOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Popover, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorLine } from '../../api/client';
import { useApi } from '../../api/hooks';
import { FolderListInput } from './FolderListInput';
import '../../i18n/load/workspaceRoots';

/**
 * A conversation's workspace folders (docs/using/chat.md#workspace-roots):
 * a small button with their count; its panel shows whether they are the
 * agent's or the conversation's own, and sets or clears its own. The host
 * checks each folder and tells the running servers.
 */
export function WorkspaceRootsButton({ conversationId, agentId }: { conversationId: string; agentId?: string }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  // The Playground says which agent its conversation is used with (its folders are that agent's); the chat stores it.
  const roots = useApi('conversations.roots', { conversationId, ...(agentId ? { agentId } : {}) }, { refreshOn: ['agents.changed', 'conversations.changed'] });
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const current = roots.data?.roots ?? [];
  const { reload } = roots;
  useEffect(() => {
    if (open) setDraft(roots.data?.roots ?? []);
    setError(undefined);
  }, [open, roots.data]);

  const save = async (value: string[] | null) => {
    setSaving(true);
    setError(undefined);
    try {
      await api.call('conversations.setRoots', { conversationId, roots: value });
      await roots.reload();
      void message.success(t('workspaceRoots.saved'));
      setOpen(false);
    } catch (failure) {
      setError(errorLine(failure));
    } finally {
      setSaving(false);
    }
  };

  const panel = (
    <Space orientation="vertical" style={{ width: 420, maxWidth: '80vw' }} data-testid="workspace-roots-panel">
      <Typography.Text type="secondary">{roots.data?.own ? t('workspaceRoots.own') : t('workspaceRoots.fromAgent')}</Typography.Text>
      <FolderListInput value={draft} onChange={setDraft} testId="workspace-roots-input" />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('workspaceRoots.explain')}
      </Typography.Text>
      {error && <Alert type="error" showIcon title={error} data-testid="workspace-roots-error" />}
      <Space>
        <Button type="primary" size="small" loading={saving} onClick={() => void save(draft)} data-testid="workspace-roots-save">
          {t('workspaceRoots.save')}
        </Button>
        {roots.data?.own && (
          <Button size="small" disabled={saving} onClick={() => void save(null)} data-testid="workspace-roots-use-agent">
            {t('workspaceRoots.useAgent')}
          </Button>
        )}
      </Space>
    </Space>
  );
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) void reload();
      }}
      title={t('workspaceRoots.title')}
      content={panel}
    >
      <Button size="small" icon={<FolderOutlined />} title={current.join('\n') || t('workspaceRoots.none')} data-testid="workspace-roots-button">
        {t('workspaceRoots.button', { count: current.length })}
      </Button>
    </Popover>
  );
}
