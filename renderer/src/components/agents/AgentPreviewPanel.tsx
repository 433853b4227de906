import { Alert, Card, Empty, Space, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AgentPreview, ToolView } from '../../../../src/shared/hostApi';
import type { ApiError } from '../../api/client';
import { ProblemList } from '../ProblemList';
import { PermissionTag } from '../servers/permission';
import { ToolName } from '../servers/ToolName';
import { CodeBlock } from '../ToolResultView';
import '../../i18n/load/agents';

function ToolTable({ tools, testId }: { tools: ToolView[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <Table<ToolView>
      data-testid={testId}
      size="small"
      rowKey="name"
      pagination={false}
      dataSource={tools}
      // A long list scrolls inside its card, so the prompt below stays in reach.
      scroll={tools.length > 6 ? { y: 300 } : undefined}
      locale={{ emptyText: t('agents.preview.noTools') }}
      columns={[
        {
          title: t('agents.preview.tool'),
          dataIndex: 'name',
          render: (name: string, tool) => (
            <div title={tool.description}>
              <Typography.Text code>
                <ToolName name={name} />
              </Typography.Text>
              <div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('agents.preview.server')}: {tool.serverId}
                </Typography.Text>
              </div>
            </div>
          ),
        },
        { title: t('agents.preview.permission'), dataIndex: 'permission', width: 110, render: (_: unknown, tool) => <PermissionTag level={tool.permission} source={tool.permissionSource} /> },
      ]}
    />
  );
}

/**
 * What the draft agent would get right now (`agents.preview`): the tools of
 * each flow, its prompt text and what does not resolve. Nothing is saved or
 * started to compute it.
 */
export function AgentPreviewPanel(props: { preview?: AgentPreview; loading: boolean; error?: ApiError; showFieldErrors: boolean }) {
  const { t } = useTranslation();
  const { preview, loading, error } = props;
  if (!preview && error) return <Alert type="error" showIcon title={error.message} description={error.hint} />;
  if (!preview) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  return (
    <Spin spinning={loading} delay={200}>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="agent-preview">
        {error && <Alert type="error" showIcon title={error.message} description={error.hint} />}
        {props.showFieldErrors && preview.fieldErrors.length > 0 && (
          <Alert
            type="warning"
            showIcon
            title={t('agents.preview.wouldNotSave')}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                {preview.fieldErrors.map((f, i) => (
                  <li key={i}>
                    <Typography.Text code>{f.path || '(agent)'}</Typography.Text> {f.message}
                  </li>
                ))}
              </ul>
            }
          />
        )}
        <Card size="small" title={t('agents.preview.main', { count: preview.main.length })}>
          <ToolTable tools={preview.main} testId="agent-preview-main" />
        </Card>
        <Card size="small" title={t('agents.preview.sub', { count: preview.sub.length })}>
          <ToolTable tools={preview.sub} testId="agent-preview-sub" />
        </Card>
        <Card size="small" title={t('agents.preview.prompt')} data-testid="agent-preview-prompt">
          {preview.prompt.parts.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('agents.preview.noPrompt')} />
          ) : (
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Space size={[4, 4]} wrap>
                {preview.prompt.parts.map((part) => (
                  <Tag key={part.id} title={part.id}>
                    {part.title ?? part.id} · {part.lang}
                  </Tag>
                ))}
              </Space>
              <CodeBlock maxHeight={320}>{preview.prompt.text}</CodeBlock>
            </Space>
          )}
        </Card>
        {preview.serverInstructions.length > 0 && (
          <Card size="small" title={t('agents.preview.serverInstructions', { count: preview.serverInstructions.length })} data-testid="agent-preview-instructions">
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Typography.Text type="secondary">{t('agents.preview.serverInstructionsHint')}</Typography.Text>
              {preview.serverInstructions.map((item) => (
                <Space key={item.serverId} orientation="vertical" style={{ width: '100%' }}>
                  <Tag title={item.serverId}>{item.serverName}</Tag>
                  <CodeBlock maxHeight={200}>{item.text}</CodeBlock>
                </Space>
              ))}
            </Space>
          </Card>
        )}
        {preview.problems.length > 0 && (
          <Card size="small" title={t('agents.preview.problems', { count: preview.problems.length })}>
            <ProblemList problems={preview.problems} />
          </Card>
        )}
      </Space>
    </Spin>
  );
}
