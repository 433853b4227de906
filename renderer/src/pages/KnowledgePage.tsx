import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App as AntApp, Button, type ButtonProps, Card, Col, Descriptions, Empty, List, Popconfirm, Row, Skeleton, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KnowledgeBase } from '../../../src/shared/knowledge';
import { api } from '../api/client';
import { useApi } from '../api/hooks';
import type { KnowledgeEditorState } from '../components/knowledge/KnowledgeBaseDrawer';
import { KnowledgeDocuments } from '../components/knowledge/KnowledgeDocuments';
import { useAction } from '../components/useAction';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import { lazyPart, useOpenedOnce } from '../shell/lazyPart';
import '../i18n/load/knowledge';

// The form's drawer loads when first opened, the search with its tab: the bases and their documents are what the page shows first.
const KnowledgeBaseDrawer = lazyPart(() => import('../components/knowledge/KnowledgeBaseDrawer').then((m) => m.default), <Spin fullscreen />);
// The upload (antd's Upload and Progress) comes with a base's page, not before the list is interactive.
const KnowledgeUpload = lazyPart(() => import('../components/knowledge/KnowledgeUpload').then((m) => m.KnowledgeUpload));
const KnowledgeSearch = lazyPart(() => import('../components/knowledge/KnowledgeSearch').then((m) => m.KnowledgeSearch));

function ModelTag({ base }: { base: KnowledgeBase }) {
  const { t } = useTranslation();
  if (!base.embeddingModel) return <Tag>{t('knowledge.lexicalOnly')}</Tag>;
  const stale = base.counts.chunks > 0 && base.embeddedWith?.model !== base.embeddingModel;
  return <Tag color={stale ? 'orange' : 'geekblue'}>{stale ? t('knowledge.staleModel', { model: base.embeddingModel }) : t('knowledge.hybrid', { model: base.embeddingModel })}</Tag>;
}

/** One base: its settings, its documents by file with an upload, and a search box. */
function BaseDetail({ base, onEdit, onDeleted }: { base: KnowledgeBase; onEdit(): void; onDeleted(): void }) {
  const { t } = useTranslation();
  const remove = useAction(onDeleted);
  return (
    <Card
      data-testid={`kb-detail-${base.id}`}
      title={
        <Space>
          {base.name}
          <ModelTag base={base} />
        </Space>
      }
      extra={
        <Space>
          <Button icon={<EditOutlined />} onClick={onEdit} data-testid="kb-edit">
            {t('knowledge.edit')}
          </Button>
          <Popconfirm
            title={t('knowledge.deleteConfirm', { name: base.name })}
            description={t('knowledge.deleteDetail', { files: base.counts.files, chunks: base.counts.chunks })}
            okText={t('knowledge.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true, 'data-testid': 'kb-delete-ok' } as ButtonProps}
            onConfirm={() => remove.run(async () => (await api.call('knowledge.delete', { id: base.id }), t('knowledge.deleted', { name: base.name })))}
          >
            <Button danger icon={<DeleteOutlined />} loading={remove.busy} data-testid="kb-delete">
              {t('knowledge.delete')}
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      <Descriptions size="small" column={{ xs: 1, md: 2 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('knowledge.field.id')}>{base.id}</Descriptions.Item>
        <Descriptions.Item label={t('knowledge.field.counts')}>{t('knowledge.counts', { files: base.counts.files, chunks: base.counts.chunks })}</Descriptions.Item>
        <Descriptions.Item label={t('knowledge.field.chunking')}>{t('knowledge.chunking', { size: base.chunkSize, overlap: base.chunkOverlap })}</Descriptions.Item>
        <Descriptions.Item label={t('knowledge.field.updated')}>{new Date(base.updatedAt).toLocaleString()}</Descriptions.Item>
        {base.description ? (
          <Descriptions.Item label={t('knowledge.field.description')} span={2}>
            {base.description}
          </Descriptions.Item>
        ) : null}
      </Descriptions>
      <Tabs
        items={[
          {
            key: 'documents',
            label: t('knowledge.tab.documents'),
            children: (
              <Space orientation="vertical" style={{ width: '100%' }} size="middle">
                <KnowledgeUpload knowledgeBaseId={base.id} onAdded={() => undefined} />
                <KnowledgeDocuments knowledgeBaseId={base.id} />
              </Space>
            ),
          },
          { key: 'search', label: t('knowledge.tab.search'), children: <KnowledgeSearch knowledgeBaseId={base.id} /> },
        ]}
      />
    </Card>
  );
}

/**
 * Knowledge bases (docs/rules/knowledge.md): list, create, edit, delete; a base's
 * documents grouped by file, files added with a progress bar, and a search
 * with the sources of what it finds. The same core as `chatos kb` and the
 * settings server's knowledge tools.
 */
export default function KnowledgePage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const bases = useApi('knowledge.list', {}, { refreshOn: ['knowledge.changed'] });
  const [selected, setSelected] = useState<string>();
  const [editor, setEditor] = useState<KnowledgeEditorState>({ mode: 'closed' });
  const list = bases.data?.knowledgeBases ?? [];
  const current = list.find((b) => b.id === selected) ?? list[0];

  let body;
  if (!bases.data && bases.loading) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (!bases.data && bases.error) body = <ApiErrorAlert error={bases.error} onRetry={() => void bases.reload()} />;
  else if (list.length === 0) body = <Empty description={t('knowledge.empty')} data-testid="kb-empty" />;
  else
    body = (
      <Row gutter={16}>
        <Col xs={24} md={7}>
          <List
            bordered
            dataSource={list}
            renderItem={(base) => (
              <List.Item
                onClick={() => setSelected(base.id)}
                style={{ cursor: 'pointer', background: base.id === current?.id ? 'var(--ant-control-item-bg-active, rgba(22,119,255,0.08))' : undefined }}
                data-testid={`kb-item-${base.id}`}
              >
                <List.Item.Meta title={base.name} description={t('knowledge.counts', { files: base.counts.files, chunks: base.counts.chunks })} />
              </List.Item>
            )}
          />
        </Col>
        <Col xs={24} md={17}>
          {current ? <BaseDetail key={current.id} base={current} onEdit={() => setEditor({ mode: 'edit', base: current })} onDeleted={() => setSelected(undefined)} /> : null}
        </Col>
      </Row>
    );

  const editorShown = useOpenedOnce(editor.mode !== 'closed');
  return (
    <div data-testid="page-knowledge">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} align="center">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('knowledge.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('knowledge.subtitle')}</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditor({ mode: 'create' })} data-testid="kb-add">
          {t('knowledge.add')}
        </Button>
      </Space>
      {body}
      {editorShown && (
        <KnowledgeBaseDrawer
          editor={editor}
          onClose={() => setEditor({ mode: 'closed' })}
          onSaved={(base) => {
            void message.success(t('knowledge.saved', { name: base.name }));
            setEditor({ mode: 'closed' });
            setSelected(base.id);
            void bases.reload();
          }}
        />
      )}
    </div>
  );
}
