import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ProblemList } from '../ProblemList';
import { useMcpAdmin } from './McpAdminContext';
import { ServerAdminActions } from './ServerAdminActions';
import '../../i18n/load/mcpAdmin';

/**
 * Above the external servers: add one, import from another client, where
 * mcp.yaml is; and the entries of mcp.yaml that do not load (they have no
 * card, since they do not run), so they can be fixed or deleted here.
 */
export function ExternalServersBar({ loadedIds }: { loadedIds: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const admin = useMcpAdmin();
  const list = admin.entries.data;
  const broken = list?.servers.filter((s) => !loadedIds.has(s.id)) ?? [];
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%', marginBottom: 16 }}>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => admin.create()} data-testid="mcp-add">
            {t('mcpAdmin.add')}
          </Button>
          <Button icon={<ImportOutlined />} onClick={() => admin.openImport()} data-testid="mcp-import-open">
            {t('mcpAdmin.import.open')}
          </Button>
        </Space>
        {list ? (
          <Typography.Text type="secondary" data-testid="mcp-file">
            {t('mcpAdmin.file', { file: list.file })}
          </Typography.Text>
        ) : null}
      </Space>
      {list && list.problems.length ? <Alert type="error" showIcon title={t('mcpAdmin.fileBroken')} description={<ProblemList problems={list.problems} testId="mcp-file-problems" />} /> : null}
      {broken.map((entry) => (
        <Card key={entry.name} size="small" title={entry.name} data-testid={`mcp-broken-${entry.name}`} extra={<Typography.Text type="danger">{t('mcpAdmin.notLoaded')}</Typography.Text>}>
          <ProblemList problems={entry.problems} />
          <Space wrap style={{ marginTop: 8 }}>
            <ServerAdminActions entry={entry} />
          </Space>
        </Card>
      ))}
    </Space>
  );
}
