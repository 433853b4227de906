import { Card, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AgentUiApp } from '../../../../src/shared/agents';
import { ownValue } from '../../api/ownValue';
import type { RegistryOverview } from './candidates';
import { GrantMissing } from './GrantMissing';
import { ReadyBuiltins } from './ReadyBuiltins';
import '../../i18n/load/agents';

/** The host's own entry (docs/rules/agents.md#your-own-servers): no plugin, the servers ChatOS registers under its own name. */
export const HOST_ENTRY = { pluginId: 'chatos', appId: 'chatos' } as const;
export const isHostEntry = (app: { pluginId: string; appId: string }) => app.pluginId === HOST_ENTRY.pluginId && app.appId === HOST_ENTRY.appId;

const MINE = new Set(['mcp-yaml', 'host']);

/** The servers the user added (mcp.yaml, imported, templates), then the host's built-in ones; gone ones are not offered. */
function ownServers(overview: RegistryOverview | undefined) {
  const own = (overview?.servers ?? []).filter((s) => s.providerAppId === HOST_ENTRY.pluginId && !s.missing);
  return { mine: own.filter((s) => MINE.has(s.source.kind)), builtin: own.filter((s) => s.source.kind === 'builtin') };
}

interface Props {
  uiApps: AgentUiApp[];
  overview: RegistryOverview | undefined;
  hostAppId: string;
  /** The saved agent being edited (undefined while creating one). */
  agentId?: string | undefined;
  /** The agent's new list of apps: the host's entry added, changed or dropped. */
  onChange(uiApps: AgentUiApp[]): void;
}

/**
 * "Your own servers": every server the user added, picked for the agent
 * directly, without a plugin that exposes it. The picks are the host entry's
 * `mcpServerIds`; the gateway treats them like any other server.
 */
export function OwnServersCard({ uiApps, overview, hostAppId, agentId, onChange }: Props) {
  const { t } = useTranslation();
  const index = uiApps.findIndex(isHostEntry);
  const entry = index >= 0 ? uiApps[index] : undefined;
  const selected = entry?.mcpServerIds ?? [];
  const { mine, builtin } = ownServers(overview);
  const known = new Set([...mine, ...builtin].map((s) => s.id));
  const visible = new Set(ownValue(overview?.visible ?? {}, hostAppId)?.servers ?? []);
  const option = (s: { id: string; name: string; description?: string | undefined }) => ({
    value: s.id,
    short: s.name,
    search: `${s.id} ${s.description ?? ''}`,
    label: (
      <Space size={4}>
        <Typography.Text strong>{s.name}</Typography.Text>
        {s.description && <Typography.Text type="secondary">{s.description}</Typography.Text>}
      </Space>
    ),
  });
  const options = [
    { label: t('agents.own.mine'), title: 'mine', options: mine.map(option) },
    { label: t('agents.own.builtin'), title: 'builtin', options: builtin.map(option) },
    // A stored pick that is not there now stays visible, so saving does not drop it unseen.
    ...(overview && selected.some((id) => !known.has(id))
      ? [{ label: t('agents.own.gone'), title: 'gone', options: selected.filter((id) => !known.has(id)).map((id) => ({ value: id, short: id, search: id, label: <Tag color="red">{id}</Tag> })) }]
      : []),
  ];

  const change = (ids: string[]) => {
    const rest = uiApps.filter((u) => !isHostEntry(u));
    if (ids.length === 0 && !entry?.promptIds.length) return onChange(rest);
    const next: AgentUiApp = { ...HOST_ENTRY, prompt: false, promptIds: [], ...entry, mcp: true, mcpServerIds: ids };
    onChange(index >= 0 ? uiApps.map((u, i) => (i === index ? next : u)) : [next, ...rest]);
  };

  return (
    <Card size="small" data-testid="agent-own-servers" title={t('agents.own.title')} extra={<Link to="/servers">{t('agents.own.add')}</Link>}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('agents.own.help')}
      </Typography.Paragraph>
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        value={selected}
        onChange={change}
        options={options}
        optionFilterProp="search"
        optionLabelProp="short"
        placeholder={t('agents.own.placeholder')}
        notFoundContent={t('agents.own.none')}
        aria-label={t('agents.own.title')}
        data-testid="agent-own-servers-select"
      />
      <ReadyBuiltins agentId={agentId} selected={selected} onAdded={(id) => change([...selected.filter((s) => s !== id), id])} />
      <GrantMissing hostAppId={hostAppId} ids={selected.filter((id) => known.has(id) && !visible.has(id))} testId="agent-own-servers-grant" />
    </Card>
  );
}
