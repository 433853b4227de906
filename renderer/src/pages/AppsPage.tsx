import { useState } from 'react';
import { Alert, Card, Drawer, Empty, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AppView, PluginView } from '../../../src/shared/hostApi';
import type { Problem } from '../../../src/shared/problems';
import { useApi } from '../api/hooks';
import { EmptyPlugins } from '../components/apps/EmptyPlugins';
import { DevLinkButton } from '../components/apps/DevLinkButton';
import { InstallButton } from '../components/apps/InstallButton';
import { PluginCard } from '../components/apps/PluginCard';
import { PluginRootsCard } from '../components/apps/PluginRootsCard';
import { RescanButton } from '../components/apps/RescanButton';
import { ProblemList } from '../components/ProblemList';
import { TrustBlock } from '../components/uiapp/TrustBlock';
import { Welcome } from '../components/apps/Welcome';
import { UiAppFrame } from '../components/uiapp/UiAppFrame';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import '../i18n/load/apps';

function appsOf(plugin: PluginView, apps: AppView[]): AppView[] {
  if (plugin.status !== 'loaded' || !plugin.id) return [];
  return apps.filter((app) => app.pluginId === plugin.id && app.pluginDir === plugin.dir);
}

/** Problems of the scan that no plugin card already shows (e.g. a plugin root that cannot be read). */
function looseProblems(all: Problem[], plugins: PluginView[], apps: AppView[]): Problem[] {
  const shown = new Set([...plugins.flatMap((p) => p.problems), ...apps.flatMap((a) => a.problems)].map((p) => JSON.stringify(p)));
  return all.filter((problem) => !shown.has(JSON.stringify(problem)));
}

export default function AppsPage() {
  const { t } = useTranslation();
  // problems.changed: a server that failed to start is a problem of its app too.
  const list = useApi('apps.list', {}, { refreshOn: ['plugins.changed', 'registry.changed', 'uiApp.changed', 'problems.changed'] });
  const info = useApi('host.info', {});
  const [compact, setCompact] = useState<AppView | null>(null);
  const data = list.data;
  const reload = () => void list.reload();
  // The drawer follows the latest list: once trust is taken back (or the plugin is gone) its frame must go.
  const compactPlugin = compact ? data?.plugins.find((plugin) => plugin.status === 'loaded' && plugin.id === compact.pluginId && plugin.dir === compact.pluginDir) : undefined;

  return (
    <div data-testid="page-apps" className="page-stack">
      <div className="page-toolbar">
        <Typography.Text type="secondary" className="page-toolbar-text">
          {data ? t('apps.summary', { plugins: data.plugins.length, apps: data.apps.length }) : t('apps.intro')}
        </Typography.Text>
        <Space wrap>
          <InstallButton onInstalled={reload} />
          <DevLinkButton onLinked={reload} />
          <RescanButton onDone={reload} />
        </Space>
      </div>

      <Welcome />
      {list.error ? <ApiErrorAlert error={list.error} onRetry={reload} /> : null}
      {!data && list.loading ? <Skeleton active paragraph={{ rows: 8 }} /> : null}
      {data && data.plugins.length === 0 ? <EmptyPlugins home={info.data?.home} /> : null}

      {data ? (
        <>
          {(() => {
            const loose = looseProblems(data.problems, data.plugins, data.apps);
            return loose.length > 0 ? (
              <Card title={t('apps.otherProblems')} size="small">
                <ProblemList problems={loose} testId="problems-scan" />
              </Card>
            ) : null;
          })()}
          {data.plugins.map((plugin) => (
            <PluginCard key={plugin.dir} plugin={plugin} apps={appsOf(plugin, data.apps)} onChanged={reload} onOpenCompact={setCompact} />
          ))}
          {data.plugins.length > 0 && !data.plugins.some((plugin) => plugin.source === 'user') ? (
            <Alert type="info" showIcon title={t('apps.addYourOwn')} description={<EmptyPlugins home={info.data?.home} compact />} />
          ) : null}
          <PluginRootsCard onChanged={reload} />
        </>
      ) : null}

      <Drawer
        open={compact !== null}
        onClose={() => setCompact(null)}
        title={compact ? t('apps.compactTitle', { name: compact.name }) : undefined}
        size={440}
        destroyOnHidden
        styles={{ body: { padding: 12 } }}
        data-testid="compact-drawer"
      >
        {!compact ? null : compactPlugin?.runnable ? (
          <UiAppFrame pluginId={compact.pluginId} appId={compact.appId} surface="compact" height="calc(100vh - 110px)" />
        ) : compactPlugin ? (
          <TrustBlock plugin={compactPlugin} onChanged={reload} />
        ) : (
          <Empty description={t('apps.page.notFound', { id: `${compact.pluginId}/${compact.appId}` })} />
        )}
      </Drawer>
    </div>
  );
}
