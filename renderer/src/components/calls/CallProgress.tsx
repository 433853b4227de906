import { StopOutlined } from '@ant-design/icons';
import { Button, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import '../../i18n/load/calls';

/** The latest progress a server reported for a running call (MCP `notifications/progress`). */
export interface ProgressReport {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * A running call as a person sees it: how far the server says it is (a bar
 * when it gave a total, else the count), its latest message, and a Cancel
 * button that really stops the call (the face cancels the MCP request).
 */
export function CallProgress(props: { progress?: ProgressReport; onCancel?: () => void; cancelling?: boolean; testId?: string }) {
  const { t } = useTranslation();
  const { progress, onCancel, cancelling } = props;
  const percent = progress?.total ? Math.min(100, Math.max(0, Math.round((progress.progress / progress.total) * 100))) : undefined;
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }} data-testid={props.testId ?? 'call-progress'}>
      <Space wrap>
        {percent !== undefined ? (
          <Progress percent={percent} size="small" status="active" style={{ width: 220, margin: 0 }} data-testid="call-progress-bar" />
        ) : (
          <Typography.Text type="secondary">{progress ? t('calls.progress.count', { count: progress.progress }) : t('calls.progress.waiting')}</Typography.Text>
        )}
        {onCancel && (
          <Button size="small" danger icon={<StopOutlined />} loading={cancelling} onClick={onCancel} data-testid="call-cancel">
            {t('calls.cancel')}
          </Button>
        )}
      </Space>
      {progress?.message && (
        <Typography.Text type="secondary" data-testid="call-progress-message">
          {progress.message}
        </Typography.Text>
      )}
    </Space>
  );
}

/** A fresh id for a call a person may cancel (getRandomValues works outside secure contexts too, unlike randomUUID). */
export function newCallId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
