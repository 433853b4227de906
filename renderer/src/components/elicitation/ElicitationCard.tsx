import { CloseOutlined, ExportOutlined, QuestionCircleOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Progress, Space, Typography, theme } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ElicitationAction, ElicitationContent, ElicitationRequest } from '../../../../src/shared/elicitation';
import { ApiError, api, toApiError } from '../../api/client';
import { useCountdown } from '../confirmationCountdown';
import { ElicitationFieldInput } from './ElicitationFieldInput';
import { contentOf, initialValues, itemOfPath, type FormValues } from './elicitationValues';
import { forgetAnswer, keepAnswer, keptAnswer } from './keptAnswers';
import { UrlQuestion } from './UrlQuestion';
import '../../i18n/load/elicitation';

type FormRequest = Extract<ElicitationRequest, { mode: 'form' }>;

/**
 * A server's question to the user during one of its tool calls
 * (docs/using/elicitation.md): who asks, the server's own words, and a form
 * built from its fields or a url to open. The host cancels it when the
 * countdown ends and checks the answer again; the card only asks, the owner
 * removes it on `elicitation.resolved`.
 */
export function ElicitationCard({ request, onAnswered }: { request: ElicitationRequest; onAnswered?: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { seconds, percent } = useCountdown(request);
  const [form] = Form.useForm<FormValues>();
  const [sending, setSending] = useState<ElicitationAction | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const expired = seconds === 0;
  const fields = request.mode === 'form' ? request.fields : undefined;

  const respond = async (action: ElicitationAction, content?: ElicitationContent) => {
    setSending(action);
    setError(undefined);
    try {
      // `answered: false`: the question had already ended (expired, or the call that asked stopped); either way it is gone.
      await api.call('questions.respond', { id: request.id, answer: { kind: 'elicitation', action, ...(content ? { content } : {}) } });
      forgetAnswer(request.id);
      onAnswered?.();
    } catch (e) {
      const failure = toApiError(e);
      const placed = fields ? placeFieldErrors(fields, failure) : {};
      if (Object.keys(placed).length > 0) {
        form.setFields(Object.entries(placed).map(([name, message]) => ({ name, errors: [message] })));
        keepAnswer(request.id, { values: form.getFieldsValue(true), errors: placed });
      }
      // The rest (not about one field, or about a field not on the form) is said above the buttons.
      if (Object.keys(placed).length === 0 || (failure.fields ?? []).length > Object.keys(placed).length) setError(failure);
    } finally {
      setSending(undefined);
    }
  };

  const submit = async () => {
    if (!fields) return;
    try {
      await form.validateFields();
    } catch {
      return; // each field says what is wrong
    }
    await respond('accept', contentOf(fields, form.getFieldsValue(true)));
  };

  const busy = (action: ElicitationAction) => ({ disabled: expired || (sending !== undefined && sending !== action), loading: sending === action });

  return (
    <Card
      size="small"
      className="elicitation-card"
      data-testid="elicitation-card"
      data-id={request.id}
      data-mode={request.mode}
      style={{ borderColor: expired ? undefined : token.colorPrimary }}
      title={
        <Space>
          <QuestionCircleOutlined style={{ color: token.colorPrimary }} />
          <span data-testid="elicitation-title">{t('elicitation.asks', { server: request.serverName })}</span>
        </Space>
      }
      extra={
        <Typography.Text type={seconds <= 10 ? 'danger' : 'secondary'} data-testid="elicitation-countdown">
          {expired ? t('elicitation.expired') : t('elicitation.countdown', { time: clock(seconds) })}
        </Typography.Text>
      }
    >
      <Space orientation="vertical" size="small" style={{ width: '100%' }}>
        {/* The server's words, as text: never Markdown or HTML, set apart from the host's own. */}
        <blockquote className="elicitation-message" data-testid="elicitation-message">
          {request.message}
        </blockquote>
        {request.mode === 'form' ? <FormQuestion request={request} form={form} disabled={expired} /> : <UrlQuestion request={request} />}
        <Progress percent={percent} showInfo={false} size="small" status={seconds <= 10 ? 'exception' : 'active'} />
        {error && <Alert type="error" showIcon title={error.message} description={error.hint} data-testid="elicitation-error" />}
        <Space wrap>
          {request.mode === 'form' ? (
            <Button type="primary" icon={<SendOutlined />} {...busy('accept')} onClick={() => void submit()} data-testid="elicitation-submit">
              {t('elicitation.submit')}
            </Button>
          ) : (
            <Button
              type="primary"
              icon={<ExportOutlined />}
              {...busy('accept')}
              disabled={busy('accept').disabled || !isWebUrl(request.url)}
              onClick={() => {
                // Opened only now, on the user's click, in a tab that cannot reach back to this page. The desktop window
                // may open no window: its host opens the accepted url in the system browser instead.
                if (api.face === 'serve') window.open(request.url, '_blank', 'noopener,noreferrer');
                void respond('accept');
              }}
              data-testid="elicitation-open"
            >
              {t('elicitation.open', { domain: request.domain })}
            </Button>
          )}
          <Button danger icon={<CloseOutlined />} {...busy('decline')} onClick={() => void respond('decline')} data-testid="elicitation-decline">
            {t('elicitation.decline')}
          </Button>
          <Button {...busy('cancel')} onClick={() => void respond('cancel')} data-testid="elicitation-cancel">
            {t('elicitation.cancel')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}

/** Time left as minutes and seconds (9:05): a question may wait ten minutes, and 545 s reads badly. */
function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Only a web page opens from a question; the host refuses other urls already, and the card does not rely on it. */
function isWebUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'https:' || protocol === 'http:';
}

/** The host's field errors by form item (the field's own message and hint). */
function placeFieldErrors(fields: FormRequest['fields'], error: ApiError): Record<string, string> {
  const placed: Record<string, string> = {};
  for (const problem of error.fields ?? []) {
    const item = itemOfPath(fields, problem.path);
    if (item !== undefined) placed[item] = problem.hint ? `${problem.message} — ${problem.hint}` : problem.message;
  }
  return placed;
}

/** The form: each field prefilled with what the user typed before (the card mounted again), else the server's default. */
function FormQuestion({ request, form, disabled }: { request: FormRequest; form: ReturnType<typeof Form.useForm<FormValues>>[0]; disabled: boolean }) {
  const { i18n } = useTranslation();
  const kept = useMemo(() => keptAnswer(request.id), [request.id]);
  const initial = useMemo(() => kept?.values ?? initialValues(request.fields), [kept, request.fields]);
  useEffect(() => {
    if (kept?.errors) form.setFields(Object.entries(kept.errors).map(([name, message]) => ({ name, errors: [message] })));
  }, [form, kept]);
  // The card's own messages are in the language they were written in: checked again when it changes (the host's stay).
  useEffect(() => {
    const hostSaid = keptAnswer(request.id)?.errors ?? {};
    const shown = form.getFieldsError().filter((item) => item.errors.length > 0 && !Object.hasOwn(hostSaid, String(item.name[0])));
    if (shown.length > 0) form.validateFields(shown.map((item) => item.name)).catch(() => undefined);
  }, [form, i18n.language, request.id]);
  return (
    <Form
      form={form}
      layout="vertical"
      size="small"
      disabled={disabled}
      initialValues={initial}
      onValuesChange={(_changed, all: FormValues) => keepAnswer(request.id, { values: all })}
      className="elicitation-form"
      data-testid="elicitation-form"
    >
      {request.fields.map((field, index) => (
        <ElicitationFieldInput key={field.name} field={field} index={index} />
      ))}
    </Form>
  );
}
