import { useState } from 'react';
import { App as AntApp, Button, Space, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, errorLine, toApiError } from '../../api/client';
import { useHostEvent } from '../../api/hooks';

/** Re-reads every plugin root; while it runs, the host's `progress` messages are shown next to the button. */
export function RescanButton({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<string>();

  useHostEvent('progress', (event) => {
    if (!busy) return;
    const step = t(`apps.progress.${event.phase}`, { op: t(`apps.progress.op.${event.op}`, { defaultValue: event.op }) });
    setProgress(event.message ? `${step} — ${event.message}` : step);
  });

  const rescan = async () => {
    setBusy(true);
    setProgress(undefined);
    try {
      const result = await api.call('apps.rescan', {});
      message.success(t('apps.rescan.done', { reread: result.reread.length, removed: result.removed.length, problems: result.problems }));
      onDone();
    } catch (error) {
      const apiError = toApiError(error);
      message.error(errorLine(apiError));
    } finally {
      setBusy(false);
      setProgress(undefined);
    }
  };

  return (
    <Space>
      {busy && progress ? (
        <Typography.Text type="secondary" data-testid="rescan-progress">
          {progress}
        </Typography.Text>
      ) : null}
      <Button icon={<ReloadOutlined />} loading={busy} onClick={rescan} data-testid="rescan">
        {t('apps.rescan.button')}
      </Button>
    </Space>
  );
}
