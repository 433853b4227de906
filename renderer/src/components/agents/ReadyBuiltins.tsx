import { App as AntApp, Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorLine } from '../../api/client';
import { useApi } from '../../api/hooks';
import '../../i18n/load/agents';

/** The settings server's registry id (`chatos::settings`, docs/rules/settings-server.md#added-per-agent). */
const SETTINGS_SERVER_ID = 'chatos::settings';

interface Props {
  /** The saved agent being edited; undefined for a new one (not in the host yet). */
  agentId: string | undefined;
  /** The host entry's picks now. */
  selected: readonly string[];
  /** Adds the tool's server to the draft's picks (the host has it already, for a saved agent). */
  onAdded(serverId: string): void;
}

/**
 * The ready built-in tools (time, fetch, calculator), each added in
 * one click: for a saved agent the host switches it on and picks it for
 * that agent (agents.addBuiltin); for a new one it is switched on and
 * picked in the draft, saved with it. Fetch says it reaches the network.
 * The settings assistant is offered the same way, saying what it may change.
 */
export function ReadyBuiltins({ agentId, selected, onAdded }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const builtins = useApi('mcpServers.builtins', {}, { refreshOn: ['mcp.reloaded'] });
  const [busy, setBusy] = useState<string | undefined>();
  const offered = (builtins.data?.builtins ?? []).filter((tool) => !selected.includes(tool.serverId));
  const settingsOffered = !selected.includes(SETTINGS_SERVER_ID);
  if (offered.length === 0 && !settingsOffered) return null;

  /**
   * One click: for a saved agent the host switches the tool on (if it has a switch) and picks it;
   * for a new one it is switched on here and picked in the draft. The settings assistant is always running.
   */
  const add = async (name: string, serverId: string, label: string, off: boolean) => {
    setBusy(name);
    try {
      if (agentId) await api.call('agents.addBuiltin', { agentId, name });
      else if (off) await api.call('mcpServers.setBuiltin', { name, change: { enabled: true } });
      onAdded(serverId);
      void message.success(t('agents.ready.added', { name: label }));
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <div data-testid="agent-ready-builtins" style={{ marginTop: 12 }}>
      <Typography.Text type="secondary">{t('agents.ready.title')} </Typography.Text>
      <Space size={[8, 8]} wrap>
        {offered.map((tool) => (
          <Space key={tool.name} size={4}>
            <Button
              size="small"
              loading={busy === tool.name}
              disabled={busy !== undefined}
              onClick={() => void add(tool.name, tool.serverId, tool.title[lang], !tool.enabled)}
              data-testid={`agent-add-builtin-${tool.name}`}
              title={tool.description[lang]}
            >
              {t('agents.ready.add', { name: tool.title[lang] })}
            </Button>
            {tool.name === 'fetch' && (
              <Tag color="orange" data-testid="agent-builtin-network">
                {t('agents.ready.network')}
              </Tag>
            )}
          </Space>
        ))}
        {settingsOffered && (
          <Space size={4}>
            <Button
              size="small"
              loading={busy === 'settings'}
              disabled={busy !== undefined}
              onClick={() => void add('settings', SETTINGS_SERVER_ID, t('agents.ready.settings'), false)}
              data-testid="agent-add-builtin-settings"
            >
              {t('agents.ready.add', { name: t('agents.ready.settings') })}
            </Button>
            <Tag color="gold" data-testid="agent-builtin-settings-note">
              {t('agents.ready.settingsNote')}
            </Tag>
          </Space>
        )}
      </Space>
    </div>
  );
}
