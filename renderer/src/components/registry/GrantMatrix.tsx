import { Button, Empty, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { AppRegistration } from '../../../../src/shared/registry';
import { ownValue } from '../../api/ownValue';
import { BreakableId } from './BreakableId';
import { GrantCell } from './GrantSwitch';
import { cellState, type Overview, type Target } from './registryModel';

export interface GrantMatrixProps {
  overview: Overview;
  apps: AppRegistration[];
  targets: Target[];
  granted: Set<string>;
  onChanged: () => Promise<void>;
  onShowVisible: (appId: string) => void;
}

/** Rows are the registered apps, columns the servers (or prompts) they could be granted. */
export function GrantMatrix({ overview, apps, targets, granted, onChanged, onShowVisible }: GrantMatrixProps) {
  const { t } = useTranslation();
  if (targets.length === 0) return <Empty description={t('registry.noTargets')} />;

  const columns: ColumnsType<AppRegistration> = [
    {
      key: 'app',
      title: t('registry.app'),
      fixed: 'left',
      width: 220,
      render: (_, app) => (
        <Space orientation="vertical" size={2}>
          <Space size={4} wrap>
            <Typography.Text strong>{app.appId}</Typography.Text>
            {app.appId === overview.owner ? <Tag color="gold">{t('registry.owner')}</Tag> : null}
          </Space>
          <Space size={4} wrap>
            {app.origins.map((origin) => (
              <Tag key={origin} style={{ fontSize: 11 }}>
                {origin}
              </Tag>
            ))}
          </Space>
          <Button size="small" type="link" icon={<EyeOutlined />} onClick={() => onShowVisible(app.appId)} data-testid={`visible-${app.appId}`} style={{ paddingInline: 0 }}>
            {t('registry.whatItSees', { count: (ownValue(overview.visible, app.appId)?.servers.length ?? 0) + (ownValue(overview.visible, app.appId)?.prompts.length ?? 0) })}
          </Button>
        </Space>
      ),
    },
    ...targets.map((target) => ({
      key: target.id,
      width: 150,
      align: 'center' as const,
      title: (
        <Tooltip
          title={
            <div>
              {target.id}
              {target.detail ? <div>{target.detail}</div> : null}
              {target.missing ? <div>{t('registry.missingHint', { reason: target.missing })}</div> : null}
              {target.notRunnable ? <div>{target.notRunnable}</div> : null}
            </div>
          }
        >
          <div className="registry-target-head">
            <span>
              <BreakableId id={target.name} />
            </span>
            {target.missing ? <Tag color="orange" data-testid={`missing-${target.id}`}>{t('registry.missing')}</Tag> : null}
            <Typography.Text type="secondary" className="registry-target-id">
              <BreakableId id={target.providerAppId} />
            </Typography.Text>
            {target.notRunnable ? (
              <Tag color="orange" style={{ fontSize: 11, marginInlineEnd: 0 }} data-testid={`not-runnable-${target.id}`}>
                {t('registry.notRunnable')}
              </Tag>
            ) : null}
          </div>
        </Tooltip>
      ),
      render: (_: unknown, app: AppRegistration) => (
        <div className="grant-cell">
          <GrantCell appId={app.appId} targetId={target.id} state={cellState(overview, granted, app.appId, target)} onChanged={onChanged} />
        </div>
      ),
    })),
  ];

  return (
    <Table<AppRegistration>
      size="small"
      bordered
      rowKey="appId"
      columns={columns}
      dataSource={apps}
      pagination={false}
      scroll={{ x: 220 + targets.length * 150 }}
      data-testid="grant-matrix"
      locale={{ emptyText: <Empty description={t('registry.noApps')} /> }}
    />
  );
}
