import { Select, Space, Switch, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ServerTool } from '../../../../src/shared/hostApi';
import type { PermissionLevel } from '../../../../src/shared/mcp';
import { PERMISSION_LEVELS, PERMISSION_STYLE, PermissionTag } from './permission';
import type { useToolActions } from './useToolActions';
import '../../i18n/load/servers';

const RESET = '__reset__';

/**
 * A server's tools: a switch each (`tool-switch-<serverId>-<rawName>`), the
 * name an agent sees, the permission chip and a select to override it.
 */
export function ToolTable(props: { serverId: string; tools: ServerTool[]; actions: ReturnType<typeof useToolActions>; emptyText?: string }) {
  const { serverId, tools, actions } = props;
  const { t } = useTranslation();
  return (
    <Table<ServerTool>
      size="small"
      rowKey="rawName"
      pagination={false}
      dataSource={tools}
      locale={{ emptyText: props.emptyText ?? t('servers.tools.none') }}
      columns={[
        {
          title: t('servers.tools.enabled'),
          key: 'enabled',
          width: 72,
          render: (_: unknown, tool) => (
            <Switch
              size="small"
              checked={tool.enabled}
              loading={actions.busy.has(tool.rawName)}
              onChange={(on) => void actions.setEnabled(tool.rawName, on)}
              data-testid={`tool-switch-${serverId}-${tool.rawName}`}
              aria-label={t('servers.tools.toggle', { tool: tool.rawName })}
            />
          ),
        },
        {
          title: t('servers.tools.tool'),
          key: 'tool',
          render: (_: unknown, tool) => (
            <Space orientation="vertical" size={0} style={{ opacity: tool.enabled ? 1 : 0.55 }}>
              <Space size={6} wrap>
                {PERMISSION_STYLE[tool.permission].icon}
                <Typography.Text strong>{tool.rawName}</Typography.Text>
                {tool.name ? (
                  <Typography.Text type="secondary" code style={{ fontSize: 12 }}>
                    {tool.name}
                  </Typography.Text>
                ) : (
                  <Typography.Text type="danger" style={{ fontSize: 12 }}>
                    {t('servers.tools.rejected')}
                  </Typography.Text>
                )}
              </Space>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {tool.description}
              </Typography.Text>
            </Space>
          ),
        },
        {
          title: t('servers.tools.permission'),
          key: 'permission',
          width: 260,
          render: (_: unknown, tool) => (
            <Space size={4}>
              <PermissionTag level={tool.permission} source={tool.permissionSource} />
              <Select<string>
                size="small"
                style={{ width: 130 }}
                value={tool.permissionSource === 'override' ? tool.permission : undefined}
                placeholder={t('servers.tools.override')}
                disabled={actions.busy.has(tool.rawName)}
                data-testid={`tool-permission-${serverId}-${tool.rawName}`}
                onChange={(value) => void actions.setPermission(tool.rawName, value === RESET ? null : (value as PermissionLevel))}
                options={[
                  ...PERMISSION_LEVELS.map((level) => ({ value: level, label: t(`servers.permission.${level}`) })),
                  ...(tool.permissionSource === 'override' ? [{ value: RESET, label: t('servers.tools.reset') }] : []),
                ]}
              />
            </Space>
          ),
        },
      ]}
    />
  );
}
