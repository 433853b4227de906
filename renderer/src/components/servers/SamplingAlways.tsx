import { Button, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useAction } from '../useAction';
import '../../i18n/load/sampling';

/** A server the user always allows to sample their model (docs/using/sampling.md#always-allow): said, and revocable here. */
export function SamplingAlways({ serverId, onChanged }: { serverId: string; onChanged(): void }) {
  const { t } = useTranslation();
  const { busy, run } = useAction(onChanged);
  const revoke = () =>
    run(async () => {
      await api.call('sampling.revoke', { serverId });
      return t('sampling.server.revoked');
    });
  return (
    <Space data-testid="server-sampling-always">
      <Tag color="gold">{t('sampling.server.always')}</Tag>
      <Button size="small" loading={busy} onClick={() => void revoke()} data-testid="server-sampling-revoke">
        {t('sampling.server.revoke')}
      </Button>
    </Space>
  );
}
