import { CompassOutlined, EditOutlined, EyeOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PermissionLevel } from '../../../../src/shared/mcp';
import '../../i18n/load/servers';

/** The levels of docs/rules/confirmation.md#permission-levels in the order the legend and the override Select list them. */
export const PERMISSION_LEVELS: readonly PermissionLevel[] = ['read', 'write', 'confirm', 'navigate'];

/** One colour and icon per level, used by every chip and by the legend so they always agree. */
export const PERMISSION_STYLE: Record<PermissionLevel, { color: string; icon: ReactNode }> = {
  read: { color: 'green', icon: <EyeOutlined /> },
  write: { color: 'blue', icon: <EditOutlined /> },
  confirm: { color: 'orange', icon: <SafetyCertificateOutlined /> },
  navigate: { color: 'purple', icon: <CompassOutlined /> },
};

export type PermissionSource = 'override' | 'config' | 'annotation' | 'default';

/** A permission chip; the tooltip says what the level means and where it came from. */
export function PermissionTag(props: { level: PermissionLevel; source?: PermissionSource }) {
  const { t } = useTranslation();
  const style = PERMISSION_STYLE[props.level];
  const meaning = t(`servers.permissionMeaning.${props.level}`);
  const title = props.source ? `${meaning} (${t(`servers.permissionSource.${props.source}`)})` : meaning;
  return (
    <Tooltip title={title}>
      <Tag color={style.color} icon={style.icon} data-testid={`permission-${props.level}`}>
        {t(`servers.permission.${props.level}`)}
        {props.source === 'override' ? ' *' : ''}
      </Tag>
    </Tooltip>
  );
}
