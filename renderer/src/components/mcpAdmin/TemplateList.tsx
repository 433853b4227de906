import { PlusOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Card, Col, Input, Row, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpTemplate } from '../../../../src/shared/mcpAdmin';
import { api, errorLine } from '../../api/client';
import { useApi } from '../../api/hooks';
import { useMcpAdmin } from './McpAdminContext';
import '../../i18n/load/mcpAdminBuiltin';

function TemplateCard({ template }: { template: McpTemplate }) {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const admin = useMcpAdmin();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(template.params.map((p) => [p.key, p.default ?? ''])));
  const [busy, setBusy] = useState(false);
  const added = admin.entries.data?.servers.some((s) => s.name === template.name) ?? false;

  const add = async () => {
    setBusy(true);
    try {
      const { server } = await api.call('mcpServers.addTemplate', { templateId: template.id, params: values });
      void message.success(t('mcpAdmin.template.added', { name: server.name }));
      void admin.entries.reload();
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      size="small"
      title={
        <Space size={6} wrap>
          <span>{template.title[lang]}</span>
          {template.bundled ? <Tag color="green">{t('mcpAdmin.template.bundled')}</Tag> : <Tag>{template.runner}</Tag>}
        </Space>
      }
      data-testid={`mcp-template-${template.id}`}
      style={{ height: '100%' }}
    >
      <Typography.Paragraph type="secondary" style={{ minHeight: 44 }}>
        {template.description[lang]}
      </Typography.Paragraph>
      {template.params.map((param) => (
        <div key={param.key} style={{ marginBottom: 8 }}>
          <Typography.Text>{param.label[lang]}</Typography.Text>
          <Input
            value={values[param.key] ?? ''}
            onChange={(e) => setValues((v) => ({ ...v, [param.key]: e.target.value }))}
            placeholder="/home/me/project"
            data-testid={`mcp-template-param-${template.id}-${param.key}`}
          />
        </div>
      ))}
      <Space wrap>
        <Button type="primary" icon={<PlusOutlined />} loading={busy} disabled={added} onClick={() => void add()} data-testid={`mcp-template-add-${template.id}`}>
          {added ? t('mcpAdmin.template.already') : t('mcpAdmin.template.add')}
        </Button>
        <Typography.Text type="secondary" copyable={{ text: template.homepage }} style={{ fontSize: 12 }}>
          {t('mcpAdmin.template.about')}
        </Typography.Text>
      </Space>
    </Card>
  );
}

/** The built-in tab (docs/rules/settings-server.md#categories): servers that ship with ChatOS, and published ones started with npx or uvx. */
export function TemplateList() {
  const { t } = useTranslation();
  const templates = useApi('mcpServers.templates', {});
  if (!templates.data) return null;
  return (
    <div style={{ marginTop: 24 }} data-testid="mcp-templates">
      <Typography.Title level={5}>{t('mcpAdmin.template.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('mcpAdmin.template.help')}</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {templates.data.templates.map((template) => (
          <Col xs={24} md={12} xl={8} key={template.id}>
            <TemplateCard template={template} />
          </Col>
        ))}
      </Row>
    </div>
  );
}
