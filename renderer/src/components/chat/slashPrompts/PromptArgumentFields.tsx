import { AutoComplete, Form, type FormInstance } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpPrompt } from '../../../../../src/shared/mcpPrompts';
import { api } from '../../../api/client';
import type { SlashScope } from './slashScope';
import '../../../i18n/load/slashPrompts';

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
 * A prompt's arguments as a form (the composer's slash command and the
 * Playground's prompts share it): one box per argument, required ones
 * marked, the server's suggestions as the user types.
 */
export function PromptArgumentFields({ scope, prompt, form }: { scope: SlashScope; prompt: McpPrompt; form: FormInstance<Record<string, string>> }) {
  const { t } = useTranslation();
  const values = Form.useWatch([], form) ?? {};
  return (
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
  );
}

/** The filled arguments as the host takes them: the boxes left empty are not sent. */
export async function filledArguments(form: FormInstance<Record<string, string>>): Promise<Record<string, string>> {
  const filled = await form.validateFields();
  return Object.fromEntries(Object.entries(filled).filter(([, text]) => typeof text === 'string' && text !== ''));
}
