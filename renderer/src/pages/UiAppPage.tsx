import { lazy, useState } from 'react';
import { Breadcrumb, Button, Card, Result, Skeleton, Space, Typography } from 'antd';
import { CloseOutlined, LayoutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useApi } from '../api/hooks';
import { TrustBlock } from '../components/uiapp/TrustBlock';
import { UiAppFrame } from '../components/uiapp/UiAppFrame';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import '../i18n/load/apps';
import { PartSuspense } from '../shell/lazyPart';

/** An app whose page is an MCP App loads the view host (ext-apps' AppBridge) only when one is opened. */
const McpAppPage = lazy(() => import('../components/mcpApps/McpAppPage').then((module) => ({ default: module.McpAppPage })));

/** A UI app's full page: its sandboxed frame, or, while its plugin is not trusted, what trusting it would run. */
export default function UiAppPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pluginId = '', appId = '' } = useParams();
  // Popped out of a chat's side panel: what to show (`focus`, a Canvas instance) and the conversation it sits beside.
  const [search] = useSearchParams();
  const focus = search.get('focus') ?? undefined;
  const besideChat = search.get('conversation') ?? undefined;
  // `uiApp.changed` also comes when trust is taken back: the page then shows the trust block, not the frame.
  const list = useApi('apps.list', {}, { refreshOn: ['plugins.changed', 'uiApp.changed'] });
  const app = list.data?.apps.find((candidate) => candidate.pluginId === pluginId && candidate.appId === appId);
  const plugin = list.data?.plugins.find((candidate) => candidate.id === pluginId && candidate.status === 'loaded');
  // The compact surface beside the full page (a side panel, not an overlay): two frames of one app, which talk through `events.emit`.
  const [compactOpen, setCompactOpen] = useState(false);
  const canOpenCompact = Boolean(app?.entry.compactPath && plugin?.runnable);

  let body;
  if (list.error && !list.data) body = <ApiErrorAlert error={list.error} onRetry={() => void list.reload()} />;
  else if (!list.data) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else if (!app || !plugin)
    body = (
      <Result
        status="404"
        title={t('apps.page.notFound', { id: `${pluginId}/${appId}` })}
        subTitle={t('apps.page.notFoundHint')}
        extra={
          <Button type="primary" onClick={() => navigate('/apps')}>
            {t('apps.page.back')}
          </Button>
        }
      />
    );
  else if (!plugin.runnable) body = <TrustBlock plugin={plugin} onChanged={() => void list.reload()} />;
  else if (app.mcpApp)
    body = (
      <PartSuspense fallback={<Skeleton active />}>
        <McpAppPage key={`${pluginId}/${appId}`} app={app} resourceUri={app.mcpApp.resourceUri} />
      </PartSuspense>
    );
  else
    body = (
      <div className="uiapp-split">
        <div className="uiapp-split-main">
          <UiAppFrame
            key={`${pluginId}/${appId}`}
            pluginId={pluginId}
            appId={appId}
            surface="full"
            height="calc(100vh - 170px)"
            {...(focus ? { focus } : {})}
            {...(besideChat ? { chatConversationId: besideChat } : {})}
          />
        </div>
        {compactOpen && canOpenCompact ? (
          <Card
            size="small"
            className="uiapp-split-side"
            data-testid="compact-panel"
            title={t('apps.compactTitle', { name: app.name })}
            extra={<Button type="text" size="small" icon={<CloseOutlined />} onClick={() => setCompactOpen(false)} aria-label={t('apps.closeCompact')} />}
            styles={{ body: { padding: 8 } }}
          >
            <UiAppFrame pluginId={pluginId} appId={appId} surface="compact" height="calc(100vh - 230px)" />
          </Card>
        ) : null}
      </div>
    );

  return (
    <div data-testid="page-uiapp" className="page-stack" style={{ gap: 12 }}>
      <div className="page-toolbar">
        <Breadcrumb items={[{ title: <Link to="/apps">{t('common.nav.apps')}</Link> }, { title: app?.name ?? appId }]} />
        <Space wrap>
          {app ? <Typography.Text type="secondary" code>{`${pluginId}/${appId}`}</Typography.Text> : null}
          {canOpenCompact ? (
            <Button size="small" icon={<LayoutOutlined />} onClick={() => setCompactOpen((open) => !open)} data-testid={`open-compact-${pluginId}-${appId}`}>
              {t('apps.openCompact')}
            </Button>
          ) : null}
        </Space>
      </div>
      {body}
    </div>
  );
}
