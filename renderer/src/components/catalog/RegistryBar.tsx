import { App as AntApp, Button, Input, Popover, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorLine } from '../../api/client';

/** Which registry the catalog reads (the mcpRegistryUrl setting), and changing it: empty is the official one. */
export function RegistryBar({ shown, onChanged }: { shown: string | undefined; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const save = async () => {
    try {
      await api.call('settings.update', { patch: { mcpRegistryUrl: value.trim() || null } });
      void message.success(t('catalog.registrySaved'));
      setOpen(false);
      onChanged();
    } catch (e) {
      void message.error(errorLine(e));
    }
  };
  return (
    <Space size={6}>
      <Typography.Text type="secondary" data-testid="catalog-registry">
        {t('catalog.registry')}: {shown ?? '…'}
      </Typography.Text>
      <Popover
        open={open}
        onOpenChange={setOpen}
        trigger="click"
        content={
          <Space.Compact style={{ width: 420 }}>
            <Input value={value} onChange={(e) => setValue(e.target.value)} placeholder={t('catalog.registryPlaceholder')} data-testid="catalog-registry-input" />
            <Button type="primary" onClick={() => void save()} data-testid="catalog-registry-save">
              {t('catalog.registrySave')}
            </Button>
          </Space.Compact>
        }
      >
        <Button size="small" data-testid="catalog-registry-edit">
          {t('catalog.registryEdit')}
        </Button>
      </Popover>
    </Space>
  );
}
