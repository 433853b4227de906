import { useState } from 'react';
import { App as AntApp, Button, Input, Modal, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PluginUpdate } from '../../../../src/shared/pluginUpdate';
import { api, toApiError, type ApiError } from '../../api/client';
import { UpdateDiff } from './UpdateDiff';
import { ActionErrorAlert } from '../../shell/ActionErrorAlert';
import { BundleDrop, BundlePreviewPanel, chooseBundle, type ChosenBundle } from './BundleInstall';
import type { BundleConfigValues } from '../../../../src/shared/bundles';
import '../../i18n/load/apps';

/**
 * Installs a plugin from a folder or a .zip the user names by path (the same
 * in Electron and in a browser: the path is read by the host, not uploaded),
 * or an MCP Bundle the user picks or drops: uploaded, shown (author,
 * signature, exact command, tools), installed with the settings asked for.
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
  const [bundle, setBundle] = useState<ChosenBundle>();
  const [values, setValues] = useState<BundleConfigValues>({});
  // Over a copy of another signer: give it the stored secrets (the user's explicit choice; off by default).
  const [keepSecrets, setKeepSecrets] = useState(false);

  const close = () => {
    setOpen(false);
    setError(undefined);
    setUpdate(undefined);
    setBundle(undefined);
    setValues({});
    setKeepSecrets(false);
  };

  /** One step of the dialog: busy while it runs, its failure shown in the dialog. */
  const step = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const installed = (result: { pluginId: string; updated: boolean }) => {
    message.success(t(result.updated ? 'apps.install.updated' : 'apps.install.done', { id: result.pluginId }));
    setSource('');
    close();
    onInstalled();
  };

  const pickBundle = (file: File) =>
    step(async () => {
      setBundle(await chooseBundle(file));
      setValues({});
      setKeepSecrets(false);
    });

  const installBundle = (chosen: ChosenBundle) =>
    step(async () => {
      // An empty field is not given: the host keeps what an earlier install had, else the default.
      const config = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
      installed(await api.call('plugins.installBundle', { uploadId: chosen.uploadId, config, update: chosen.preview.installed, keepSecrets }));
    });

  const install = async () => {
    if (bundle) return installBundle(bundle);
    const trimmed = source.trim();
    if (!trimmed) {
      setError(toApiError(new Error(t('apps.install.needPath'))));
      return;
    }
    await step(async () => {
      if (!update) {
        const preview = await api.call('plugins.installPreview', { source: trimmed });
        if (preview.update) {
          setUpdate(preview.update);
          return;
        }
      }
      installed(await api.call('plugins.install', { source: trimmed, update: update !== undefined }));
    });
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
        {bundle ? (
          <BundlePreviewPanel chosen={bundle} values={values} onChange={setValues} keepSecrets={keepSecrets} onKeepSecrets={setKeepSecrets} />
        ) : (
          <>
            <BundleDrop onFile={(file) => void pickBundle(file)} />
            <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
              {t('apps.install.explain')}
            </Typography.Paragraph>
          </>
        )}
        <Input
          hidden={bundle !== undefined}
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
