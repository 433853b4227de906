import { Alert, Checkbox, Descriptions, Input, Tag, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { BundleConfigValues, BundlePreview } from '../../../../src/shared/bundles';
import type { CatalogBundleRequest } from '../../../../src/shared/mcpCatalog';
import { api } from '../../api/client';
import { base64Of, newJobId, PART_BYTES } from '../knowledge/uploadFile';
import '../../i18n/load/apps';

/** A bundle the user picked or dropped: uploaded, and what the host shows of it. */
export interface ChosenBundle {
  uploadId: string;
  fileName: string;
  preview: BundlePreview;
}

/** Uploads a picked or dropped file (a bundle or a plugin's .zip) in parts; the host holds it under the id given back. */
export async function uploadFile(file: File): Promise<string> {
  const uploadId = newJobId('bundle');
  for (let offset = 0; offset < file.size || offset === 0; offset += PART_BYTES) {
    const part = new Uint8Array(await file.slice(offset, offset + PART_BYTES).arrayBuffer());
    await api.call('plugins.bundleUploadPart', { uploadId, offset, data: base64Of(part), name: file.name, size: file.size });
    if (file.size === 0) break;
  }
  return uploadId;
}

/** Uploads a picked or dropped `.mcpb` and asks the host for its preview (every check is the host's). */
export async function chooseBundle(file: File): Promise<ChosenBundle> {
  const uploadId = await uploadFile(file);
  return { uploadId, fileName: file.name, preview: await api.call('plugins.bundlePreview', { uploadId }) };
}

/** A bundle by the address the user pasted: the host fetches it (bounded, http(s) only) and shows its preview. */
export async function bundleFromUrl(url: string): Promise<ChosenBundle> {
  const uploadId = newJobId('bundle');
  return { uploadId, fileName: url, preview: await api.call('plugins.bundleFromUrl', { uploadId, url }) };
}

/** A catalog entry's bundle: the host fetches it from the address the registry names, refused unless it has the entry's SHA-256. */
export async function bundleFromCatalog(entry: CatalogBundleRequest): Promise<ChosenBundle> {
  const uploadId = newJobId('bundle');
  return { uploadId, fileName: entry.name, preview: await api.call('plugins.bundleFromCatalog', { uploadId, entry }) };
}

/** The settings to send: an empty field is not given, so the host keeps what an earlier install had, else the default. */
export const givenConfig = (values: BundleConfigValues): BundleConfigValues => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));

/** The drop zone (also a file picker) for an MCP Bundle or a plugin's .zip. */
export function BundleDrop({ onFile }: { onFile: (file: File) => void }) {
  const { t } = useTranslation();
  return (
    <Upload.Dragger
      accept=".mcpb,.dxt,.zip"
      multiple={false}
      showUploadList={false}
      beforeUpload={(file) => {
        onFile(file);
        return false;
      }}
      data-testid="install-bundle-drop"
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{t('apps.bundle.drop')}</p>
    </Upload.Dragger>
  );
}

function signatureText(t: (key: string, values?: Record<string, string>) => string, preview: BundlePreview): string {
  const s = preview.signature;
  if (s.status === 'unsigned') return t('apps.bundle.unsigned');
  // For a status other than "signed" the names are only what the certificate's maker wrote: the fingerprint says which certificate it is.
  return t(`apps.bundle.${s.status}`, { publisher: s.publisher, issuer: s.issuer, until: s.validTo.slice(0, 10), fingerprint: s.fingerprint.slice(0, 23) });
}

/**
 * The installed copy's stored secrets this update gets only when the box is ticked (the host's secretsKeptIfAsked in
 * src/shared/bundles.ts, written again here: a value import of src/shared would bring zod into the page).
 */
const secretsKeptIfAsked = ({ signerChanged, unsignedUpdate }: BundlePreview): string[] => [
  ...(signerChanged?.storedSecrets ?? []),
  ...(unsignedUpdate?.sameBundle ? unsignedUpdate.storedSecrets : []),
];

/**
 * The installed copy had another signer, or both are unsigned: said plainly, and its stored secrets go to this one only
 * when the box is ticked; an unsigned bundle of another name or author gets none, so no box (the host carries none over
 * otherwise, docs/using/bundles.md#updates).
 */
function KeptSecretsWarning({ preview, keepSecrets, onKeepSecrets }: { preview: BundlePreview; keepSecrets: boolean; onKeepSecrets: (keep: boolean) => void }) {
  const { t } = useTranslation();
  const { signerChanged, unsignedUpdate } = preview;
  if (!signerChanged && !unsignedUpdate) return null;
  const stored = (signerChanged ?? unsignedUpdate)!.storedSecrets;
  const secrets = stored.join(', ');
  const message = signerChanged
    ? stored.length
      ? t('apps.bundle.signerChanged', { secrets })
      : t('apps.bundle.signerChangedNoSecrets')
    : t(`apps.bundle.${unsignedUpdate!.sameBundle ? 'unsignedSame' : 'unsignedOther'}${stored.length ? '' : 'NoSecrets'}`, { secrets });
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 8 }}
      data-testid={signerChanged ? 'bundle-signer-changed' : 'bundle-unsigned-update'}
      message={message}
      description={
        secretsKeptIfAsked(preview).length ? (
          <Checkbox checked={keepSecrets} onChange={(event) => onKeepSecrets(event.target.checked)} data-testid="bundle-keep-secrets">
            {t('apps.bundle.keepSecrets')}
          </Checkbox>
        ) : undefined
      }
    />
  );
}

/** Who made and signed the bundle, the exact command, its tools, and a field for each setting (a sensitive one hidden as typed). */
export function BundlePreviewPanel({
  chosen,
  values,
  onChange,
  keepSecrets,
  onKeepSecrets,
}: {
  chosen: ChosenBundle;
  values: BundleConfigValues;
  onChange: (values: BundleConfigValues) => void;
  keepSecrets: boolean;
  onKeepSecrets: (keep: boolean) => void;
}) {
  const { t } = useTranslation();
  const { preview } = chosen;
  const signed = preview.signature.status === 'signed';
  return (
    <div data-testid="bundle-preview">
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'name', label: t('apps.bundle.name'), children: <span data-testid="bundle-name">{`${preview.name} ${preview.version}`}</span> },
          { key: 'author', label: t('apps.bundle.author'), children: <span data-testid="bundle-author">{preview.author.name}</span> },
          {
            key: 'signature',
            label: t('apps.bundle.signature'),
            children: (
              <Tag color={signed ? 'green' : 'orange'} data-testid="bundle-signature">
                {signatureText(t, preview)}
              </Tag>
            ),
          },
          {
            key: 'command',
            label: t('apps.bundle.command'),
            children: (
              <Typography.Text code data-testid="bundle-command">
                {preview.command.join(' ')}
              </Typography.Text>
            ),
          },
          { key: 'tools', label: t('apps.bundle.tools'), children: <span data-testid="bundle-tools">{preview.tools.map((tool) => tool.name).join(', ') || '—'}</span> },
        ]}
      />
      {preview.installed ? <Alert type="info" showIcon message={t('apps.bundle.installed', { id: preview.pluginId })} style={{ marginBottom: 8 }} /> : null}
      <KeptSecretsWarning preview={preview} keepSecrets={keepSecrets} onKeepSecrets={onKeepSecrets} />
      {preview.userConfig.map((field) => {
        const value = values[field.key];
        const text = Array.isArray(value) ? value.join(',') : (value ?? '');
        const carried = field.kept === true || (keepSecrets && secretsKeptIfAsked(preview).includes(field.key));
        const placeholder = field.sensitive ? (carried ? t('apps.bundle.kept') : '') : String(field.previous ?? field.default ?? '');
        const props = {
          value: text,
          placeholder,
          onChange: (event: { target: { value: string } }) => onChange({ ...values, [field.key]: event.target.value }),
          'data-testid': `bundle-config-${field.key}`,
        };
        return (
          <div key={field.key} style={{ marginBottom: 8 }}>
            <Typography.Text strong>
              {field.title}
              {field.required ? ' *' : ''}
            </Typography.Text>
            {field.sensitive ? <Typography.Text type="secondary">{` — ${t('apps.bundle.sensitive')}`}</Typography.Text> : null}
            <div>
              <Typography.Text type="secondary">{field.description}</Typography.Text>
            </div>
            {field.sensitive ? <Input.Password {...props} autoComplete="off" /> : <Input {...props} />}
          </div>
        );
      })}
    </div>
  );
}
