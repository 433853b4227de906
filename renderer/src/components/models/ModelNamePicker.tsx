import { CloudDownloadOutlined } from '@ant-design/icons';
import { AutoComplete, Button, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKind } from '../../../../src/shared/models';
import { api, errorLine } from '../../api/client';
import '../../i18n/load/models';

/** Where to ask for the list: a saved entry (with its own key), or the address in the form (with the key typed, if any). */
export type CatalogSource = { id: string } | { api: ApiKind; baseUrl: string; apiKey?: string };

/**
 * The model name: typed, or picked from the names the provider offers
 * (its /v1/models, Anthropic's models list, Ollama's tags), fetched when
 * asked for. A list that cannot be had leaves typing as it was.
 */
export function ModelNamePicker({
  id,
  value,
  onChange,
  source,
}: {
  /** From the Form.Item: the input's id, which the "Model name" label points to (clicking it focuses the box, a screen reader names it). */
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  source(): CatalogSource | undefined;
}) {
  const { t } = useTranslation();
  const [names, setNames] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string }>();
  const load = async () => {
    const from = source();
    if (!from) return;
    setLoading(true);
    setNote(undefined);
    try {
      const catalog = await api.call('models.available', from);
      setNames(catalog.names);
      setNote({ ok: true, text: t('models.editor.modelListCount', { count: catalog.names.length }) });
    } catch (error) {
      setNote({ ok: false, text: t('models.editor.modelListFailed', { error: errorLine(error) }) });
    } finally {
      setLoading(false);
    }
  };
  const typed = (value ?? '').toLowerCase();
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={4}>
      <Space.Compact style={{ width: '100%' }}>
        <AutoComplete
          id={id}
          value={value ?? ''}
          onChange={(text: string) => onChange?.(text)}
          options={names.filter((name) => !typed || name.toLowerCase().includes(typed)).map((name) => ({ value: name }))}
          style={{ width: '100%' }}
        >
          <Input data-testid="model-model" />
        </AutoComplete>
        <Button
          icon={<CloudDownloadOutlined />}
          loading={loading}
          onClick={() => void load()}
          aria-label={t('models.editor.modelList')}
          title={t('models.editor.modelList')}
          data-testid="model-list-fetch"
        />
      </Space.Compact>
      {note ? (
        <Typography.Text type={note.ok ? 'secondary' : 'warning'} style={{ fontSize: 12 }} data-testid="model-list-note">
          {note.text}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
