import { Alert, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpPrompt } from '../../../../../src/shared/mcpPrompts';
import { api, errorLine } from '../../../api/client';
import { filledArguments, PromptArgumentFields } from './PromptArgumentFields';
import type { SlashScope } from './slashScope';
import '../../../i18n/load/slashPrompts';

/**
 * The form a picked prompt opens: its arguments; sending has the host get
 * the prompt from its server and send it into the conversation
 * (docs/using/slash-commands.md#what-is-sent): its user messages as the
 * user's, images attached, its assistant turns as the prompt's. `ready`:
 * the conversation can take a message now; `onSent`: it did.
 */
export function PromptArgumentsForm({
  scope,
  prompt,
  ready,
  onClose,
  onSent,
}: {
  scope: SlashScope;
  prompt: McpPrompt;
  ready: boolean;
  onClose(): void;
  /** With the conversation it went to (a new one when the scope names none). */
  onSent(conversationId: string): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, string>>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const submit = async () => {
    const args = await filledArguments(form);
    if (!ready) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const started = await api.call('chat.sendPrompt', { ...scope, serverId: prompt.serverId, name: prompt.name, arguments: args });
      onSent(started.conversationId);
      onClose();
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
      okButtonProps={{ 'data-testid': 'slash-prompt-send', disabled: !ready }}
      destroyOnHidden
    >
      <div data-testid="slash-prompt-form">
        {prompt.description ? <Typography.Paragraph type="secondary">{prompt.description}</Typography.Paragraph> : null}
        <PromptArgumentFields scope={scope} prompt={prompt} form={form} />
        {problem ? <Alert type="error" showIcon message={problem} data-testid="slash-prompt-problem" /> : null}
      </div>
    </Modal>
  );
}
