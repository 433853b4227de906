import { Alert, Button, Empty, Form, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GotPrompt, McpPrompt } from '../../../../src/shared/mcpPrompts';
import { api, errorLine } from '../../api/client';
import { filledArguments, PromptArgumentFields } from '../chat/slashPrompts/PromptArgumentFields';
import type { SlashScope } from '../chat/slashPrompts/slashScope';
import '../../i18n/load/playground';

/** The image types shown inline (those a model is sent); another type is named, not drawn. */
const SHOWN_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const keyOf = (prompt: McpPrompt) => `${prompt.serverId}\n${prompt.name}`;

/** A got prompt's messages as the host would send them: each with its role, its text, its images drawn and its resources named. */
function PromptMessages({ got }: { got: GotPrompt }) {
  const { t } = useTranslation();
  if (!got.messages.length) return <Empty description={t('playground.prompts.noMessages')} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="playground-prompt-messages">
      {got.messages.map((message, i) => (
        <div key={i} className="playground-prompt-message" data-testid="playground-prompt-message" data-role={message.role}>
          <Tag color={message.role === 'user' ? 'blue' : 'green'}>{t(`playground.prompts.role.${message.role}`)}</Tag>
          {message.content.map((piece, j) =>
            piece.type === 'text' ? (
              <div key={j}>
                {piece.resource ? (
                  <Tag data-testid="playground-prompt-resource" data-uri={piece.resource}>
                    {t('playground.prompts.resource', { uri: piece.resource })}
                  </Tag>
                ) : null}
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 4 }} ellipsis={{ rows: 12, expandable: true }}>
                  {piece.text}
                </Typography.Paragraph>
              </div>
            ) : SHOWN_IMAGES.has(piece.mimeType) ? (
              <img key={j} className="playground-prompt-image" data-testid="playground-prompt-image" alt={piece.mimeType} src={`data:${piece.mimeType};base64,${piece.data}`} />
            ) : (
              <Tag key={j}>{t('playground.prompts.imageNotShown', { type: piece.mimeType })}</Tag>
            ),
          )}
        </div>
      ))}
    </Space>
  );
}

/**
 * The prompt picked in the Playground: its arguments (required marked, the
 * server's suggestions as in the composer), Get through the host as this
 * agent in this conversation, and what it returns. Its own chunk (antd's
 * Form): the page shows it once a prompt is picked.
 */
export default function PlaygroundPrompt({ scope, prompt }: { scope: SlashScope; prompt: McpPrompt }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, string>>();
  const [busy, setBusy] = useState(false);
  const [got, setGot] = useState<GotPrompt | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const get = async () => {
    const args = await filledArguments(form);
    setBusy(true);
    setProblem(undefined);
    setGot(undefined);
    try {
      setGot((await api.call('mcpPrompts.get', { ...scope, serverId: prompt.serverId, name: prompt.name, arguments: args })).prompt);
    } catch (error) {
      setProblem(errorLine(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <div data-testid="playground-prompt" data-name={prompt.name}>
        {prompt.description ? <Typography.Paragraph type="secondary">{prompt.description}</Typography.Paragraph> : null}
        <PromptArgumentFields scope={scope} prompt={prompt} form={form} />
        <Button type="primary" loading={busy} onClick={() => void get()} data-testid="playground-prompt-get">
          {t('playground.prompts.get')}
        </Button>
      </div>
      {problem ? <Alert type="error" showIcon title={problem} data-testid="playground-prompt-problem" /> : null}
      {got ? (
        <>
          {got.description ? <Typography.Text type="secondary">{got.description}</Typography.Text> : null}
          <PromptMessages got={got} />
          {got.notes.length ? <Alert type="info" showIcon title={got.notes.join('; ')} data-testid="playground-prompt-notes" /> : null}
        </>
      ) : null}
    </Space>
  );
}
