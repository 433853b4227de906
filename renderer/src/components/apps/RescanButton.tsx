import { useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useAction } from '../useAction';
import { useHostEvent } from '../../api/hooks';
import '../../i18n/load/apps';

/** Re-reads every plugin root; while it runs, the host's `progress` messages are shown next to the button. */
export function RescanButton({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { busy, run } = useAction(onDone);
  const [progress, setProgress] = useState<string>();

  useHostEvent('progress', (event) => {
    if (!busy) return;
    const step = t(`apps.progress.${event.phase}`, { op: t(`apps.progress.op.${event.op}`, { defaultValue: event.op }) });
    setProgress(event.message ? `${step} — ${event.message}` : step);
  });

  const rescan = () => {
    setProgress(undefined);
    void run(async () => {
      const result = await api.call('apps.rescan', {});
      return t('apps.rescan.done', { reread: result.reread.length, removed: result.removed.length, problems: result.problems });
    });
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
