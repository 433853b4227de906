import { useState } from 'react';
import { App as AntApp, Button, Input, Modal, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PluginUpdate } from '../../../../src/shared/pluginUpdate';
import { api, toApiError, type ApiError } from '../../api/client';
import { UpdateDiff } from './UpdateDiff';
import { ActionErrorAlert } from '../../shell/ActionErrorAlert';
import '../../i18n/load/apps';

/**
 * Installs a plugin from a folder or a .zip the user names by path. The same
 * in Electron and in a browser: the path is read by the host, not uploaded.
 */
export function InstallButton({ onInstalled }: { onInstalled: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [open, setOpen] = useState(false);
  const [source, setSource] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  // Set when the source's id is installed already: the second OK updates it in place.
  const [update, setUpdate] = useState<PluginUpdate>();

  const close = () => {
    setOpen(false);
    setError(undefined);
    setUpdate(undefined);
  };

  const install = async () => {
    const trimmed = source.trim();
    if (!trimmed) {
      setError(toApiError(new Error(t('apps.install.needPath'))));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      if (!update) {
        const preview = await api.call('plugins.installPreview', { source: trimmed });
        if (preview.update) {
          setUpdate(preview.update);
          return;
        }
      }
      const result = await api.call('plugins.install', { source: trimmed, update: update !== undefined });
      message.success(t(result.updated ? 'apps.install.updated' : 'apps.install.done', { id: result.pluginId }));
      setSource('');
      close();
      onInstalled();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="install">
        {t('apps.install.button')}
      </Button>
      <Modal
        open={open}
        title={t('apps.install.title')}
        okText={t(update ? 'apps.install.updateOk' : 'apps.install.ok')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        onOk={install}
        onCancel={close}
        okButtonProps={{ 'data-testid': 'install-ok' } as Record<string, string>}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('apps.install.explain')}</Typography.Paragraph>
        <Input
          autoFocus
          value={source}
          onChange={(event) => {
            setSource(event.target.value);
            setUpdate(undefined);
          }}
          onPressEnter={install}
          placeholder={t('apps.install.placeholder')}
          data-testid="install-source"
        />
        {update ? <UpdateDiff update={update} /> : null}
        {error ? <ActionErrorAlert error={error} testId="install-error" style={{ marginTop: 12 }} /> : null}
      </Modal>
    </>
  );
}
