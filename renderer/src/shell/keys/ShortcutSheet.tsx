import { Modal, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { SHORTCUTS } from './shortcuts';
import { ShortcutKeys } from './ShortcutKeys';
import '../../i18n/load/keys';

/** Every shortcut, with where it works (Mod+/ or `?`; docs/using/keyboard.md). */
export default function ShortcutSheet({ open, mac, onClose }: { open: boolean; mac: boolean; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('keys.sheet.title')} width={560} wrapProps={{ 'data-keys-dialog': 'sheet' }} data-testid="shortcut-sheet">
      <Table
        size="small"
        pagination={false}
        rowKey="id"
        dataSource={[...SHORTCUTS]}
        columns={[
          { key: 'what', title: t('keys.sheet.what'), render: (_, s) => t(`keys.command.${s.id}`) },
          { key: 'where', title: t('keys.sheet.where'), render: (_, s) => t(`keys.where.${s.where}`) },
          { key: 'keys', title: t('keys.sheet.keys'), render: (_, s) => <ShortcutKeys id={s.id} mac={mac} /> },
        ]}
        data-testid="shortcut-sheet-table"
      />
    </Modal>
  );
}
