import { DeleteOutlined, EditOutlined, PauseCircleOutlined, PlayCircleOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { App as AntApp, Button, type ButtonProps, Modal, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpServerEntryView, McpTestResult } from '../../../../src/shared/mcpAdmin';
import { api, errorLine } from '../../api/client';
import { useMcpAdmin } from './McpAdminContext';
import { lazyPart } from '../../shell/lazyPart';
import '../../i18n/load/mcpAdmin';

// What a test found loads with the first test's answer: the buttons are what the card shows first.
const TestResultView = lazyPart(() => import('./TestResultView').then((m) => m.TestResultView));

/**
 * Edit, test, disable/enable (in mcp.yaml) and delete, for one server of
 * mcp.yaml: on its card, and on the list of entries that do not load.
 */
export function ServerAdminActions({ entry, size = 'middle' }: { entry: McpServerEntryView; size?: ButtonProps['size'] }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const admin = useMcpAdmin();
  const [busy, setBusy] = useState<'test' | 'toggle' | 'delete'>();
  const [tested, setTested] = useState<McpTestResult>();
  const name = entry.name;

  const run = async (what: 'test' | 'toggle' | 'delete', action: () => Promise<void>) => {
    setBusy(what);
    try {
      await action();
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <>
      <Button size={size} icon={<EditOutlined />} onClick={() => admin.edit(entry)} data-testid={`mcp-edit-${name}`}>
        {t('mcpAdmin.edit')}
      </Button>
      <Button
        size={size}
        icon={<ThunderboltOutlined />}
        loading={busy === 'test'}
        onClick={() => void run('test', async () => setTested(await api.call('mcpServers.test', { name })))}
        data-testid={`mcp-test-${name}`}
      >
        {t('mcpAdmin.test.button')}
      </Button>
      <Button
        size={size}
        icon={entry.disabled ? <PlayCircleOutlined /> : <PauseCircleOutlined />}
        loading={busy === 'toggle'}
        onClick={() =>
          void run('toggle', async () => {
            await api.call('mcpServers.setDisabled', { name, disabled: !entry.disabled });
            void message.success(t(entry.disabled ? 'mcpAdmin.enabled' : 'mcpAdmin.disabled', { name }));
            void admin.entries.reload();
          })
        }
        data-testid={`mcp-toggle-${name}`}
      >
        {t(entry.disabled ? 'mcpAdmin.enable' : 'mcpAdmin.disable')}
      </Button>
      <Popconfirm
        title={t('mcpAdmin.deleteConfirm', { name })}
        description={t('mcpAdmin.deleteExplain')}
        okText={t('mcpAdmin.delete')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true, 'data-testid': 'mcp-delete-ok' } as ButtonProps}
        onConfirm={() =>
          run('delete', async () => {
            await api.call('mcpServers.remove', { name });
            void message.success(t('mcpAdmin.deleted', { name }));
            void admin.entries.reload();
          })
        }
      >
        <Button size={size} danger icon={<DeleteOutlined />} loading={busy === 'delete'} data-testid={`mcp-delete-${name}`}>
          {t('mcpAdmin.delete')}
        </Button>
      </Popconfirm>
      <Modal open={tested !== undefined} onCancel={() => setTested(undefined)} footer={null} title={t('mcpAdmin.test.title', { name })} width="min(720px, 96vw)" data-testid={`mcp-test-modal-${name}`}>
        {tested ? <TestResultView result={tested} testId={`mcp-test-result-${name}`} /> : null}
      </Modal>
    </>
  );
}
