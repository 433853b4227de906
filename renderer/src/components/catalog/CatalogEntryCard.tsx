import { Button, Card, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CatalogEntryView, CatalogOptionView } from '../../../../src/shared/mcpCatalog';
import '../../i18n/load/catalog';

/** What one way to run an entry does, word for word: the command line or the URL, and what is downloaded from where. */
export function CatalogOptionText({ option }: { option: CatalogOptionView }) {
  const { t } = useTranslation();
  if (!option.installable)
    return (
      <Typography.Text type="secondary">
        <Tag color="default">{t('catalog.cannot')}</Tag>
        {option.reason}
        {option.hint ? ` — ${option.hint}` : ''}
      </Typography.Text>
    );
  return (
    <Space orientation="vertical" size={0}>
      {option.command ? (
        <Typography.Text>
          {t('catalog.runs')}: <Typography.Text code>{[option.command, ...(option.args ?? [])].join(' ')}</Typography.Text>
        </Typography.Text>
      ) : null}
      {option.url ? (
        <Typography.Text>
          {t('catalog.connects')}: <Typography.Text code>{option.url}</Typography.Text>
        </Typography.Text>
      ) : null}
      {option.downloads ? (
        <Typography.Text type="secondary">
          {t('catalog.downloads')}: {option.downloads}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/** One entry of the registry: its name, version and description, each way to run it, and Add when one can be added. */
export function CatalogEntryCard({ entry, onAdd }: { entry: CatalogEntryView; onAdd: () => void }) {
  const { t } = useTranslation();
  const installable = entry.options.some((o) => o.installable);
  return (
    <Card
      size="small"
      data-testid={`catalog-entry-${entry.name}`}
      title={
        <Space size={6} wrap>
          <span>{entry.title ?? entry.name}</span>
          <Tag>{entry.version}</Tag>
          {entry.status && entry.status !== 'active' ? <Tag color="orange">{entry.status}</Tag> : null}
        </Space>
      }
      extra={
        <Button type="primary" disabled={!installable} onClick={onAdd} data-testid={`catalog-add-${entry.name}`}>
          {t('catalog.add')}
        </Button>
      }
    >
      {entry.title ? <Typography.Text type="secondary">{entry.name}</Typography.Text> : null}
      <Typography.Paragraph style={{ marginBottom: 8 }}>{entry.description}</Typography.Paragraph>
      <Space orientation="vertical" size={4} style={{ width: '100%' }}>
        {entry.options.map((option) => (
          <div key={option.index}>
            <Tag>{option.label}</Tag>
            <CatalogOptionText option={option} />
          </div>
        ))}
      </Space>
      {entry.repositoryUrl || entry.websiteUrl ? (
        <Space size="middle" style={{ marginTop: 8 }}>
          {entry.repositoryUrl ? (
            <Typography.Text type="secondary" copyable={{ text: entry.repositoryUrl }} style={{ fontSize: 12 }}>
              {t('catalog.source')}
            </Typography.Text>
          ) : null}
          {entry.websiteUrl ? (
            <Typography.Text type="secondary" copyable={{ text: entry.websiteUrl }} style={{ fontSize: 12 }}>
              {t('catalog.website')}
            </Typography.Text>
          ) : null}
        </Space>
      ) : null}
    </Card>
  );
}
