import { Button, Col, Form, Input, Row, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HostPromptView } from '../../../../src/shared/hostPrompts';
import { api, toApiError, type ApiError } from '../../api/client';
import { ActionErrorAlert } from '../../shell/ActionErrorAlert';
import '../../i18n/load/prompts';

interface PromptDraft {
  name: string;
  title?: string;
  zh?: string;
  en?: string;
}

const FIELDS = ['name', 'title', 'zh', 'en'] as const;

/** Adds or edits one of the host's prompts: a name, a title, its Chinese and English texts (either may be empty, not both). */
export function PromptEditor({ prompt, onCancel, onSaved }: { prompt?: HostPromptView; onCancel(): void; onSaved(prompt: HostPromptView): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PromptDraft>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<ApiError>();

  const save = async (draft: PromptDraft) => {
    setSaving(true);
    setError(undefined);
    form.setFields(FIELDS.map((name) => ({ name, errors: [] })));
    try {
      const body = {
        name: draft.name.trim(),
        ...(draft.title?.trim() ? { title: draft.title.trim() } : {}),
        ...(draft.zh?.trim() ? { zh: draft.zh } : {}),
        ...(draft.en?.trim() ? { en: draft.en } : {}),
      };
      onSaved((await api.call('prompts.save', { create: !prompt, prompt: body })).prompt);
    } catch (caught) {
      const apiError = toApiError(caught);
      const placed = (apiError.fields ?? []).filter((f) => (FIELDS as readonly string[]).includes(f.path)).map((f) => ({ name: f.path as (typeof FIELDS)[number], errors: [f.message] }));
      form.setFields(placed);
      if (!placed.length) setError(apiError);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<PromptDraft>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={prompt ? { name: prompt.name, title: prompt.title ?? '', zh: prompt.zh ?? '', en: prompt.en ?? '' } : { name: '' }}
      onFinish={(draft) => void save(draft)}
      data-testid="prompt-form"
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={t('prompts.editor.name')} extra={prompt ? undefined : t('prompts.editor.nameHint')} rules={[{ required: true, message: t('prompts.editor.required') }]}>
            <Input disabled={!!prompt} data-testid="prompt-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="title" label={t('prompts.editor.title')}>
            <Input data-testid="prompt-title" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="zh" label={t('prompts.editor.zh')}>
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} data-testid="prompt-zh" />
      </Form.Item>
      <Form.Item name="en" label={t('prompts.editor.en')} extra={t('prompts.editor.langHint')}>
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} data-testid="prompt-en" />
      </Form.Item>
      {error ? <ActionErrorAlert error={error} testId="prompt-save-error" style={{ marginBottom: 16 }} /> : null}
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="prompt-save">
          {t('prompts.editor.save')}
        </Button>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
      </Space>
    </Form>
  );
}
