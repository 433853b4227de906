import { Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LogLevel } from '../../../../src/shared/mcp';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';
import { useAction } from '../useAction';
import '../../i18n/load/servers';

/** The server's default: no level sent, the server logs as it likes. */
const DEFAULT = 'default';
/** MCP's levels, least severe first (a type import only: the page carries no schema). */
const LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * The level a server sends its own log messages from (`logging/setLevel`,
 * docs/rules/mcp-yaml.md#server-log-messages): kept for the server, sent to its running
 * instances now and to each that starts later.
 */
export function ServerLogLevel({ serverId, onChanged }: { serverId: string; onChanged(): void }) {
  const { t } = useTranslation();
  const servers = useApi('servers.list', {}, { refreshOn: ['server.settings', 'mcp.reloaded'] });
  const current = servers.data?.servers.find((server) => server.id === serverId)?.logLevel ?? DEFAULT;
  const { busy, run } = useAction(onChanged);
  const choose = (value: LogLevel | typeof DEFAULT) =>
    run(async () => {
      const { applied, notLogging } = await api.call('servers.setLogLevel', { serverId, level: value === DEFAULT ? null : value });
      if (value === DEFAULT) return t('servers.logLevel.reset');
      return notLogging > 0 && applied === 0 ? t('servers.logLevel.notLogging', { level: value }) : t('servers.logLevel.set', { level: value, count: applied });
    });
  return (
    <Space>
      <Typography.Text type="secondary">{t('servers.logLevel.label')}</Typography.Text>
      <Select
        size="small"
        style={{ minWidth: 140 }}
        value={current as LogLevel | typeof DEFAULT}
        loading={busy}
        disabled={busy}
        onChange={(value: LogLevel | typeof DEFAULT) => void choose(value)}
        data-testid="server-log-level"
        options={[{ value: DEFAULT, label: t('servers.logLevel.default') }, ...LEVELS.map((level) => ({ value: level, label: level }))]}
      />
    </Space>
  );
}
