import { Drawer, Empty, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { ConfirmationCard } from '../components/ConfirmationCard';
import { usePending } from './questions';

/** Every pending confirmation, whichever view it belongs to (opened from the header's bell). */
export default function ConfirmationsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { pending, dismiss } = usePending('toolConfirmation');
  return (
    <Drawer open={open} onClose={onClose} title={t('common.header.confirmationsTitle')} size={480} destroyOnHidden data-testid="confirmations-drawer">
      {pending.length === 0 ? (
        <Empty description={t('common.header.noConfirmations')} />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }}>
          {pending.map((request) => (
            <ConfirmationCard key={request.id} request={request} onAnswered={() => dismiss(request.id)} />
          ))}
        </Space>
      )}
    </Drawer>
  );
}
