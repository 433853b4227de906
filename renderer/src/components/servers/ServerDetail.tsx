import { ArrowLeftOutlined, FileTextOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Alert, Badge, Button, Card, Col, Collapse, Empty, Input, Row, Skeleton, Space, Spin, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ServerTool } from '../../../../src/shared/hostApi';
import { useApi } from '../../api/hooks';
import { ProblemList } from '../ProblemList';
import { PermissionLegend } from './PermissionLegend';
import { ServerStatusControls, SwitchedOffTag } from './ServerEnabledSwitch';
import { SamplingAlways } from './SamplingAlways';
import { LazyServerLogDrawer } from './LazyServerLogDrawer';
import { ToolTable } from './ToolTable';
import { groupByDomain } from './toolDomains';
import { useRestart } from './useRestart';
import { useToolActions } from './useToolActions';
import { lazyPart } from '../../shell/lazyPart';
import '../../i18n/load/servers';

// antd's Result (~10 KB gzip) for an id that names no server: loaded only then.
const Result = lazyPart(() => import('antd/es/result').then((m) => m.default));

const matches = (tool: ServerTool, query: string) => `${tool.rawName} ${tool.name ?? ''} ${tool.description}`.toLowerCase().includes(query);

/**
 * One server's own page (docs/rules/settings-server.md#the-management-ui, for assistant servers
 * such as `chatos::settings`): its info card, a search over tools, the tools
 * in collapsible domain groups with an enabled/total badge each, and the
 * permission legend. Searching opens exactly the groups that match.
 */
export function ServerDetail({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const servers = useApi('servers.list', {}, { refreshOn: ['server.state', 'mcp.reloaded', 'server.settings'] });
  const tools = useApi('servers.tools', { serverId }, { refreshOn: ['mcp.reloaded', 'server.settings', 'server.tools'] });
  const actions = useToolActions(serverId, tools.reload);
  const [query, setQuery] = useState('');
  const [opened, setOpened] = useState<string[] | undefined>();
  const [logOpen, setLogOpen] = useState(false);
  const { restarting, restart } = useRestart(serverId);

  const server = servers.data?.servers.find((s) => s.id === serverId);
  const q = query.trim().toLowerCase();
  const groups = useMemo(() => groupByDomain(tools.data?.tools ?? []), [tools.data]);
  const shown = q ? groups.map((g) => ({ ...g, tools: g.tools.filter((tool) => matches(tool, q)) })).filter((g) => g.tools.length > 0) : groups;
  // While searching every matching group is open; otherwise the user's choice (all open at first).
  const activeKeys = q ? shown.map((g) => g.domain) : (opened ?? groups.map((g) => g.domain));
  const back = () => void navigate(`/servers?tab=${server?.category ?? 'assistant'}`);

  if (!servers.data && servers.loading) return <Skeleton active />;
  if (servers.data && !server)
    return (
      <Result status="404" title={t('servers.detail.notFound', { id: serverId })} subTitle={t('servers.detail.notFoundHint')} extra={<Button onClick={back}>{t('servers.detail.back')}</Button>} />
    );

  const enabledCount = (tools.data?.tools ?? []).filter((tool) => tool.enabled).length;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid={`server-detail-${serverId}`}>
      <Button type="link" icon={<ArrowLeftOutlined />} onClick={back} style={{ paddingInline: 0 }}>
        {t('servers.detail.back')}
      </Button>
      {servers.error && <Alert type="error" showIcon title={servers.error.message} description={servers.error.hint} />}
      {server && (
        <Card
          data-testid={`server-row-${server.id}`}
          title={
            <Space wrap>
              <Typography.Title level={4} style={{ margin: 0 }}>
                {server.name}
              </Typography.Title>
              <Tag color="geekblue">{t(`servers.tab.${server.category}`)}</Tag>
              <SwitchedOffTag server={server} />
            </Space>
          }
          extra={<ServerStatusControls server={server} />}
        >
          <Space orientation="vertical" style={{ width: '100%' }}>
            {server.description && <Typography.Paragraph style={{ margin: 0 }}>{server.description}</Typography.Paragraph>}
            <Space wrap>
              <Typography.Text code copyable>
                {server.id}
              </Typography.Text>
              <Typography.Text type="secondary">{server.launch}</Typography.Text>
              {tools.data && <Tag>{t('servers.detail.enabledOf', { enabled: enabledCount, total: tools.data.tools.length })}</Tag>}
            </Space>
            <Space wrap>
              <Button icon={<ReloadOutlined />} loading={restarting} onClick={() => void restart()} data-testid={`server-restart-${server.id}`}>
                {t('servers.restart')}
              </Button>
              <Button icon={<FileTextOutlined />} onClick={() => setLogOpen(true)} data-testid={`server-log-${server.id}`}>
                {t('servers.log.open')}
              </Button>
              {server.samplingAlways && <SamplingAlways serverId={server.id} onChanged={() => void servers.reload()} />}
            </Space>
            {server.problems.length > 0 && <ProblemList problems={server.problems} />}
          </Space>
        </Card>
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={17}>
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <Input allowClear prefix={<SearchOutlined />} placeholder={t('servers.detail.search')} value={query} onChange={(e) => setQuery(e.target.value)} data-testid="tool-search" />
            {!tools.data && tools.loading && (
              <Spin tip={t('servers.tools.loading')}>
                <div style={{ minHeight: 80 }} />
              </Spin>
            )}
            {tools.error && (
              <Alert
                type="error"
                showIcon
                title={tools.error.message}
                description={tools.error.hint}
                action={
                  <Button size="small" onClick={() => void tools.reload()}>
                    {t('servers.retry')}
                  </Button>
                }
              />
            )}
            {tools.data && shown.length === 0 && <Empty description={q ? t('servers.detail.noMatch', { query }) : t('servers.tools.none')} />}
            {shown.length > 0 && (
              <Collapse
                activeKey={activeKeys}
                onChange={(keys) => !q && setOpened(Array.isArray(keys) ? keys : [keys])}
                items={shown.map((group) => {
                  const all = groups.find((g) => g.domain === group.domain)?.tools ?? group.tools;
                  const on = all.filter((tool) => tool.enabled).length;
                  return {
                    key: group.domain,
                    label: (
                      <Space data-testid={`domain-${group.domain}`}>
                        <Typography.Text strong>{t(`servers.domain.${group.domain}`, { defaultValue: group.domain })}</Typography.Text>
                        <Badge count={`${on}/${all.length}`} color={on === all.length ? 'green' : on === 0 ? 'gray' : 'orange'} data-testid={`domain-count-${group.domain}`} />
                      </Space>
                    ),
                    children: <ToolTable serverId={serverId} tools={group.tools} actions={actions} />,
                  };
                })}
              />
            )}
            {tools.data && tools.data.problems.length > 0 && <ProblemList problems={tools.data.problems} />}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('servers.detail.domainNote')}
            </Typography.Text>
          </Space>
        </Col>
        <Col xs={24} xl={7}>
          <PermissionLegend />
        </Col>
      </Row>
      <LazyServerLogDrawer serverId={logOpen ? serverId : undefined} onClose={() => setLogOpen(false)} />
    </Space>
  );
}
