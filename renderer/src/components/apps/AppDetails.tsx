import { Button, Collapse, Descriptions, Space, Tag, Tooltip, Typography } from 'antd';
import { ExpandOutlined, LayoutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AppView } from '../../../../src/shared/hostApi';
import { ProblemList } from '../ProblemList';
import { formatCommandLine } from '../uiapp/commandLine';
import '../../i18n/load/apps';

type ResolvedExposure = AppView['exposure']['mcpServers'];

function Exposure({ value }: { value: ResolvedExposure }) {
  const { t } = useTranslation();
  const { exposure, source } = value;
  return (
    <Space size={4} wrap>
      {exposure.mode === 'list' ? (
        exposure.names.length === 0 ? (
          <Typography.Text type="secondary">{t('apps.exposure.emptyList')}</Typography.Text>
        ) : (
          exposure.names.map((name) => <Tag key={name}>{name}</Tag>)
        )
      ) : (
        <Tag color={exposure.mode === 'all' ? 'gold' : 'default'}>{t(`apps.exposure.${exposure.mode}`)}</Tag>
      )}
      <Typography.Text type="secondary" className="exposure-source">
        {t('apps.exposure.from', { source: t(`apps.exposure.source.${source}`) })}
      </Typography.Text>
    </Space>
  );
}

function Flag({ on, label }: { on: boolean; label: string }) {
  const { t } = useTranslation();
  return <Tag color={on ? 'green' : 'default'}>{`${label}: ${on ? t('common.yes') : t('common.no')}`}</Tag>;
}

/** The flows an app's own tools serve, in words: "the main agent and sub-agents", or that no agent can use them. */
function flowsKey(app: AppView): string {
  if (!app.serverId) return 'apps.uses.noServer';
  if (app.allowMain && app.allowSub) return 'apps.uses.both';
  if (app.allowMain) return 'apps.uses.main';
  if (app.allowSub) return 'apps.uses.sub';
  return 'apps.uses.neither';
}

/**
 * One app of a plugin: what it does and what it can use first (its own
 * tools and who may use them, what it offers agents), then its problems;
 * the names the host derived and what it runs are under Details.
 */
export function AppDetails({ app, runnable, onOpenCompact }: { app: AppView; runnable: boolean; onOpenCompact: (app: AppView) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const launch = app.command ? formatCommandLine(app.command) : app.url;
  const notRunnable = runnable ? undefined : t('apps.trustFirst');
  const testId = `${app.pluginId}-${app.appId}`;

  return (
    <section className="app-section" data-testid={`app-${testId}`}>
      <div className="app-section-head">
        <div className="app-section-title">
          <Typography.Title level={5}>{app.name}</Typography.Title>
        </div>
        <Space wrap>
          {/* An app that is a server alone (an installed MCP bundle) has no page to open. */}
          {app.entry.path || app.mcpApp ? (
            <Tooltip title={notRunnable}>
              <Button
                type="primary"
                icon={<ExpandOutlined />}
                disabled={!runnable}
                onClick={() => navigate(`/apps/${encodeURIComponent(app.pluginId)}/${encodeURIComponent(app.appId)}`)}
                data-testid={`open-${testId}`}
              >
                {t('apps.open')}
              </Button>
            </Tooltip>
          ) : null}
          {app.entry.compactPath ? (
            <Tooltip title={notRunnable}>
              <Button icon={<LayoutOutlined />} disabled={!runnable} onClick={() => onOpenCompact(app)} data-testid={`open-compact-${testId}`}>
                {t('apps.openCompact')}
              </Button>
            </Tooltip>
          ) : null}
        </Space>
      </div>
      {app.description ? <Typography.Paragraph>{app.description}</Typography.Paragraph> : null}
      <Descriptions
        size="small"
        column={1}
        data-testid={`app-uses-${testId}`}
        items={[
          { key: 'tools', label: t('apps.uses.tools'), children: t(flowsKey(app)) },
          { key: 'exposeServers', label: t('apps.field.exposeServers'), children: <Exposure value={app.exposure.mcpServers} /> },
          { key: 'exposePrompts', label: t('apps.field.exposePrompts'), children: <Exposure value={app.exposure.prompts} /> },
        ]}
      />
      {app.problems.length > 0 ? <ProblemList problems={app.problems} testId={`problems-${testId}`} /> : null}
      <Collapse size="small" ghost items={[{ key: 'details', label: t('apps.details'), children: <AppInternals app={app} launch={launch} /> }]} data-testid={`app-details-${testId}`} />
    </section>
  );
}

/** What the host derived for the app and what it runs: for someone checking the wiring, not to decide whether to use it. */
function AppInternals({ app, launch }: { app: AppView; launch: string | null }) {
  const { t } = useTranslation();
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, sm: 1, md: 1, lg: 2, xl: 2, xxl: 2 }}
      items={[
        { key: 'server', label: t('apps.field.serverName'), children: <Typography.Text code>{app.serverName}</Typography.Text> },
        ...(app.mcpApp ? [{ key: 'mcpApp', label: t('apps.field.mcpAppPage'), children: <Typography.Text code>{app.mcpApp.resourceUri}</Typography.Text> }] : []),
        {
          key: 'serverId',
          label: t('apps.field.serverId'),
          children: app.serverId ? (
            <Typography.Text code copyable>
              {app.serverId}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('apps.field.noServer')}</Typography.Text>
          ),
        },
        {
          key: 'prompts',
          label: t('apps.field.prompts'),
          children: (
            <Space orientation="vertical" size={0}>
              <Typography.Text>
                zh: <Typography.Text code>{app.promptNames.zh}</Typography.Text>
              </Typography.Text>
              <Typography.Text>
                en: <Typography.Text code>{app.promptNames.en}</Typography.Text>
              </Typography.Text>
            </Space>
          ),
        },
        {
          key: 'launch',
          label: app.command ? t('apps.field.command') : t('apps.field.url'),
          children: launch ? (
            <Typography.Text code copyable={{ text: launch }} className="mono-wrap">
              {launch}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('apps.field.noServer')}</Typography.Text>
          ),
        },
        {
          key: 'flags',
          label: t('apps.field.flags'),
          children: (
            <Space size={4} wrap>
              <Flag on={app.allowMain} label="allowMain" />
              <Flag on={app.allowSub} label="allowSub" />
            </Space>
          ),
        },
        { key: 'source', label: t('apps.field.provider'), children: <Typography.Text code>{app.providerAppId}</Typography.Text> },
        { key: 'id', label: t('apps.field.id'), children: <Typography.Text code>{`${app.pluginId}/${app.appId}`}</Typography.Text> },
      ]}
    />
  );
}
