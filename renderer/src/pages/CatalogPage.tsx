import { Alert, Button, Empty, Input, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogEntryView, CatalogPage as Page } from '../../../src/shared/mcpCatalog';
import { api, errorLine } from '../api/client';
import { useApi } from '../api/hooks';
import { CatalogEntryCard } from '../components/catalog/CatalogEntryCard';
import { RegistryBar } from '../components/catalog/RegistryBar';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import { lazyPart } from '../shell/lazyPart';
import '../i18n/load/catalog';

// The add form loads with its first use: the page lists first.
const CatalogAddDrawer = lazyPart(() => import('../components/catalog/CatalogAddDrawer').then((m) => m.CatalogAddDrawer), null);

const PAGE_SIZE = 30;

/**
 * The MCP server catalog (docs/rules/catalog.md): an MCP Registry's entries,
 * searched by name, each with exactly what it would run; adding one opens a
 * form for the values it asks for and adds it through the MCP servers' add.
 * Every rule is the core's (host.catalog); nothing is run here.
 */
export default function CatalogPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [reloads, setReloads] = useState(0);
  const first = useApi('catalog.search', { ...(search ? { search } : {}), limit: PAGE_SIZE });
  // Pages past the first, asked with the cursor the last one gave; a new search starts over.
  const [more, setMore] = useState<{ key: string; pages: Page[] }>({ key: '', pages: [] });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<string>();
  const [adding, setAdding] = useState<CatalogEntryView>();
  const key = `${search}#${reloads}`;
  const extra = more.key === key ? more.pages : [];
  const pages = first.data ? [first.data, ...extra] : [];
  const entries = pages.flatMap((p) => p.entries);
  const refused = pages.flatMap((p) => p.refused);
  const nextCursor = pages.at(-1)?.nextCursor;

  const loadMore = async () => {
    setLoadingMore(true);
    setMoreError(undefined);
    try {
      const page = await api.call('catalog.search', { ...(search ? { search } : {}), limit: PAGE_SIZE, cursor: nextCursor });
      setMore({ key, pages: [...extra, page] });
    } catch (e) {
      setMoreError(errorLine(e));
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <div data-testid="page-catalog" className="page-stack">
      <Typography.Paragraph type="secondary">{t('catalog.intro')}</Typography.Paragraph>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Input.Search allowClear placeholder={t('catalog.search')} onSearch={(value) => setSearch(value.trim())} style={{ width: 360 }} data-testid="catalog-search" />
        <RegistryBar
          shown={first.data?.registry}
          onChanged={() => {
            setReloads((n) => n + 1);
            void first.reload();
          }}
        />
      </Space>
      {first.error ? <ApiErrorAlert error={first.error} onRetry={() => void first.reload()} /> : null}
      {first.data?.offline ? (
        <Alert
          type="info"
          showIcon
          title={t('catalog.offline', { when: new Date(first.data.offline.savedAt).toLocaleString() })}
          description={first.data.offline.reason}
          data-testid="catalog-offline"
        />
      ) : null}
      {refused.length ? <Alert type="warning" showIcon title={t('catalog.refused', { count: refused.length, names: refused.map((r) => r.name).join(', ') })} data-testid="catalog-refused" /> : null}
      {!first.data && first.loading ? <Skeleton active paragraph={{ rows: 6 }} /> : null}
      {first.data && !entries.length ? <Empty description={t('catalog.empty')} /> : null}
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        {entries.map((entry) => (
          <CatalogEntryCard key={entry.name} entry={entry} onAdd={() => setAdding(entry)} />
        ))}
      </Space>
      {moreError ? <Alert type="error" showIcon title={moreError} /> : null}
      {nextCursor ? (
        <Button loading={loadingMore} onClick={() => void loadMore()} data-testid="catalog-more">
          {t('catalog.more')}
        </Button>
      ) : null}
      {adding ? <CatalogAddDrawer entry={adding} onClose={() => setAdding(undefined)} /> : null}
    </div>
  );
}
