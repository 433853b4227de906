import { DeleteOutlined, EditOutlined, PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, type ButtonProps, Drawer, Empty, Popconfirm, Skeleton, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { type HTMLAttributes, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelTestResult as Result, ModelView } from '../../../src/shared/models';
import { api, errorLine } from '../api/client';
import { useApi } from '../api/hooks';
import { ModelTestResult } from '../components/models/ModelTestResult';
import { ReadyAssistantOffer } from '../components/models/ReadyAssistantOffer';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import '../i18n/load/models';
import { PartSuspense } from '../shell/lazyPart';

// The editor loads when it is first opened: the list is what the page shows first.
const ModelEditor = lazy(() => import('../components/models/ModelEditor').then((m) => ({ default: m.ModelEditor })));

type EditorState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; model: ModelView };

function KeyTag({ model }: { model: ModelView }) {
  const { t } = useTranslation();
  const { keyState } = model;
  if (keyState.problem) {
    return (
      <Tooltip title={keyState.problem}>
        <Tag color="error">{t('models.key.problem')}</Tag>
      </Tooltip>
    );
  }
  switch (keyState.source) {
    case 'none':
      return <Tag>{t('models.key.none')}</Tag>;
    case 'env':
      return <Tag color={keyState.set ? 'blue' : 'warning'}>{t(keyState.set ? 'models.key.env' : 'models.key.envUnset', { name: keyState.env })}</Tag>;
    case 'stored':
      return <Tag color={keyState.set ? 'green' : 'warning'}>{t(keyState.set ? 'models.key.stored' : 'models.key.storedMissing')}</Tag>;
  }
}

/** Models: the entries, adding one from a preset, editing, testing (the coded failure in words) and removing. */
export default function ModelsPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const models = useApi('models.list', {}, { refreshOn: ['models.changed'] });
  const presets = useApi('models.presets', {});
  const [editor, setEditor] = useState<EditorState>({ mode: 'closed' });
  const [testing, setTesting] = useState<ReadonlySet<string>>(new Set());
  const [results, setResults] = useState<ReadonlyMap<string, Result>>(new Map());
  const [removing, setRemoving] = useState<string>();

  const test = async (model: ModelView) => {
    setTesting((s) => new Set(s).add(model.id));
    setResults((r) => new Map([...r].filter(([id]) => id !== model.id)));
    try {
      const result = await api.call('models.test', { id: model.id });
      setResults((r) => new Map(r).set(model.id, result));
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setTesting((s) => new Set([...s].filter((id) => id !== model.id)));
    }
  };

  const remove = async (model: ModelView) => {
    setRemoving(model.id);
    try {
      await api.call('models.remove', { id: model.id });
      void message.success(t('models.removed', { name: model.name }));
      await models.reload();
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setRemoving(undefined);
    }
  };

  const list = models.data?.models ?? [];
  let body;
  if (!models.data && models.loading) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (!models.data && models.error) body = <ApiErrorAlert error={models.error} onRetry={() => void models.reload()} />;
  else if (list.length === 0)
    body = (
      <Empty description={t('models.empty')}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditor({ mode: 'create' })}>
          {t('models.add')}
        </Button>
      </Empty>
    );
  else
    body = (
      <Table<ModelView>
        rowKey="id"
        dataSource={list}
        pagination={list.length > 20 ? { pageSize: 20 } : false}
        data-testid="models-table"
        onRow={(model) => ({ 'data-testid': `model-row-${model.id}` }) as HTMLAttributes<HTMLElement>}
        expandable={{
          expandedRowKeys: [...results.keys()],
          showExpandColumn: false,
          expandedRowRender: (model) => {
            const result = results.get(model.id);
            return result ? <ModelTestResult result={result} entry={model} /> : null;
          },
        }}
        columns={[
          {
            title: t('models.column.name'),
            dataIndex: 'name',
            render: (name: string, model) => (
              <Space orientation="vertical" size={0}>
                <Typography.Link onClick={() => setEditor({ mode: 'edit', model })}>{name}</Typography.Link>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {model.id}
                </Typography.Text>
              </Space>
            ),
          },
          { title: t('models.column.api'), dataIndex: 'api', render: (kind: ModelView['api']) => <Tag>{t(`models.api.${kind}`)}</Tag> },
          {
            title: t('models.column.model'),
            key: 'model',
            render: (_: unknown, model) => (
              <Space orientation="vertical" size={0}>
                <Space size={4}>
                  <Typography.Text code>{model.model}</Typography.Text>
                  {model.vision ? <Tag color="purple">{t('models.vision')}</Tag> : null}
                  {model.kind === 'embedding' ? <Tag color="cyan">{t('models.kind.embedding')}</Tag> : null}
                  {model.reasoning ? <Tag color="gold">{t('models.reasoning')}</Tag> : null}
                </Space>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {model.baseUrl}
                </Typography.Text>
              </Space>
            ),
          },
          { title: t('models.column.key'), key: 'key', render: (_: unknown, model) => <KeyTag model={model} /> },
          {
            title: t('models.column.actions'),
            key: 'actions',
            width: 280,
            render: (_: unknown, model) => (
              <Space>
                <Button size="small" icon={<ThunderboltOutlined />} loading={testing.has(model.id)} onClick={() => void test(model)} data-testid={`model-test-${model.id}`}>
                  {t('models.test')}
                </Button>
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditor({ mode: 'edit', model })} data-testid={`model-edit-${model.id}`}>
                  {t('models.edit')}
                </Button>
                <Popconfirm
                  title={t('models.removeConfirm', { name: model.name })}
                  okText={t('models.remove')}
                  cancelText={t('models.editor.cancel')}
                  okButtonProps={{ danger: true, 'data-testid': 'model-remove-ok' } as ButtonProps}
                  onConfirm={() => remove(model)}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} loading={removing === model.id} data-testid={`model-remove-${model.id}`}>
                    {t('models.remove')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    );

  const open = editor.mode !== 'closed';
  return (
    <div data-testid="page-models">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} align="center">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('models.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('models.subtitle')}</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditor({ mode: 'create' })} data-testid="model-add">
          {t('models.add')}
        </Button>
      </Space>
      {models.error && models.data ? <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={models.error.message} description={models.error.hint} /> : null}
      <ReadyAssistantOffer />
      {body}
      {models.data ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }} data-testid="models-key-store">
          {t(`models.keyStore.${models.data.keyStore.kind}`, { file: models.data.keyStore.file })}
        </Typography.Paragraph>
      ) : null}
      <Drawer
        open={open}
        onClose={() => setEditor({ mode: 'closed' })}
        size="min(720px, 96vw)"
        destroyOnHidden
        title={editor.mode === 'edit' ? t('models.editor.editTitle', { name: editor.model.name }) : t('models.editor.createTitle')}
        data-testid="model-editor"
      >
        {open ? (
          <PartSuspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
            <ModelEditor
              key={editor.mode === 'edit' ? editor.model.id : 'new'}
              {...(editor.mode === 'edit' ? { model: editor.model } : {})}
              presets={presets.data?.presets ?? []}
              onCancel={() => setEditor({ mode: 'closed' })}
              onSaved={(model) => {
                void message.success(t('models.saved', { name: model.name }));
                setEditor({ mode: 'closed' });
                setResults((r) => new Map([...r].filter(([id]) => id !== model.id)));
                void models.reload();
              }}
            />
          </PartSuspense>
        ) : null}
      </Drawer>
    </div>
  );
}
