import { Input, Table, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolView } from '../../../../src/shared/hostApi';
import { PermissionTag } from '../servers/permission';
import { ToolName } from '../servers/ToolName';
import '../../i18n/load/playground';

/** The tools an agent gets in a flow; a click picks one. */
export function ToolPicker(props: { tools: ToolView[]; selected?: string; onSelect(name: string): void }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const shown = q ? props.tools.filter((tool) => `${tool.name} ${tool.description} ${tool.serverId}`.toLowerCase().includes(q)) : props.tools;
  return (
    <>
      <Input.Search allowClear placeholder={t('playground.tools.search')} value={query} onChange={(e) => setQuery(e.target.value)} style={{ marginBottom: 8 }} />
      <Table<ToolView>
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={shown}
        scroll={{ y: 520 }}
        data-testid="playground-tools"
        locale={{ emptyText: t('playground.tools.noMatch') }}
        rowSelection={{ type: 'radio', selectedRowKeys: props.selected ? [props.selected] : [], onChange: (keys) => keys[0] !== undefined && props.onSelect(String(keys[0])), columnWidth: 32 }}
        onRow={(tool) => ({ onClick: () => props.onSelect(tool.name), style: { cursor: 'pointer' }, 'data-testid': `tool-row-${tool.name}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('playground.tools.tool'),
            key: 'name',
            render: (_: unknown, tool) => (
              <div style={{ minWidth: 0 }}>
                <Typography.Text strong>
                  <ToolName name={tool.name} />
                </Typography.Text>
                <div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {tool.serverId}
                  </Typography.Text>
                </div>
              </div>
            ),
          },
          { title: t('playground.tools.permission'), key: 'permission', width: 104, render: (_: unknown, tool) => <PermissionTag level={tool.permission} source={tool.permissionSource} /> },
        ]}
      />
    </>
  );
}
