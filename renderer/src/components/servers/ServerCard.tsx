import { DownOutlined, FileTextOutlined, ReloadOutlined, RightOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ServerView } from '../../../../src/shared/hostApi';
import { ProblemList } from '../ProblemList';
import { ServerStatusControls, SwitchedOffTag } from './ServerEnabledSwitch';
import { formatMemory } from './formatMemory';
import { useRestart } from './useRestart';
import { lazyPart } from '../../shell/lazyPart';
import '../../i18n/load/servers';

// A server's tools (a table with their switches) load when the card is first opened: the cards are what the page shows first.
const ServerTools = lazyPart(() => import('./ServerTools').then((m) => m.ServerTools));
// So is the table of its running instances (antd's Table is the largest part of the page's code).
const LeaseTable = lazyPart(() => import('./LeaseTable').then((m) => m.LeaseTable));

type Lease = ServerView['leases'][number];

/** What the server's running instances hold in memory together; undefined when the host could not measure any. */
function memoryOf(leases: readonly Lease[]): number | undefined {
  const measured = leases.flatMap((lease) => (lease.rssBytes === undefined ? [] : [lease.rssBytes]));
  return measured.length === 0 ? undefined : measured.reduce((sum, bytes) => sum + bytes, 0);
}

const ORIGIN_KEYS: Record<string, string> = { 'mcp.yaml': 'mcpYaml', plugin: 'plugin', 'app-db': 'appDb', defaults: 'defaults', host: 'host', builtin: 'builtin' };

/** Where the server's definition came from, in words; an origin this UI does not know is shown as it is. */
function originLabel(origin: string, t: (key: string) => string): string {
  const key = ORIGIN_KEYS[origin];
  return key ? t(`servers.origin.${key}`) : origin;
}

/**
 * The protocol the server speaks (docs/using/mcp-servers.md#protocol-eras): its revision, and its era as how it
 * is spoken to: statelessly (2026-07-28, no session) or over `initialize` (2025 and older).
 */
function ProtocolEra({ serverId, protocol }: { serverId: string; protocol: NonNullable<ServerView['protocol']> }) {
  const { t } = useTranslation();
  const modern = protocol.era === 'modern';
  return (
    <Space size={6} data-testid={`server-protocol-${serverId}`}>
      <Typography.Text code>MCP {protocol.version ?? (modern ? '2026-07-28' : t('servers.protocol.olderVersion'))}</Typography.Text>
      <Tag color={modern ? 'blue' : 'default'}>{t(`servers.protocol.${protocol.era}`)}</Tag>
    </Space>
  );
}

/**
 * One server (docs/rules/settings-server.md#the-management-ui, one card per server): what it is, how it
 * starts, its state and leases, and its tools on demand. Assistant servers
 * open their own page, where tools are grouped by domain.
 */
export function ServerCard({
  server,
  onShowLog,
  actions,
}: {
  server: ServerView;
  onShowLog(serverId: string): void;
  /** More buttons (edit, test, delete of an mcp.yaml server). */ actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [expanded, setExpanded] = useState(false);
  const { restarting, restart } = useRestart(server.id);
  const isAssistant = server.category === 'assistant';
  const memory = memoryOf(server.leases);

  return (
    <Card
      size="small"
      data-testid={`server-row-${server.id}`}
      title={
        <Space size={8} wrap>
          <span>{server.name}</span>
          <Tag>{originLabel(server.origin, t)}</Tag>
          {server.disabled && <Tag color="default">{t('servers.disabled')}</Tag>}
          <SwitchedOffTag server={server} />
          {server.problems.length > 0 && <Tag color="red">{t('servers.problemCount', { count: server.problems.length })}</Tag>}
        </Space>
      }
      extra={<ServerStatusControls server={server} />}
    >
      <Descriptions
        size="small"
        column={1}
        styles={{ label: { width: 110 } }}
        items={[
          {
            key: 'id',
            label: t('servers.field.id'),
            children: (
              <Typography.Text code copyable>
                {server.id}
              </Typography.Text>
            ),
          },
          ...(server.description ? [{ key: 'description', label: t('servers.field.description'), children: server.description }] : []),
          {
            key: 'launch',
            label: t('servers.field.launch'),
            children: (
              <Typography.Text code copyable={{ text: server.launch }} style={{ wordBreak: 'break-all' }}>
                {server.launch}
              </Typography.Text>
            ),
          },
          ...(server.protocol ? [{ key: 'protocol', label: t('servers.field.protocol'), children: <ProtocolEra serverId={server.id} protocol={server.protocol} /> }] : []),
        ]}
      />
      {server.leases.length > 0 && (
        <div style={{ marginTop: 8 }}>
          <Typography.Text type="secondary">{t('servers.leases', { count: server.leases.length })}</Typography.Text>
          {memory !== undefined && (
            <Typography.Text type="secondary" data-testid={`server-memory-${server.id}`} style={{ marginLeft: 12 }}>
              {t('servers.memoryTotal', { size: formatMemory(memory) })}
            </Typography.Text>
          )}
          <LeaseTable leases={server.leases} />
        </div>
      )}
      {server.problems.length > 0 && (
        <div style={{ marginTop: 8 }}>
          <ProblemList problems={server.problems} />
        </div>
      )}
      <Space wrap style={{ marginTop: 12 }}>
        {isAssistant ? (
          <Button type="primary" icon={<SettingOutlined />} onClick={() => void navigate(`/settings/mcp-assistant/${encodeURIComponent(server.id)}`)} data-testid={`server-open-${server.id}`}>
            {t('servers.manage')}
          </Button>
        ) : (
          <Button icon={expanded ? <DownOutlined /> : <RightOutlined />} onClick={() => setExpanded(!expanded)} data-testid={`server-expand-${server.id}`}>
            {expanded ? t('servers.hideTools') : t('servers.showTools')}
          </Button>
        )}
        <Button icon={<ReloadOutlined />} loading={restarting} onClick={() => void restart()} data-testid={`server-restart-${server.id}`}>
          {t('servers.restart')}
        </Button>
        <Button icon={<FileTextOutlined />} onClick={() => onShowLog(server.id)} data-testid={`server-log-${server.id}`}>
          {t('servers.log.open')}
        </Button>
        {actions}
      </Space>
      {expanded && !isAssistant && (
        <div style={{ marginTop: 12 }}>
          <ServerTools serverId={server.id} />
        </div>
      )}
    </Card>
  );
}
