import { App as AntApp, Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BundleConfigValues } from '../../../../src/shared/bundles';
import type { CatalogEntryView, CatalogOptionView } from '../../../../src/shared/mcpCatalog';
import { api, errorLine } from '../../api/client';
import { bundleFromCatalog, BundlePreviewPanel, givenConfig, type ChosenBundle } from '../apps/BundleInstall';
import '../../i18n/load/apps';
import '../../i18n/load/catalog';

/**
 * An entry's MCP Bundle, installed from the catalog with the plan a dropped
 * or pasted bundle gets (docs/using/bundles.md): the host fetches it from the
 * address the registry names and refuses it unless its bytes have the
 * entry's SHA-256, then the window shows who made and signed it, the exact
 * command and its tools, and asks its settings. It installs as a plugin,
 * untrusted until trusted.
 */
export function CatalogBundleInstall({ entry, option, onDone }: { entry: CatalogEntryView; option: CatalogOptionView; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [chosen, setChosen] = useState<ChosenBundle>();
  const [values, setValues] = useState<BundleConfigValues>({});
  const [keepSecrets, setKeepSecrets] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const step = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      setError(errorLine(e));
    } finally {
      setBusy(false);
    }
  };

  const fetchBundle = () => step(async () => setChosen(await bundleFromCatalog({ name: entry.name, option: option.index })));

  const install = (bundle: ChosenBundle) =>
    step(async () => {
      const result = await api.call('plugins.installBundle', { uploadId: bundle.uploadId, config: givenConfig(values), update: bundle.preview.installed, keepSecrets });
      void message.success(t(result.updated ? 'apps.install.updated' : 'apps.install.done', { id: result.pluginId }));
      onDone();
    });

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="catalog-bundle">
      {chosen ? (
        <BundlePreviewPanel chosen={chosen} values={values} onChange={setValues} keepSecrets={keepSecrets} onKeepSecrets={setKeepSecrets} />
      ) : (
        <Typography.Paragraph type="secondary">{t('catalog.bundleExplain')}</Typography.Paragraph>
      )}
      {error ? (
        <Typography.Paragraph type="danger" data-testid="catalog-add-error">
          {error}
        </Typography.Paragraph>
      ) : null}
      {chosen ? (
        <Button type="primary" loading={busy} onClick={() => void install(chosen)} data-testid="catalog-bundle-install">
          {t(chosen.preview.installed ? 'apps.install.updateOk' : 'catalog.bundleInstall')}
        </Button>
      ) : (
        <Button type="primary" loading={busy} onClick={() => void fetchBundle()} data-testid="catalog-bundle-fetch">
          {t('catalog.bundleFetch')}
        </Button>
      )}
    </Space>
  );
}
