import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App as AntApp, Button, type ButtonProps, Empty, Popconfirm, Select, Skeleton, Space, Spin, Table, Tag, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HostPromptView } from '../../../src/shared/hostPrompts';
import { api, errorLine } from '../api/client';
import { useApi } from '../api/hooks';
import type { PromptEditorState } from '../components/prompts/PromptEditorDrawer';
import { ContributionCopiesCard } from '../components/registry/ContributionCopiesCard';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import { lazyPart, useOpenedOnce } from '../shell/lazyPart';
import '../i18n/load/prompts';

// The editor and its drawer load when first opened: the list is what the page shows first.
const PromptEditorDrawer = lazyPart(() => import('../components/prompts/PromptEditorDrawer').then((m) => m.default), <Spin fullscreen />);

/** Who may use a prompt besides ChatOS itself: a grant per app, both texts at once. */
function GrantSelect({ prompt, apps }: { prompt: HostPromptView; apps: string[] }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [busy, setBusy] = useState(false);
  const change = async (next: string[]) => {
    setBusy(true);
    try {
      const added = next.filter((a) => !prompt.grantedTo.includes(a));
      const removed = prompt.grantedTo.filter((a) => !next.includes(a));
      for (const appId of added) await api.call('prompts.setGrant', { name: prompt.name, appId, granted: true });
      for (const appId of removed) await api.call('prompts.setGrant', { name: prompt.name, appId, granted: false });
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Select<string[]>
      mode="multiple"
      size="small"
      value={prompt.grantedTo}
      loading={busy}
      placeholder={t('prompts.grant.none')}
      style={{ minWidth: 200 }}
      onChange={(next) => void change(next)}
      options={apps.map((app) => ({ value: app, label: app }))}
      data-testid={`prompt-grants-${prompt.name}`}
    />
  );
}

/**
 * The host's own prompts (the `prompts` table of its admin DB): list, add,
 * edit, delete, with a Chinese and an English text each; agents pick the
 * text in their language, and other apps use it once granted.
 */
export default function PromptsPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const prompts = useApi('prompts.list', {}, { refreshOn: ['registry.changed'] });
  const [editor, setEditor] = useState<PromptEditorState>({ mode: 'closed' });
  const [removing, setRemoving] = useState<string>();

  const remove = async (prompt: HostPromptView) => {
    setRemoving(prompt.name);
    try {
      await api.call('prompts.remove', { name: prompt.name });
      void message.success(t('prompts.removed', { name: prompt.name }));
      await prompts.reload();
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setRemoving(undefined);
    }
  };

  const list = prompts.data?.prompts ?? [];
  const apps = prompts.data?.apps ?? [];
  let body;
  if (!prompts.data && prompts.loading) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (!prompts.data && prompts.error) body = <ApiErrorAlert error={prompts.error} onRetry={() => void prompts.reload()} />;
  else if (list.length === 0) body = <Empty description={t('prompts.empty')} />;
  else
    body = (
      <Table<HostPromptView>
        rowKey="name"
        dataSource={list}
        pagination={list.length > 20 ? { pageSize: 20 } : false}
        onRow={(prompt) => ({ 'data-testid': `prompt-row-${prompt.name}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('prompts.column.name'),
            key: 'name',
            render: (_: unknown, prompt) => (
              <Space orientation="vertical" size={0}>
                <Typography.Link onClick={() => setEditor({ mode: 'edit', prompt })}>{prompt.title ?? prompt.name}</Typography.Link>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {prompt.ids.join(' · ')}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t('prompts.column.texts'),
            key: 'texts',
            render: (_: unknown, prompt) => (
              <Space orientation="vertical" size={2} style={{ maxWidth: 420 }}>
                {(['zh', 'en'] as const).map((lang) =>
                  prompt[lang] !== undefined ? (
                    <Typography.Text key={lang} ellipsis style={{ maxWidth: 420 }}>
                      <Tag>{t(`prompts.lang.${lang}`)}</Tag>
                      {prompt[lang]}
                    </Typography.Text>
                  ) : null,
                )}
              </Space>
            ),
          },
          { title: t('prompts.column.grants'), key: 'grants', render: (_: unknown, prompt) => <GrantSelect prompt={prompt} apps={apps} /> },
          {
            title: t('prompts.column.actions'),
            key: 'actions',
            width: 200,
            render: (_: unknown, prompt) => (
              <Space>
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditor({ mode: 'edit', prompt })} data-testid={`prompt-edit-${prompt.name}`}>
                  {t('prompts.edit')}
                </Button>
                <Popconfirm
                  title={t('prompts.removeConfirm', { name: prompt.name })}
                  description={prompt.grantedTo.length ? t('prompts.removeGrants', { apps: prompt.grantedTo.join(', ') }) : undefined}
                  okText={t('prompts.remove')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true, 'data-testid': 'prompt-remove-ok' } as ButtonProps}
                  onConfirm={() => remove(prompt)}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} loading={removing === prompt.name} data-testid={`prompt-remove-${prompt.name}`}>
                    {t('prompts.remove')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    );

  const editorShown = useOpenedOnce(editor.mode !== 'closed');
  return (
    <div data-testid="page-prompts">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} align="center">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('prompts.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('prompts.subtitle')}</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditor({ mode: 'create' })} data-testid="prompt-add">
          {t('prompts.add')}
        </Button>
      </Space>
      {body}
      <ContributionCopiesCard part="prompts" />
      {editorShown && (
        <PromptEditorDrawer
          editor={editor}
          onClose={() => setEditor({ mode: 'closed' })}
          onSaved={(prompt) => {
            void message.success(t('prompts.saved', { name: prompt.name }));
            setEditor({ mode: 'closed' });
            void prompts.reload();
          }}
        />
      )}
    </div>
  );
}
