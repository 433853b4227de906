import { Button, Col, Collapse, Form, Input, InputNumber, Radio, Row, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelPreset } from '../../../../src/shared/modelPresets';
import type { ModelView } from '../../../../src/shared/models';
import { api, toApiError, type ApiError } from '../../api/client';
import { draftFromModel, draftFromPreset, EMPTY_DRAFT, formFieldOfModelPath, saveParams, type ModelDraft } from './modelDraft';
import { ModelNamePicker, type CatalogSource } from './ModelNamePicker';
import { ActionErrorAlert } from '../../shell/ActionErrorAlert';
import '../../i18n/load/models';

export interface ModelEditorProps {
  /** The entry to edit; undefined to add one. */
  model?: ModelView;
  presets: readonly ModelPreset[];
  onCancel(): void;
  onSaved(model: ModelView): void;
}

const API_KINDS = ['openai', 'openai-responses', 'anthropic'] as const;
const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

/**
 * Adds or edits a model entry. A key is typed into a password field and
 * sent once, with the save; it is never read back, so editing an entry
 * with a stored key shows only that one is there.
 */
export function ModelEditor({ model, presets, onCancel, onSaved }: ModelEditorProps) {
  const { t } = useTranslation();
  const creating = !model;
  const [form] = Form.useForm<ModelDraft>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<ApiError>();
  const keyKind = Form.useWatch('keyKind', form) ?? model?.key.kind ?? 'none';
  const kind = Form.useWatch('kind', form) ?? model?.kind ?? 'chat';
  const reasoning = Form.useWatch('reasoning', form) ?? model?.reasoning === true;
  const storedKeySet = model?.key.kind === 'stored' && model.keyState.set;

  /** The saved entry asks with its own key while the address is unchanged and no new key is typed; otherwise the form's address and key. */
  const catalogSource = (): CatalogSource | undefined => {
    const draft = form.getFieldsValue(true) as ModelDraft;
    const baseUrl = draft.baseUrl?.trim();
    if (!baseUrl) return undefined;
    const typedKey = draft.keyKind === 'stored' ? draft.apiKey?.trim() : undefined;
    if (model && draft.api === model.api && baseUrl === model.baseUrl && !typedKey) return { id: model.id };
    return { api: draft.api, baseUrl, ...(typedKey ? { apiKey: typedKey } : {}) };
  };

  /** A new entry's kind and reasoning switch follow the model name typed, until the user sets them (docs/using/models.md#kinds). */
  const [guessed, setGuessed] = useState(false);
  const guessFromName = (changed: Partial<ModelDraft>) => {
    if (!creating || changed.model === undefined) return;
    const draft = form.getFieldsValue(true) as ModelDraft;
    const name = changed.model.trim();
    if (!name) return setGuessed(false);
    void api
      .call('models.guess', { api: draft.api, model: name })
      .then((guess) => {
        // The name may have changed meanwhile: only the latest one's guess is shown.
        if ((form.getFieldValue('model') as string | undefined)?.trim() !== name) return;
        if (!form.isFieldTouched('kind')) form.setFieldValue('kind', guess.kind);
        if (!form.isFieldTouched('reasoning')) form.setFieldValue('reasoning', guess.reasoning);
        setGuessed(!form.isFieldTouched('kind'));
      })
      .catch(() => setGuessed(false));
  };

  const applyPreset = (id: string) => {
    const preset = presets.find((p) => p.id === id);
    if (preset) form.setFieldsValue(draftFromPreset(preset, form.getFieldsValue(true) as ModelDraft));
  };

  const save = async (draft: ModelDraft) => {
    setSaving(true);
    setError(undefined);
    form.setFields((Object.keys(form.getFieldsValue(true)) as (keyof ModelDraft)[]).map((name) => ({ name, errors: [] })));
    try {
      const params = saveParams(draft, creating);
      const saved = await api.call('models.save', { ...(model ? { id: model.id } : {}), ...params });
      onSaved(saved.model);
    } catch (caught) {
      const apiError = toApiError(caught);
      const placed = (apiError.fields ?? []).flatMap((f) => {
        const name = formFieldOfModelPath(f.path);
        return name ? [{ name, errors: [f.message] }] : [];
      });
      form.setFields(placed);
      if (placed.length < (apiError.fields?.length ?? 0) || !apiError.fields?.length) setError(apiError);
    } finally {
      setSaving(false);
    }
  };

  const required = [{ required: true, message: t('models.editor.required') }];
  return (
    <Form<ModelDraft>
      form={form}
      layout="vertical"
      initialValues={model ? draftFromModel(model) : EMPTY_DRAFT}
      onFinish={(draft) => void save(draft)}
      onValuesChange={guessFromName}
      data-testid="model-form"
      requiredMark={false}
    >
      {creating ? (
        <Form.Item name="preset" label={t('models.editor.preset')} extra={t('models.editor.presetHint')}>
          <Select data-testid="model-preset" onChange={applyPreset} options={presets.map((p) => ({ value: p.id, label: p.name }))} />
        </Form.Item>
      ) : null}
      <Row gutter={16}>
        <Col xs={24} md={14}>
          <Form.Item name="name" label={t('models.editor.name')} rules={required}>
            <Input data-testid="model-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={10}>
          <Form.Item name="id" label={t('models.editor.id')} extra={creating ? t('models.editor.idHint') : undefined}>
            <Input disabled={!creating} data-testid="model-id" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="api" label={t('models.editor.api')} rules={required}>
        <Radio.Group optionType="button" data-testid="model-api" options={API_KINDS.map((kind) => ({ value: kind, label: t(`models.api.${kind}`) }))} />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={14}>
          <Form.Item name="baseUrl" label={t('models.editor.baseUrl')} rules={required}>
            <Input placeholder="https://api.openai.com/v1" data-testid="model-base-url" />
          </Form.Item>
        </Col>
        <Col xs={24} md={10}>
          <Form.Item name="model" label={t('models.editor.model')} rules={required}>
            <ModelNamePicker source={catalogSource} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="keyKind" label={t('models.editor.key')}>
        <Radio.Group data-testid="model-key-kind">
          <Radio value="none">{t('models.editor.keyNone')}</Radio>
          <Radio value="env">{t('models.editor.keyEnv')}</Radio>
          <Radio value="stored">{t('models.editor.keyStored')}</Radio>
        </Radio.Group>
      </Form.Item>
      {keyKind === 'env' ? (
        <Form.Item name="keyEnv" label={t('models.editor.keyEnvName')} rules={required}>
          <Input placeholder="OPENAI_API_KEY" data-testid="model-key-env" />
        </Form.Item>
      ) : null}
      {keyKind === 'stored' ? (
        <Form.Item name="apiKey" label={t('models.editor.apiKey')} extra={storedKeySet ? t('models.editor.apiKeyKeep') : t('models.editor.apiKeyExplain')} rules={storedKeySet ? [] : required}>
          <Input.Password visibilityToggle={false} autoComplete="off" placeholder={storedKeySet ? '••••••••' : t('models.editor.apiKeyPlaceholder')} data-testid="model-api-key" />
        </Form.Item>
      ) : null}
      <Form.Item name="kind" label={t('models.editor.kind')} extra={guessed ? <span data-testid="model-kind-guessed">{t('models.editor.kindGuessed')}</span> : undefined}>
        <Radio.Group
          optionType="button"
          data-testid="model-kind"
          options={[
            { value: 'chat', label: t('models.editor.kindChat') },
            { value: 'embedding', label: t('models.editor.kindEmbedding') },
          ]}
        />
      </Form.Item>
      {kind === 'chat' ? (
        <Row gutter={16}>
          <Col xs={12} md={6}>
            <Form.Item name="vision" label={t('models.editor.vision')} valuePropName="checked">
              <Switch data-testid="model-vision" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="tools" label={t('models.editor.tools')} valuePropName="checked">
              <Switch data-testid="model-tools" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="reasoning" label={t('models.editor.reasoning')} valuePropName="checked" tooltip={t('models.editor.reasoningHint')}>
              <Switch data-testid="model-reasoning" />
            </Form.Item>
          </Col>
          {reasoning ? (
            <Col xs={12} md={6}>
              <Form.Item name="reasoningEffort" label={t('models.editor.reasoningEffort')}>
                <Select data-testid="model-reasoning-effort" options={[{ value: '', label: t('models.editor.reasoningEffortDefault') }, ...EFFORTS.map((e) => ({ value: e, label: e }))]} />
              </Form.Item>
            </Col>
          ) : null}
        </Row>
      ) : null}
      <Collapse
        ghost
        style={{ marginBottom: 16 }}
        items={[
          {
            key: 'advanced',
            label: t('models.editor.advanced'),
            forceRender: true,
            children: (
              <Row gutter={16}>
                {(
                  [
                    ['temperature', 0, 2, 0.1],
                    ['maxTokens', 1, undefined, 1],
                    ['contextWindow', 1, undefined, 1],
                    ['maxTools', 0, undefined, 1],
                    ['priceInput', 0, undefined, 0.01],
                    ['priceOutput', 0, undefined, 0.01],
                  ] as const
                ).map(([field, min, max, step]) => (
                  <Col xs={24} md={12} key={field}>
                    <Form.Item name={field} label={t(`models.editor.${field}`)}>
                      <InputNumber min={min} max={max} step={step} style={{ width: '100%' }} data-testid={`model-${field}`} />
                    </Form.Item>
                  </Col>
                ))}
              </Row>
            ),
          },
        ]}
      />
      {error ? <ActionErrorAlert error={error} testId="model-save-error" style={{ marginBottom: 16 }} /> : null}
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="model-save">
          {t('models.editor.save')}
        </Button>
        <Button onClick={onCancel}>{t('models.editor.cancel')}</Button>
        {model ? <Typography.Text type="secondary">{model.id}</Typography.Text> : null}
      </Space>
    </Form>
  );
}
