import { CheckOutlined, CloseOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Progress, Space, Tag, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovalScope, ToolConfirmationRequest } from '../../../src/shared/confirmation';
import { ApiError, api } from '../api/client';
import { ArgsList } from './chat/ArgsList';
import { ConfirmationSummary } from './ConfirmationSummary';
import { RISK_COLOR, useCountdown } from './confirmationCountdown';
import '../i18n/load/confirmation';

/**
 * A pending "may this tool run?" question (docs/rules/confirmation.md#confirmation), shown inline where
 * the call happened. The host auto-declines it when the countdown ends; the
 * card only asks, the owner removes it on the `question` event that ends it.
 */
export function ConfirmationCard(props: { request: ToolConfirmationRequest; onAnswered?: () => void }) {
  const { request, onAnswered } = props;
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { seconds, percent } = useCountdown(request);
  const [sending, setSending] = useState<string | undefined>();
  const [error, setError] = useState<ApiError | Error | undefined>();
  const expired = seconds === 0;

  const respond = async (approved: boolean, scope: ApprovalScope, key: string) => {
    setSending(key);
    setError(undefined);
    try {
      await api.call('questions.respond', { id: request.id, answer: { kind: 'toolConfirmation', approved, scope } });
      onAnswered?.();
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
    } finally {
      setSending(undefined);
    }
  };

  const argCount = Object.keys(request.args).length;
  return (
    <Card
      size="small"
      data-testid={`confirmation-${request.id}`}
      style={{ borderColor: expired ? undefined : token.colorWarning }}
      title={
        <Space>
          <SafetyCertificateOutlined style={{ color: token.colorWarning }} />
          <span>{t('confirmation.title')}</span>
          <Tag color={RISK_COLOR[request.risk]}>{t(`confirmation.risk.${request.risk}`)}</Tag>
        </Space>
      }
      extra={
        <Typography.Text type={seconds <= 10 ? 'danger' : 'secondary'} data-testid="confirm-countdown">
          {expired ? t('confirmation.expired') : t('confirmation.countdown', { seconds })}
        </Typography.Text>
      }
    >
      <Space orientation="vertical" size="small" style={{ width: '100%' }}>
        <ConfirmationSummary request={request} />
        <Descriptions
          size="small"
          column={1}
          items={[
            { key: 'tool', label: t('confirmation.tool'), children: <Typography.Text code>{request.toolName}</Typography.Text> },
            { key: 'server', label: t('confirmation.server'), children: <Typography.Text code>{request.serverName}</Typography.Text> },
          ]}
        />
        <Typography.Text type="secondary">{t('confirmation.args', { count: argCount })}</Typography.Text>
        <ArgsList args={request.args} testId="confirm-args" />
        <Progress percent={percent} showInfo={false} size="small" status={seconds <= 10 ? 'exception' : 'active'} />
        {error && <Alert type="error" showIcon title={error.message} description={error instanceof ApiError ? error.hint : undefined} />}
        <Space wrap>
          <Button
            type="primary"
            icon={<CheckOutlined />}
            disabled={expired || (sending !== undefined && sending !== 'once')}
            loading={sending === 'once'}
            onClick={() => respond(true, 'once', 'once')}
            data-testid="confirm-approve"
          >
            {t('confirmation.approve')}
          </Button>
          <Button
            danger
            icon={<CloseOutlined />}
            disabled={expired || (sending !== undefined && sending !== 'decline')}
            loading={sending === 'decline'}
            onClick={() => respond(false, 'once', 'decline')}
            data-testid="confirm-decline"
          >
            {t('confirmation.decline')}
          </Button>
          <Button
            disabled={expired || (sending !== undefined && sending !== 'conversation')}
            loading={sending === 'conversation'}
            onClick={() => respond(true, 'conversation', 'conversation')}
            data-testid="confirm-approve-conversation"
          >
            {t('confirmation.approveConversation')}
          </Button>
          {request.agentId && (
            <Button
              disabled={expired || (sending !== undefined && sending !== 'always')}
              loading={sending === 'always'}
              onClick={() => respond(true, 'always', 'always')}
              data-testid="confirm-approve-always"
            >
              {t('confirmation.approveAlways')}
            </Button>
          )}
        </Space>
      </Space>
    </Card>
  );
}
