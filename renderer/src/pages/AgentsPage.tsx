import { DeleteOutlined, EditOutlined, MessageOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, type ButtonProps, Empty, Popconfirm, Skeleton, Space, Spin, Table, Tag, Typography } from 'antd';
import { type HTMLAttributes, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Agent } from '../../../src/shared/agents';
import { api, errorLine } from '../api/client';
import { useApi } from '../api/hooks';
import type { EditorState } from '../components/agents/AgentEditorDrawer';
import '../i18n/load/agents';
import { PartSuspense } from '../shell/lazyPart';

// The editor and its drawer load when first opened: the list is what the page shows first.
const AgentEditorDrawer = lazy(() => import('../components/agents/AgentEditorDrawer'));

/** Agents: the list, and a drawer that creates or edits one with a live preview of what it gets. */
export default function AgentsPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  const agents = useApi('agents.list', {}, { refreshOn: ['agents.changed'] });
  const [editor, setEditor] = useState<EditorState>({ mode: 'closed' });
  // Mounted from the first open on, so that closing it animates as a drawer does.
  const [editorShown, setEditorShown] = useState(false);
  const openEditor = (state: EditorState) => {
    setEditor(state);
    setEditorShown(true);
  };
  const [deleting, setDeleting] = useState<string | undefined>();

  const remove = async (agent: Agent) => {
    setDeleting(agent.id);
    try {
      await api.call('agents.delete', { id: agent.id });
      void message.success(t('agents.deleted', { name: agent.name }));
      await agents.reload();
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setDeleting(undefined);
    }
  };

  const list = agents.data?.agents ?? [];
  let body;
  if (!agents.data && agents.loading) body = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (!agents.data && agents.error)
    body = <Alert type="error" showIcon title={agents.error.message} description={agents.error.hint} action={<Button onClick={() => void agents.reload()}>{t('agents.retry')}</Button>} />;
  else if (list.length === 0)
    body = (
      <Empty description={t('agents.empty')}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => openEditor({ mode: 'create' })}>
          {t('agents.new')}
        </Button>
      </Empty>
    );
  else
    body = (
      <Table<Agent>
        rowKey="id"
        dataSource={list}
        pagination={list.length > 20 ? { pageSize: 20 } : false}
        data-testid="agents-table"
        onRow={(agent) => ({ 'data-testid': `agent-row-${agent.id}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('agents.column.name'),
            dataIndex: 'name',
            sorter: (a, b) => a.name.localeCompare(b.name),
            render: (name: string, agent) => (
              <Space orientation="vertical" size={0}>
                <Typography.Link onClick={() => openEditor({ mode: 'edit', agent })}>{name}</Typography.Link>
                {agent.description && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {agent.description}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: t('agents.column.id'),
            dataIndex: 'id',
            render: (id: string) => (
              <Typography.Text code copyable>
                {id}
              </Typography.Text>
            ),
          },
          { title: t('agents.column.hostApp'), dataIndex: 'hostAppId', render: (id: string) => <Tag>{id}</Tag> },
          { title: t('agents.column.language'), dataIndex: 'language', width: 100, render: (lang: 'zh' | 'en') => t(`agents.language.${lang}`) },
          { title: t('agents.column.apps'), key: 'apps', width: 100, align: 'right', render: (_: unknown, agent) => agent.uiApps.length },
          {
            title: t('agents.column.actions'),
            key: 'actions',
            width: 280,
            render: (_: unknown, agent) => (
              <Space>
                <Button size="small" type="primary" icon={<MessageOutlined />} onClick={() => void navigate(`/chat?agent=${encodeURIComponent(agent.id)}`)} data-testid={`agent-chat-${agent.id}`}>
                  {t('agents.chat')}
                </Button>
                <Button size="small" icon={<EditOutlined />} onClick={() => openEditor({ mode: 'edit', agent })} data-testid={`agent-edit-${agent.id}`}>
                  {t('agents.edit')}
                </Button>
                <Popconfirm
                  title={t('agents.deleteConfirm', { name: agent.name })}
                  okText={t('agents.delete')}
                  cancelText={t('agents.editor.cancel')}
                  okButtonProps={{ danger: true, 'data-testid': 'agent-delete-ok' } as ButtonProps}
                  onConfirm={() => remove(agent)}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} loading={deleting === agent.id} data-testid={`agent-delete-${agent.id}`}>
                    {t('agents.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    );

  return (
    <div data-testid="page-agents">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} align="center">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('agents.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('agents.subtitle')}</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => openEditor({ mode: 'create' })} data-testid="agent-new">
          {t('agents.new')}
        </Button>
      </Space>
      {agents.error && agents.data && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={agents.error.message} description={agents.error.hint} />}
      {body}
      {editorShown && (
        <PartSuspense fallback={<Spin fullscreen />}>
          <AgentEditorDrawer
            editor={editor}
            onClose={() => setEditor({ mode: 'closed' })}
            onSaved={(agent) => {
              void message.success(t('agents.saved', { name: agent.name }));
              setEditor({ mode: 'closed' });
              void agents.reload();
            }}
          />
        </PartSuspense>
      )}
    </div>
  );
}
