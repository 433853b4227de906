import { Alert, App as AntApp, Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorLine } from '../../api/client';
import '../../i18n/load/agents';

/**
 * The servers and prompts an agent picked that its host app may not see:
 * each with a Grant button that grants it to the host app (the registry's
 * grant, as on the Registry page), instead of a command to type elsewhere.
 * The registry then reports the change and the editor reloads its view.
 */
export function GrantMissing({ hostAppId, ids, testId }: { hostAppId: string; ids: string[]; testId: string }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [busy, setBusy] = useState<string | undefined>();
  if (ids.length === 0) return null;
  const grant = async (id: string) => {
    setBusy(id);
    try {
      await api.call('registry.grant', { appId: hostAppId, id });
      void message.success(t('agents.editor.granted', { id, app: hostAppId }));
    } catch (error) {
      void message.error(errorLine(error));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 8 }}
      data-testid={testId}
      title={t('agents.editor.notVisibleTitle', { app: hostAppId })}
      description={
        <Space orientation="vertical" size={4}>
          {ids.map((id) => (
            <Space key={id} size={8} wrap>
              <Typography.Text code>{id}</Typography.Text>
              <Button size="small" type="primary" loading={busy === id} onClick={() => void grant(id)} data-testid={`grant-${id}`}>
                {t('agents.editor.grant', { app: hostAppId })}
              </Button>
            </Space>
          ))}
        </Space>
      }
    />
  );
}
