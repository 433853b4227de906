import { Button, Form, Input, InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KnowledgeBase } from '../../../../src/shared/knowledge';
import { api, toApiError, type ApiError } from '../../api/client';
import { useApi } from '../../api/hooks';
import { ActionErrorAlert } from '../../shell/ActionErrorAlert';
import '../../i18n/load/knowledge';

interface Draft {
  name: string;
  description: string;
  embeddingModel: string;
  chunkSize: number;
  chunkOverlap: number;
  /** Where a new base lives: the embedded store, or a team's PostgreSQL (url, collection, password). */
  engine: 'embedded' | 'postgres';
  url?: string;
  collection?: string;
  password?: string;
}

/** The engine part of a create request: the password goes with it once, to the host's key store. */
const engineOf = (draft: Draft) =>
  draft.engine === 'postgres'
    ? { engine: { kind: 'postgres', url: draft.url ?? '', ...(draft.collection ? { collection: draft.collection } : {}), ...(draft.password ? { password: draft.password } : {}) } }
    : {};

/** The value the model select uses for "no model: search by words only". */
const NONE = '';

export interface KnowledgeBaseFormProps {
  /** The base to edit; undefined to create one. */
  base?: KnowledgeBase;
  onCancel(): void;
  onSaved(base: KnowledgeBase): void;
}

/** Creates or edits a knowledge base; a changed embedding model re-embeds its chunks when saved. */
export function KnowledgeBaseForm({ base, onCancel, onSaved }: KnowledgeBaseFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Draft>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<ApiError>();
  const models = useApi('models.list', {}, { refreshOn: ['models.changed'] });
  // Only entries with an OpenAI-compatible API offer /embeddings.
  // Only embedding entries: a chat model gives no vectors (the host refuses it too, saying why).
  const embeddingModels = (models.data?.models ?? []).filter((m) => m.kind === 'embedding' && m.api !== 'anthropic');

  const save = async (draft: Draft) => {
    setSaving(true);
    setError(undefined);
    const fields = { name: draft.name, description: draft.description ?? '', embeddingModel: draft.embeddingModel || null, chunkSize: draft.chunkSize, chunkOverlap: draft.chunkOverlap };
    try {
      const saved = base ? await api.call('knowledge.update', { id: base.id, patch: fields }) : await api.call('knowledge.create', { base: { ...fields, ...engineOf(draft) } });
      onSaved(saved.knowledgeBase);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<Draft>
      form={form}
      layout="vertical"
      initialValues={{
        name: base?.name ?? '',
        description: base?.description ?? '',
        embeddingModel: base?.embeddingModel ?? NONE,
        chunkSize: base?.chunkSize ?? 800,
        chunkOverlap: base?.chunkOverlap ?? 100,
        engine: 'embedded',
      }}
      onFinish={(draft) => void save(draft)}
      data-testid="kb-form"
    >
      <Form.Item name="name" label={t('knowledge.form.name')} rules={[{ required: true, whitespace: true, message: t('knowledge.form.required') }]}>
        <Input data-testid="kb-form-name" maxLength={200} />
      </Form.Item>
      <Form.Item name="description" label={t('knowledge.form.description')}>
        <Input.TextArea data-testid="kb-form-description" autoSize={{ minRows: 2, maxRows: 5 }} maxLength={4000} />
      </Form.Item>
      <Form.Item name="embeddingModel" label={t('knowledge.form.model')} extra={t('knowledge.form.modelHint')}>
        <Select
          data-testid="kb-form-model"
          loading={models.loading}
          options={[{ value: NONE, label: t('knowledge.lexicalOnly') }, ...embeddingModels.map((m) => ({ value: m.id, label: `${m.name} (${m.model})` }))]}
        />
      </Form.Item>
      {base ? null : (
        <Form.Item name="engine" label={t('knowledge.form.engine')} extra={t('knowledge.form.engineHint')}>
          <Select
            data-testid="kb-form-engine"
            options={[
              { value: 'embedded', label: t('knowledge.form.engineEmbedded') },
              { value: 'postgres', label: t('knowledge.form.enginePostgres') },
            ]}
          />
        </Form.Item>
      )}
      <Form.Item noStyle shouldUpdate={(before, after) => before.engine !== after.engine}>
        {({ getFieldValue }) =>
          !base && getFieldValue('engine') === 'postgres' ? (
            <>
              <Form.Item name="url" label={t('knowledge.form.url')} extra={t('knowledge.form.urlHint')} rules={[{ required: true, whitespace: true, message: t('knowledge.form.required') }]}>
                <Input data-testid="kb-form-url" placeholder="postgres://user@host:5432/database" />
              </Form.Item>
              <Form.Item name="collection" label={t('knowledge.form.collection')} extra={t('knowledge.form.collectionHint')}>
                <Input data-testid="kb-form-collection" maxLength={48} />
              </Form.Item>
              <Form.Item name="password" label={t('knowledge.form.password')}>
                <Input.Password data-testid="kb-form-password" autoComplete="new-password" />
              </Form.Item>
            </>
          ) : null
        }
      </Form.Item>
      <Space size="large" style={{ display: 'flex' }}>
        <Form.Item name="chunkSize" label={t('knowledge.form.chunkSize')}>
          <InputNumber min={100} max={20000} step={100} data-testid="kb-form-chunk-size" />
        </Form.Item>
        <Form.Item name="chunkOverlap" label={t('knowledge.form.chunkOverlap')}>
          <InputNumber min={0} max={5000} step={10} data-testid="kb-form-chunk-overlap" />
        </Form.Item>
      </Space>
      {error ? <ActionErrorAlert error={error} testId="kb-form-error" /> : null}
      <Space style={{ display: 'flex', marginTop: 8 }}>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="kb-form-save">
          {base ? t('knowledge.form.save') : t('knowledge.form.create')}
        </Button>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
      </Space>
    </Form>
  );
}
