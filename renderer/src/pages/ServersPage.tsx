import { Alert, Button, Empty, Skeleton, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { ServerView } from '../../../src/shared/hostApi';
import type { ServerCategory } from '../../../src/shared/mcp';
import { useApi } from '../api/hooks';
import { LazyServerLogDrawer } from '../components/servers/LazyServerLogDrawer';
import { ServerCard } from '../components/servers/ServerCard';
import { ExternalServersBar } from '../components/mcpAdmin/ExternalServersBar';
import { McpAdminProvider } from '../components/mcpAdmin/McpAdminContext';
import { McpCardActions } from '../components/mcpAdmin/McpCardActions';
import { ContributionCopiesCard } from '../components/registry/ContributionCopiesCard';
import { lazyPart } from '../shell/lazyPart';
import '../i18n/load/servers';

// The built-in tab's lists load with that tab: the external servers are what the page shows first.
const BuiltinToolList = lazyPart(() => import('../components/mcpAdmin/BuiltinToolList').then((m) => m.BuiltinToolList));
const TemplateList = lazyPart(() => import('../components/mcpAdmin/TemplateList').then((m) => m.TemplateList));

const CATEGORIES: readonly ServerCategory[] = ['external', 'builtin', 'assistant'];
const isCategory = (value: string | null): value is ServerCategory => CATEGORIES.includes(value as ServerCategory);

/**
 * MCP servers (docs/rules/settings-server.md#the-management-ui): one tab per category (`?tab=`), a card per
 * server with state, leases, restart, log and tools; a server's own page
 * (`/servers/:serverId`) is pages/ServerPage.tsx.
 */
export default function ServersPage() {
  return (
    <div data-testid="page-servers">
      <McpAdminProvider>
        <ServerTabs />
      </McpAdminProvider>
    </div>
  );
}

function ServerTabs() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const requested = search.get('tab');
  const tab: ServerCategory = isCategory(requested) ? requested : 'external';
  const servers = useApi('servers.list', {}, { refreshOn: ['server.state', 'mcp.reloaded', 'server.settings'] });
  const [logFor, setLogFor] = useState<string | undefined>();
  const list = servers.data?.servers ?? [];
  // The built-in tab lists every built-in tool (on or off) with its switch: its count is theirs, not only the ones running.
  const builtins = useApi('mcpServers.builtins', {}, { refreshOn: ['mcp.reloaded'] });
  const countOf = (category: ServerCategory) => (category === 'builtin' && builtins.data ? builtins.data.builtins.length : list.filter((s) => s.category === category).length);

  const cards = (category: ServerCategory) => {
    const inTab = list.filter((s: ServerView) => s.category === category);
    if (inTab.length === 0) return <Empty description={t(`servers.empty.${category}`)} />;
    return (
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        {inTab.map((server) => (
          <ServerCard key={server.id} server={server} onShowLog={setLogFor} actions={server.origin === 'mcp.yaml' ? <McpCardActions serverName={server.name} /> : undefined} />
        ))}
      </Space>
    );
  };
  // The user's own servers are edited here (docs/rules/settings-server.md#categories): add and import above the external ones, the built-in tools' switches and templates in the built-in tab.
  const panel = (category: ServerCategory) => (
    <>
      {category === 'external' ? <ExternalServersBar loadedIds={new Set(list.map((s) => s.id))} /> : null}
      {category === 'builtin' ? <BuiltinToolList /> : null}
      {cards(category)}
      {category === 'builtin' ? <TemplateList /> : null}
      {category === 'external' ? <ContributionCopiesCard part="servers" /> : null}
    </>
  );

  return (
    <>
      <Typography.Title level={3} style={{ marginTop: 0, marginBottom: 4 }}>
        {t('servers.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('servers.subtitle')}</Typography.Paragraph>
      {servers.error && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={servers.error.message}
          description={servers.error.hint}
          action={<Button onClick={() => void servers.reload()}>{t('servers.retry')}</Button>}
        />
      )}
      {!servers.data && servers.loading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        servers.data && (
          <Tabs
            activeKey={tab}
            onChange={(key) => setSearch({ tab: key }, { replace: true })}
            items={CATEGORIES.map((category) => ({
              key: category,
              label: (
                <span data-testid={`servers-tab-${category}`}>
                  {t(`servers.tab.${category}`)} ({countOf(category)})
                </span>
              ),
              children: (
                <>
                  <Typography.Paragraph type="secondary">{t(`servers.tabHelp.${category}`)}</Typography.Paragraph>
                  {panel(category)}
                </>
              ),
            }))}
          />
        )
      )}
      <LazyServerLogDrawer serverId={logFor} onClose={() => setLogFor(undefined)} />
    </>
  );
}
