import { Button, Empty, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { AppRegistration } from '../../../../src/shared/registry';
import { ownValue } from '../../api/ownValue';
import { BreakableId } from './BreakableId';
import { GrantCell } from './GrantSwitch';
import { cellState, type Overview, type Target } from './registryModel';
import '../../i18n/load/registry';

export interface GrantMatrixProps {
  overview: Overview;
  apps: AppRegistration[];
  targets: Target[];
  granted: Set<string>;
  onChanged: () => Promise<void>;
  onShowVisible: (appId: string) => void;
}

/** Column width of one server or prompt, and of the app column. */
const TARGET_WIDTH = 150;
const APP_WIDTH = 220;
/** The matrix's own height: rows and columns past it scroll inside, drawn only when seen (virtual). */
const MATRIX_HEIGHT = 560;

/** Targets by the app that provides them, in first-seen order: a column group per provider. */
function byProvider(targets: Target[]): [string, Target[]][] {
  const groups = new Map<string, Target[]>();
  for (const target of targets) {
    const group = groups.get(target.providerAppId);
    if (group) group.push(target);
    else groups.set(target.providerAppId, [target]);
  }
  return [...groups];
}

/**
 * Rows are the registered apps, columns the servers (or prompts) they could
 * be granted, grouped under the app that provides them. Virtual in both
 * directions: 100 servers × 50 apps draws only the cells on screen.
 */
export function GrantMatrix({ overview, apps, targets, granted, onChanged, onShowVisible }: GrantMatrixProps) {
  const { t } = useTranslation();
  if (targets.length === 0) return <Empty description={t('registry.noTargets')} />;

  const columns: ColumnsType<AppRegistration> = [
    {
      key: 'app',
      title: t('registry.app'),
      fixed: 'left',
      width: APP_WIDTH,
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
    ...byProvider(targets).map(([provider, group]) => ({
      key: `provider:${provider}`,
      // At the group's start: a group of 100 columns would center its name far off screen.
      align: 'left' as const,
      title: (
        <Typography.Text type="secondary" className="registry-provider" data-testid={`provider-${provider}`}>
          <BreakableId id={provider} />
        </Typography.Text>
      ),
      children: group.map((target) => targetColumn(target)),
    })),
  ];

  function targetColumn(target: Target) {
    return {
      key: target.id,
      width: TARGET_WIDTH,
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
            {target.missing ? (
              <Tag color="orange" data-testid={`missing-${target.id}`}>
                {t('registry.missing')}
              </Tag>
            ) : null}
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
    };
  }

  return (
    <Table<AppRegistration>
      size="small"
      bordered
      rowKey="appId"
      columns={columns}
      dataSource={apps}
      pagination={false}
      virtual
      scroll={{ x: APP_WIDTH + targets.length * TARGET_WIDTH, y: MATRIX_HEIGHT }}
      data-testid="grant-matrix"
      locale={{ emptyText: <Empty description={t('registry.noApps')} /> }}
    />
  );
}
