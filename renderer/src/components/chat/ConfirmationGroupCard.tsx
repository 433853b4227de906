import { CheckOutlined, CloseOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Segmented, Space, Tag, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovalScope, ToolConfirmationRequest } from '../../../../src/shared/confirmation';
import { api, errorLine } from '../../api/client';
import { RISK_COLOR, useCountdown } from '../confirmationCountdown';
import { ConfirmationSummary } from '../ConfirmationSummary';
import { ArgsList } from './ArgsList';
import { useChosenScope } from './chosenScope';
import '../../i18n/load/confirmation';

function Countdown({ request }: { request: ToolConfirmationRequest }) {
  const { t } = useTranslation();
  const { seconds } = useCountdown(request);
  return (
    <Space size="small" className="confirm-group-countdown">
      <Typography.Text type={seconds <= 10 ? 'danger' : 'secondary'} data-testid="confirm-countdown">
        {seconds === 0 ? t('confirmation.expired') : t('confirmation.countdown', { seconds })}
      </Typography.Text>
    </Space>
  );
}

/**
 * The confirmations one model message asked for, on one card in the
 * conversation (a single one is a group of one): each call with its tool,
 * what it will do and its arguments as a readable list, approved or
 * declined on its own or all at once. Approving is for this call, for the
 * rest of this conversation, or always for this agent and tool (kept in the
 * host until revoked in the agent's settings). The gateway decides; the card
 * only answers.
 */
export function ConfirmationGroupCard({ requests, onAnswered, subAgent }: { requests: ToolConfirmationRequest[]; onAnswered(id: string): void; subAgent?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [scope, setScope] = useChosenScope(requests[0]?.groupId ?? requests[0]?.id ?? '');
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string>();
  const canAlways = requests.every((r) => r.agentId !== undefined);
  const effectiveScope: ApprovalScope = scope === 'always' && !canAlways ? 'conversation' : scope;

  const respond = async (targets: ToolConfirmationRequest[], approved: boolean) => {
    setError(undefined);
    setBusy((b) => new Set([...b, ...targets.map((r) => r.id)]));
    const results = await Promise.allSettled(
      targets.map((r) => api.call('questions.respond', { id: r.id, answer: { kind: 'toolConfirmation', approved, scope: approved ? effectiveScope : 'once' } }).then(() => onAnswered(r.id))),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) setError(errorLine(failed.reason));
    setBusy((b) => new Set([...b].filter((id) => !targets.some((r) => r.id === id))));
  };

  const first = requests[0];
  if (!first) return null;
  return (
    <Card
      size="small"
      className="confirm-group"
      data-testid="confirmation-group"
      data-group={first.groupId ?? first.id}
      data-count={requests.length}
      style={{ borderColor: token.colorWarning }}
      title={
        <Space wrap>
          <SafetyCertificateOutlined style={{ color: token.colorWarning }} />
          <span>{requests.length > 1 ? t('confirmation.group.title', { count: requests.length }) : t('confirmation.title')}</span>
          {subAgent && <Tag>{t('confirmation.group.subAgent')}</Tag>}
        </Space>
      }
      extra={<Countdown request={first} />}
    >
      <ul className="confirm-group-list">
        {requests.map((request) => (
          <li key={request.id} className="confirm-group-item" data-testid={`confirmation-item-${request.id}`} data-tool={request.toolName}>
            <div className="confirm-group-head">
              <Space wrap size="small">
                <Typography.Text code>{request.toolName}</Typography.Text>
                <Tag color={RISK_COLOR[request.risk]}>{t(`confirmation.risk.${request.risk}`)}</Tag>
                <Typography.Text type="secondary" className="confirm-group-server">
                  {request.serverName}
                </Typography.Text>
              </Space>
              <Space size="small">
                <Button size="small" type="primary" icon={<CheckOutlined />} loading={busy.has(request.id)} onClick={() => void respond([request], true)} data-testid="confirm-item-approve">
                  {t('confirmation.approve')}
                </Button>
                <Button size="small" danger icon={<CloseOutlined />} disabled={busy.has(request.id)} onClick={() => void respond([request], false)} data-testid="confirm-item-decline">
                  {t('confirmation.decline')}
                </Button>
              </Space>
            </div>
            <ConfirmationSummary request={request} className="confirm-group-summary" />
            <ArgsList args={request.args} testId="confirm-item-args" />
          </li>
        ))}
      </ul>
      {error && <Alert type="error" showIcon title={error} style={{ marginTop: 8 }} />}
      <div className="confirm-group-foot">
        <Space wrap size="small">
          <Typography.Text type="secondary">{t('confirmation.group.scope')}</Typography.Text>
          <Segmented<ApprovalScope>
            size="small"
            value={effectiveScope}
            onChange={setScope}
            data-testid="confirm-scope"
            options={[
              { value: 'once', label: t('confirmation.group.scopeOnce') },
              { value: 'conversation', label: t('confirmation.group.scopeConversation') },
              ...(canAlways ? [{ value: 'always' as const, label: t('confirmation.group.scopeAlways') }] : []),
            ]}
          />
        </Space>
        {requests.length > 1 && (
          <Space size="small">
            <Button type="primary" icon={<CheckOutlined />} onClick={() => void respond(requests, true)} data-testid="confirm-approve-all">
              {t('confirmation.group.approveAll')}
            </Button>
            <Button danger icon={<CloseOutlined />} onClick={() => void respond(requests, false)} data-testid="confirm-decline-all">
              {t('confirmation.group.declineAll')}
            </Button>
          </Space>
        )}
      </div>
    </Card>
  );
}
