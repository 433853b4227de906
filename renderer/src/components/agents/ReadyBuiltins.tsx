import { App as AntApp, Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BuiltinToolView } from '../../../../src/shared/builtinTools';
import { api, errorLine } from '../../api/client';
import { useApi } from '../../api/hooks';
import '../../i18n/load/agents';

interface Props {
  /** The saved agent being edited; undefined for a new one (not in the host yet). */
  agentId: string | undefined;
  /** The host entry's picks now. */
  selected: readonly string[];
  /** Adds the tool's server to the draft's picks (the host has it already, for a saved agent). */
  onAdded(serverId: string): void;
}

/**
 * Seed 003's ready built-in tools (time, fetch, calculator), each added in
 * one click: for a saved agent the host switches it on and picks it for
 * that agent (agents.addBuiltin); for a new one it is switched on and
 * picked in the draft, saved with it. Fetch says it reaches the network.
 */
export function ReadyBuiltins({ agentId, selected, onAdded }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const builtins = useApi('mcpServers.builtins', {}, { refreshOn: ['mcp.reloaded'] });
  const [busy, setBusy] = useState<string | undefined>();
  const offered = (builtins.data?.builtins ?? []).filter((tool) => !selected.includes(tool.serverId));
  if (offered.length === 0) return null;

  const add = async (tool: BuiltinToolView) => {
    setBusy(tool.name);
    try {
      if (agentId) await api.call('agents.addBuiltin', { agentId, name: tool.name });
      else if (!tool.enabled) await api.call('mcpServers.setBuiltin', { name: tool.name, change: { enabled: true } });
      onAdded(tool.serverId);
      void message.success(t('agents.ready.added', { name: tool.title[lang] }));
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
              onClick={() => void add(tool)}
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
      </Space>
    </div>
  );
}
