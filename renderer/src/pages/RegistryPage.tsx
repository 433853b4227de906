import { useState } from 'react';
import { Checkbox, Input, Select, Skeleton, Space, Tabs, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useApi } from '../api/hooks';
import { GrantMatrix } from '../components/registry/GrantMatrix';
import { grantKey, grantedSet, matchesSearch, targetsOf, type TargetKind } from '../components/registry/registryModel';
import { VisibleDrawer } from '../components/registry/VisibleDrawer';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import '../i18n/load/registry';

/** The registry: which apps exist, what they offer, and who was granted what (nothing, by default). */
export default function RegistryPage() {
  const { t } = useTranslation();
  const overview = useApi('registry.overview', {}, { refreshOn: ['registry.changed', 'plugins.changed'] });
  const [tab, setTab] = useState<TargetKind>('server');
  const [search, setSearch] = useState('');
  const [onlyGranted, setOnlyGranted] = useState(false);
  const [appFilter, setAppFilter] = useState<string | undefined>();
  const [visibleFor, setVisibleFor] = useState<string | null>(null);
  const data = overview.data;

  const matrix = (kind: TargetKind) => {
    if (!data) return null;
    const granted = grantedSet(data);
    const apps = data.apps.filter((app) => !appFilter || app.appId === appFilter);
    const targets = targetsOf(data, kind).filter((target) => matchesSearch(target, search) && (!onlyGranted || apps.some((app) => granted.has(grantKey(app.appId, target.id)))));
    return <GrantMatrix overview={data} apps={apps} targets={targets} granted={granted} onChanged={overview.reload} onShowVisible={setVisibleFor} />;
  };

  return (
    <div data-testid="page-registry" className="page-stack">
      <div className="page-toolbar">
        <Typography.Text type="secondary" className="page-toolbar-text">
          {data ? t('registry.summary', { apps: data.apps.length, servers: data.servers.length, prompts: data.prompts.length, grants: data.grants.length }) : t('registry.intro')}
        </Typography.Text>
        <Space wrap>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('registry.search')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            style={{ width: 240 }}
            data-testid="registry-search"
          />
          <Select
            allowClear
            placeholder={t('registry.allApps')}
            value={appFilter}
            onChange={(value: string | undefined) => setAppFilter(value)}
            options={(data?.apps ?? []).map((app) => ({ value: app.appId, label: app.appId }))}
            style={{ width: 200 }}
            data-testid="registry-app-filter"
          />
          <Checkbox checked={onlyGranted} onChange={(event) => setOnlyGranted(event.target.checked)} data-testid="registry-only-granted">
            {t('registry.onlyGranted')}
          </Checkbox>
        </Space>
      </div>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('registry.explain')}
      </Typography.Paragraph>

      {overview.error ? <ApiErrorAlert error={overview.error} onRetry={() => void overview.reload()} /> : null}
      {!data && overview.loading ? <Skeleton active paragraph={{ rows: 8 }} /> : null}
      {data ? (
        <Tabs
          activeKey={tab}
          onChange={(key) => setTab(key as TargetKind)}
          items={[
            { key: 'server', label: `${t('registry.tab.servers')} (${data.servers.length})`, children: matrix('server') },
            { key: 'prompt', label: `${t('registry.tab.prompts')} (${data.prompts.length})`, children: matrix('prompt') },
          ]}
        />
      ) : null}
      {data ? <VisibleDrawer overview={data} appId={visibleFor} onClose={() => setVisibleFor(null)} /> : null}
    </div>
  );
}
