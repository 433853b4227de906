import { App as AntApp, Alert, Card, Col, Row, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BuiltinToolChange, BuiltinToolView } from '../../../../src/shared/builtinTools';
import { api, errorLine } from '../../api/client';
import { useApi } from '../../api/hooks';
import '../../i18n/load/mcpAdminBuiltin';

function BuiltinToolCard({ tool, onChanged }: { tool: BuiltinToolView; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const [busy, setBusy] = useState(false);

  const change = async (patch: BuiltinToolChange) => {
    setBusy(true);
    try {
      const { builtin } = await api.call('mcpServers.setBuiltin', { name: tool.name, change: patch });
      if (patch.enabled !== undefined) void message.success(t(builtin.enabled ? 'mcpAdmin.builtin.switchedOn' : 'mcpAdmin.builtin.switchedOff', { name: builtin.title[lang] }));
      onChanged();
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      size="small"
      data-testid={`builtin-tool-${tool.name}`}
      style={{ height: '100%' }}
      title={
        <Space size={6} wrap>
          <span>{tool.title[lang]}</span>
          <Tag color="green">{t('mcpAdmin.builtin.inProcess')}</Tag>
        </Space>
      }
      extra={
        <Switch
          checked={tool.enabled}
          loading={busy}
          onChange={(enabled) => void change({ enabled })}
          aria-label={t('mcpAdmin.builtin.switch', { name: tool.title[lang] })}
          data-testid={`builtin-switch-${tool.name}`}
        />
      }
    >
      <Typography.Paragraph type="secondary">{tool.description[lang]}</Typography.Paragraph>
      <Typography.Paragraph style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t('mcpAdmin.builtin.tools')} </Typography.Text>
        {tool.tools.map((name) => (
          <Tag key={name}>{name}</Tag>
        ))}
      </Typography.Paragraph>
      {tool.allowPrivateAddresses !== undefined && (
        <Space>
          <Switch
            size="small"
            checked={tool.allowPrivateAddresses}
            disabled={busy}
            onChange={(allowPrivateAddresses) => void change({ allowPrivateAddresses })}
            data-testid={`builtin-private-${tool.name}`}
          />
          <Typography.Text>{t('mcpAdmin.builtin.allowPrivate')}</Typography.Text>
        </Space>
      )}
      {tool.blockedBy && <Alert style={{ marginTop: 8 }} type="warning" showIcon title={t('mcpAdmin.builtin.blocked', { name: tool.name })} />}
    </Card>
  );
}

/** The built-in tools (docs/using/mcp-servers.md#built-in-tools): served inside ChatOS, each switched on and off here; on, it is a server agents can be given. */
export function BuiltinToolList() {
  const { t } = useTranslation();
  const builtins = useApi('mcpServers.builtins', {}, { refreshOn: ['mcp.reloaded'] });
  if (!builtins.data) return null;
  return (
    <div style={{ marginBottom: 24 }} data-testid="builtin-tools">
      <Typography.Title level={5}>{t('mcpAdmin.builtin.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('mcpAdmin.builtin.help')}</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {builtins.data.builtins.map((tool) => (
          <Col xs={24} md={12} xl={8} key={tool.name}>
            <BuiltinToolCard tool={tool} onChanged={() => void builtins.reload()} />
          </Col>
        ))}
      </Row>
    </div>
  );
}
