import { App as AntApp, Card, List, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorLine } from '../../api/client';
import { useApi } from '../../api/hooks';
import '../../i18n/load/registry';

/**
 * The copies of plugin servers or prompts in the host's own lists, each
 * tagged with the plugin and app it copies, and the data home's
 * `syncAiContributes` switch (docs/rules/names-and-exposure.md#where-the-contribution-lives).
 * Read-only rows: a copy changes with its plugin's manifest.
 */
export function ContributionCopiesCard({ part }: { part: 'servers' | 'prompts' }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const copies = useApi('registry.copies', {}, { refreshOn: ['registry.changed'] });
  const [busy, setBusy] = useState(false);
  if (!copies.data) return null;
  const { syncAiContributes } = copies.data;
  const rows: { name: string; pluginId: string; appId: string; detail: string }[] =
    part === 'servers' ? copies.data.servers.map((s) => ({ ...s, detail: s.url })) : copies.data.prompts.map((p) => ({ ...p, detail: p.lang ?? '' }));

  const change = async (enabled: boolean) => {
    setBusy(true);
    try {
      await api.call('registry.setSyncAiContributes', { enabled });
      void message.success(t(enabled ? 'registry.copies.on' : 'registry.copies.off'));
      await copies.reload();
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="small" title={t('registry.copies.title')} style={{ marginTop: 16 }} data-testid={`copies-${part}`}>
      <Space style={{ marginBottom: 8 }}>
        <Switch checked={syncAiContributes} loading={busy} onChange={(on) => void change(on)} data-testid={`copies-switch-${part}`} aria-label={t('registry.copies.switch')} />
        <Typography.Text>{t('registry.copies.switch')}</Typography.Text>
      </Space>
      <Typography.Paragraph type="secondary">{t('registry.copies.help')}</Typography.Paragraph>
      {syncAiContributes && (
        <List
          size="small"
          dataSource={rows}
          locale={{ emptyText: t(part === 'servers' ? 'registry.copies.noneServers' : 'registry.copies.nonePrompts') }}
          renderItem={(row) => (
            <List.Item data-testid={`copy-${part}-${row.name}`}>
              <Space wrap>
                <Typography.Text code>{row.name}</Typography.Text>
                <Tag color="purple">{t('registry.copies.copyOf', { plugin: row.pluginId, app: row.appId })}</Tag>
                {row.detail && <Typography.Text type="secondary">{row.detail}</Typography.Text>}
              </Space>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
