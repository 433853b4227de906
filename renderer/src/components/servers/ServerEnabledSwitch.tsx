import { App as AntApp, Space, Switch, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServerView } from '../../../../src/shared/hostApi';
import { api, toApiError } from '../../api/client';
import { ServerStateBadge } from './ServerStateBadge';
import '../../i18n/load/servers';

/**
 * The server's on/off switch (docs/rules/settings-server.md#the-management-ui). Switching off ends its running
 * instances and stops it being offered; the list refreshes on the
 * `server.settings` event the host sends. A server disabled in its
 * configuration cannot be switched on here: the switch says where to change it.
 */
export function ServerEnabledSwitch({ server }: { server: Pick<ServerView, 'id' | 'name' | 'disabled' | 'switchedOff'> }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [saving, setSaving] = useState(false);

  const change = async (enabled: boolean) => {
    setSaving(true);
    try {
      await api.call('servers.setEnabled', { serverId: server.id, enabled });
      void message.success(t(enabled ? 'servers.switch.turnedOn' : 'servers.switch.turnedOff', { name: server.name }));
    } catch (e) {
      const error = toApiError(e);
      void message.error(t('servers.switch.failed', { name: server.name, message: error.message }) + (error.hint ? ` — ${error.hint}` : ''));
    } finally {
      setSaving(false);
    }
  };

  const control = (
    <Switch
      checked={!server.switchedOff && !server.disabled}
      disabled={server.disabled}
      loading={saving}
      onChange={(checked) => void change(checked)}
      aria-label={t('servers.switch.label', { name: server.name })}
      data-testid={`server-enabled-${server.id}`}
    />
  );
  return <Tooltip title={server.disabled ? t('servers.switch.disabledByConfig') : t('servers.switch.label', { name: server.name })}>{control}</Tooltip>;
}

/** What a server's card and its own page show in their corner: its state and its switch. */
export function ServerStatusControls({ server }: { server: ServerView }) {
  return (
    <Space size={12}>
      <ServerStateBadge state={server.state} disabled={server.disabled} testId={`server-state-${server.id}`} />
      <ServerEnabledSwitch server={server} />
    </Space>
  );
}

/** The "switched off" tag beside a server's name (a server disabled in its configuration says so elsewhere). */
export function SwitchedOffTag({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  if (!server.switchedOff || server.disabled) return null;
  return (
    <Tag color="orange" data-testid={`server-switched-off-${server.id}`}>
      {t('servers.switchedOff')}
    </Tag>
  );
}
