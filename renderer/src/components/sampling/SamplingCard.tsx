import { CheckOutlined, CloseOutlined, RobotOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, Input, InputNumber, Progress, Space, Spin, Tag, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SamplingAnswer, SamplingEdits, SamplingMessage, SamplingPart, SamplingRequest } from '../../../../src/shared/sampling';
import { ApiError, api, toApiError } from '../../api/client';
import { useCountdown } from '../confirmationCountdown';
import '../../i18n/load/sampling';

/**
 * A server's request to sample the user's model (docs/using/sampling.md),
 * in its three steps: under review (the system prompt and each message's
 * text editable, fewer tokens, approve once or always, decline), while the
 * model answers (decline stops it), and the completion shown before the
 * server gets it (send or decline). The host checks the edits again and
 * declines when the countdown ends; the owner removes the card on
 * `sampling.resolved`.
 */
export function SamplingCard({ request, onAnswered }: { request: SamplingRequest; onAnswered?: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [sending, setSending] = useState<SamplingAnswer['action'] | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const [systemPrompt, setSystemPrompt] = useState(request.systemPrompt);
  const [messages, setMessages] = useState(request.messages);
  const [maxTokens, setMaxTokens] = useState(request.maxTokens);
  const [always, setAlways] = useState(false);

  const respond = async (answer: SamplingAnswer) => {
    setSending(answer.action);
    setError(undefined);
    try {
      // `answered: false`: the request had already ended (expired, or the call that asked stopped); either way it is gone.
      const { answered } = await api.call('questions.respond', { id: request.id, answer: { kind: 'sampling', answer } });
      if (!answered || answer.action !== 'approve') onAnswered?.();
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setSending(undefined);
    }
  };

  const approve = () => {
    const edits: SamplingEdits = {
      ...(systemPrompt !== request.systemPrompt ? { systemPrompt } : {}),
      ...(JSON.stringify(messages) !== JSON.stringify(request.messages) ? { messages } : {}),
      ...(maxTokens !== request.maxTokens ? { maxTokens } : {}),
    };
    void respond({ action: 'approve', ...(Object.keys(edits).length ? { edits } : {}), ...(always ? { always: true } : {}) });
  };

  const editText = (m: number, p: number, text: string) =>
    setMessages((list) => list.map((message, i) => (i !== m ? message : { ...message, content: message.content.map((part, j) => (j === p && part.type === 'text' ? { ...part, text } : part)) })));

  const busy = (action: SamplingAnswer['action']) => ({ disabled: sending !== undefined && sending !== action, loading: sending === action });
  const review = request.stage === 'review';

  return (
    <Card
      size="small"
      className="sampling-card"
      data-testid="sampling-card"
      data-id={request.id}
      data-stage={request.stage}
      style={{ borderColor: token.colorPrimary }}
      title={
        <Space>
          <RobotOutlined style={{ color: token.colorPrimary }} />
          <span data-testid="sampling-title">{t('sampling.asks', { server: request.serverName, model: request.modelId })}</span>
        </Space>
      }
      extra={request.stage !== 'running' && <Countdown request={request} />}
    >
      <Space orientation="vertical" size="small" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t(`sampling.stage.${request.stage}`)}</Typography.Text>
        <div>
          <Typography.Text strong>{t('sampling.systemPrompt')}</Typography.Text>
          <Input.TextArea value={systemPrompt} readOnly={!review} autoSize={{ minRows: 1, maxRows: 6 }} onChange={(e) => setSystemPrompt(e.target.value)} data-testid="sampling-system" />
        </div>
        {messages.map((message, m) => (
          <div key={m} data-testid="sampling-message" data-role={message.role}>
            <Tag>{t(`sampling.role.${message.role}`)}</Tag>
            {message.content.map((part, p) =>
              part.type === 'text' ? (
                <Input.TextArea key={p} value={part.text} readOnly={!review} autoSize={{ minRows: 1, maxRows: 10 }} onChange={(e) => editText(m, p, e.target.value)} data-testid="sampling-text" />
              ) : (
                <PartView key={p} part={part} />
              ),
            )}
          </div>
        ))}
        {request.tools.length > 0 && (
          <Typography.Text type="secondary" data-testid="sampling-tools">
            {t('sampling.tools', { names: request.tools.map((tool) => tool.name).join(', ') })}
          </Typography.Text>
        )}
        {review && (
          <Space wrap>
            <span>{t('sampling.maxTokens')}</span>
            <InputNumber min={1} max={request.maxTokens} value={maxTokens} onChange={(value) => setMaxTokens(value ?? request.maxTokens)} data-testid="sampling-max-tokens" />
            <Checkbox checked={always} onChange={(e) => setAlways(e.target.checked)} data-testid="sampling-always">
              {t('sampling.always', { server: request.serverName })}
            </Checkbox>
          </Space>
        )}
        {request.stage === 'running' && <Spin data-testid="sampling-running" />}
        {request.completion && <Completion completion={request.completion} />}
        {error && <Alert type="error" showIcon title={error.message} description={error.hint} data-testid="sampling-error" />}
        <Space wrap>
          {review && (
            <Button type="primary" icon={<CheckOutlined />} {...busy('approve')} onClick={approve} data-testid="sampling-approve">
              {t('sampling.approve')}
            </Button>
          )}
          {request.stage === 'completion' && (
            <Button type="primary" icon={<SendOutlined />} {...busy('send')} onClick={() => void respond({ action: 'send' })} data-testid="sampling-send">
              {t('sampling.send')}
            </Button>
          )}
          <Button danger icon={<CloseOutlined />} {...busy('decline')} onClick={() => void respond({ action: 'decline' })} data-testid="sampling-decline">
            {t('sampling.decline')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}

/** Time left for this step; a new step (the completion) starts its own clock, so the card is keyed by its stage. */
function Countdown({ request }: { request: SamplingRequest }) {
  const { t } = useTranslation();
  const { seconds, percent } = useCountdown(request);
  return (
    <Space>
      <Typography.Text type={seconds <= 10 ? 'danger' : 'secondary'} data-testid="sampling-countdown">
        {t('sampling.countdown', { time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}` })}
      </Typography.Text>
      <Progress type="circle" size={16} percent={percent} showInfo={false} />
    </Space>
  );
}

/** An image, a tool use or a tool result: shown as they are, not editable. */
function PartView({ part }: { part: Exclude<SamplingPart, { type: 'text' }> }) {
  if (part.type === 'image') return <img src={`data:${part.mimeType};base64,${part.data}`} alt="" style={{ maxWidth: 240, display: 'block' }} data-testid="sampling-image" />;
  const text = part.type === 'tool_use' ? `${part.name} ${JSON.stringify(part.input)}` : part.text;
  return (
    <Typography.Paragraph code style={{ whiteSpace: 'pre-wrap', margin: 0 }} data-testid={`sampling-${part.type}`}>
      {text}
    </Typography.Paragraph>
  );
}

function Completion({ completion }: { completion: NonNullable<SamplingRequest['completion']> }) {
  const { t } = useTranslation();
  const answer: SamplingMessage = { role: 'assistant', content: completion.content };
  return (
    <div data-testid="sampling-completion">
      <Typography.Text strong>{t('sampling.completion', { model: completion.model })}</Typography.Text>
      {answer.content.map((part, i) =>
        part.type === 'text' ? (
          <Typography.Paragraph key={i} style={{ whiteSpace: 'pre-wrap', margin: 0 }} data-testid="sampling-completion-text">
            {part.text}
          </Typography.Paragraph>
        ) : (
          <PartView key={i} part={part} />
        ),
      )}
      {completion.usage && <Typography.Text type="secondary">{t('sampling.usage', { input: completion.usage.inputTokens, output: completion.usage.outputTokens })}</Typography.Text>}
    </div>
  );
}
