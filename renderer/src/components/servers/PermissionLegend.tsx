import { Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PERMISSION_LEVELS, PermissionTag } from './permission';
import '../../i18n/load/servers';

/** What the four permission levels mean (docs/rules/confirmation.md#permission-levels), with the same chips the tool rows use. */
export function PermissionLegend() {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('servers.legend.title')} data-testid="permission-legend">
      <Space orientation="vertical" size={6} style={{ width: '100%' }}>
        {PERMISSION_LEVELS.map((level) => (
          <div key={level} style={{ display: 'flex', gap: 8, alignItems: 'baseline' }}>
            <span style={{ flex: '0 0 96px' }}>
              <PermissionTag level={level} />
            </span>
            <Typography.Text type="secondary">{t(`servers.permissionMeaning.${level}`)}</Typography.Text>
          </div>
        ))}
      </Space>
    </Card>
  );
}
