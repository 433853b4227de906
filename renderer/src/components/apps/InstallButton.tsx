import { useState } from 'react';
import { App as AntApp, Button, Input, Modal, Typography } from 'antd';
import { FolderOpenOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PluginUpdate } from '../../../../src/shared/pluginUpdate';
import { api, toApiError, type ApiError } from '../../api/client';
import { UpdateDiff } from './UpdateDiff';
import { ActionErrorAlert } from '../../shell/ActionErrorAlert';
import { BundleDrop, bundleFromUrl, BundlePreviewPanel, chooseBundle, givenConfig, uploadFile, type ChosenBundle } from './BundleInstall';
import type { BundleConfigValues } from '../../../../src/shared/bundles';
import { useOpenedBundle } from './openedBundle';
import '../../i18n/load/apps';

/**
 * Installs a plugin from a folder or a .zip the user names by path (the same
 * in Electron and in a browser: the path is read by the host, not uploaded),
 * a plugin's .zip the user picks or drops (uploaded, then installed as the
 * path would be), or an MCP Bundle the user picks, drops or names by its
 * https:// address: shown (author, signature, exact command, tools),
 * installed with the settings asked for; a bundle the desktop was asked to
 * open comes here too. Installed plugins are untrusted
 * until trusted, with the plan of what runs, whichever way they came.
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
  // A plugin .zip picked or dropped: its upload and name, installed on OK (an update asks once more).
  const [zip, setZip] = useState<{ uploadId: string; fileName: string }>();
  const [values, setValues] = useState<BundleConfigValues>({});
  // Over a copy of another signer: give it the stored secrets (the user's explicit choice; off by default).
  const [keepSecrets, setKeepSecrets] = useState(false);

  const close = () => {
    setOpen(false);
    setError(undefined);
    setUpdate(undefined);
    setBundle(undefined);
    setZip(undefined);
    setValues({});
    setKeepSecrets(false);
  };

  // A bundle the desktop was asked to open: the dialog opens on it as on a dropped file (or says why it was refused).
  useOpenedBundle((offer) => {
    setOpen(true);
    setUpdate(undefined);
    setZip(undefined);
    setValues({});
    setKeepSecrets(false);
    setBundle('chosen' in offer ? offer.chosen : undefined);
    setError('error' in offer ? offer.error : undefined);
  });

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

  const pickFile = (file: File) =>
    step(async () => {
      setUpdate(undefined);
      if (file.name.toLowerCase().endsWith('.zip')) {
        const uploadId = await uploadFile(file);
        setZip({ uploadId, fileName: file.name });
        const preview = await api.call('plugins.zipPreview', { uploadId });
        if (preview.update) setUpdate(preview.update);
        return;
      }
      setBundle(await chooseBundle(file));
      setValues({});
      setKeepSecrets(false);
    });

  const installBundle = (chosen: ChosenBundle) =>
    step(async () => {
      installed(await api.call('plugins.installBundle', { uploadId: chosen.uploadId, config: givenConfig(values), update: chosen.preview.installed, keepSecrets }));
    });

  const install = async () => {
    if (bundle) return installBundle(bundle);
    if (zip) return step(async () => installed(await api.call('plugins.installZip', { uploadId: zip.uploadId, update: update !== undefined })));
    const trimmed = source.trim();
    // A pasted address is an MCP Bundle's, as for `chatos install URL`: fetched by the host and shown before anything is installed.
    if (/^https?:\/\//i.test(trimmed))
      return step(async () => {
        setBundle(await bundleFromUrl(trimmed));
        setValues({});
      });
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

  // The desktop's folder picker fills the path; a browser has none (the path is typed).
  const pickFolder = () =>
    step(async () => {
      const { dir } = await api.call('plugins.pickFolder', {});
      if (dir === null) return;
      setSource(dir);
      setUpdate(undefined);
    });

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
        // Disabled, not only spinning, while a step runs (a dropped .zip's preview, the install): a press then does
        // nothing, and a disabled button says so to a screen reader and to a test that waits for it to be pressable.
        okButtonProps={{ ...({ 'data-testid': 'install-ok' } as Record<string, string>), disabled: busy }}
        destroyOnHidden
      >
        {bundle ? (
          <BundlePreviewPanel chosen={bundle} values={values} onChange={setValues} keepSecrets={keepSecrets} onKeepSecrets={setKeepSecrets} />
        ) : (
          <>
            <BundleDrop onFile={(file) => void pickFile(file)} />
            {zip ? (
              <Typography.Paragraph strong style={{ marginTop: 8 }} data-testid="install-zip">
                {zip.fileName}
              </Typography.Paragraph>
            ) : null}
            <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
              {t('apps.install.explain')}
            </Typography.Paragraph>
          </>
        )}
        <Input
          hidden={bundle !== undefined || zip !== undefined}
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
        {api.face === 'electron' && !bundle && !zip ? (
          <Button icon={<FolderOpenOutlined />} onClick={() => void pickFolder()} style={{ marginTop: 8 }} data-testid="install-pick-folder">
            {t('apps.install.pickFolder')}
          </Button>
        ) : null}
        {update ? <UpdateDiff update={update} /> : null}
        {error ? <ActionErrorAlert error={error} testId="install-error" style={{ marginTop: 12 }} /> : null}
      </Modal>
    </>
  );
}
