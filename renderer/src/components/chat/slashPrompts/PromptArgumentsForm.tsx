import { Alert, AutoComplete, Form, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpPrompt } from '../../../../../src/shared/mcpPrompts';
import { api, errorLine } from '../../../api/client';
import { promptText } from './promptText';
import type { SlashScope } from './slashScope';

/** The host's bounds (src/shared/mcpPrompts.ts, which the renderer may import types from only): it checks them again. */
const MAX_COMPLETE_CHARS = 1_000;
const MAX_PROMPT_ARG_CHARS = 10_000;

/** How long typing must pause before the server is asked for suggestions. */
const COMPLETE_DELAY_MS = 250;

type Argument = McpPrompt['arguments'][number];

/**
 * One argument's box: what the user types, with the server's suggestions
 * (completion/complete) asked once typing pauses; only the answer to the
 * latest question is shown.
 */
function ArgumentInput({
  scope,
  prompt,
  argument,
  values,
  value,
  onChange,
}: {
  scope: SlashScope;
  prompt: McpPrompt;
  argument: Argument;
  values: Record<string, string>;
  value?: string;
  onChange?(value: string): void;
}) {
  const [options, setOptions] = useState<{ value: string }[]>([]);
  const asked = useRef(0);
  const typed = value ?? '';
  const context = JSON.stringify(values);
  useEffect(() => {
    const question = ++asked.current;
    const timer = setTimeout(() => {
      const others = Object.fromEntries(Object.entries(JSON.parse(context) as Record<string, string>).filter(([key, text]) => key !== argument.name && text));
      api.call('mcpPrompts.complete', { ...scope, serverId: prompt.serverId, name: prompt.name, argument: { name: argument.name, value: typed.slice(0, MAX_COMPLETE_CHARS) }, context: others }).then(
        (result) => question === asked.current && setOptions(result.values.map((suggestion) => ({ value: suggestion }))),
        () => question === asked.current && setOptions([]),
      );
    }, COMPLETE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [scope, prompt, argument.name, typed, context]);
  return (
    <AutoComplete
      value={typed}
      options={options}
      onChange={(next: string) => onChange?.(next)}
      maxLength={MAX_PROMPT_ARG_CHARS}
      data-testid={`slash-prompt-arg-${argument.name}`}
      popupClassName="slash-prompt-suggestions"
    />
  );
}

/**
 * The form a picked prompt opens: one box per argument (required ones
 * marked), suggestions as the user types; sending gets the prompt from its
 * server through the host and sends its messages as the user's message.
 */
export function PromptArgumentsForm({ scope, prompt, onClose, onSend }: { scope: SlashScope; prompt: McpPrompt; onClose(): void; onSend(text: string): Promise<boolean> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, string>>();
  const values = Form.useWatch([], form) ?? {};
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [notes, setNotes] = useState<string[]>([]);

  const submit = async () => {
    const filled = await form.validateFields();
    const args = Object.fromEntries(Object.entries(filled).filter(([, text]) => typeof text === 'string' && text !== ''));
    setBusy(true);
    setProblem(undefined);
    try {
      const { prompt: got } = await api.call('mcpPrompts.get', { ...scope, serverId: prompt.serverId, name: prompt.name, arguments: args });
      const { text, imagesLeftOut } = promptText(got, t('slashPrompts.assistant'));
      const said = [...got.notes, ...(imagesLeftOut ? [t('slashPrompts.imageLeftOut')] : [])];
      setNotes(said);
      if (!text.trim()) return;
      if (await onSend(text)) onClose();
    } catch (error) {
      setProblem(errorLine(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={`/${prompt.name} · ${prompt.serverName}`}
      okText={t('slashPrompts.send')}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'slash-prompt-send' }}
      destroyOnHidden
    >
      <div data-testid="slash-prompt-form">
        {prompt.description ? <Typography.Paragraph type="secondary">{prompt.description}</Typography.Paragraph> : null}
        <Form form={form} layout="vertical" requiredMark>
          {prompt.arguments.map((argument) => (
            <Form.Item
              key={argument.name}
              name={argument.name}
              label={argument.name}
              extra={argument.description}
              required={argument.required}
              rules={argument.required ? [{ required: true, whitespace: true, message: t('slashPrompts.requiredMissing', { name: argument.name }) }] : []}
            >
              <ArgumentInput scope={scope} prompt={prompt} argument={argument} values={values} />
            </Form.Item>
          ))}
        </Form>
        {problem ? <Alert type="error" showIcon message={problem} data-testid="slash-prompt-problem" /> : null}
        {notes.length ? <Alert type="info" showIcon message={notes.join('; ')} /> : null}
      </div>
    </Modal>
  );
}
