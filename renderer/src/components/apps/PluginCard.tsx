import { Alert, Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AppView, PluginView } from '../../../../src/shared/hostApi';
import { ProblemList } from '../ProblemList';
import { TrustBlock } from '../uiapp/TrustBlock';
import { AppDetails } from './AppDetails';
import { UninstallButton, UnlinkButton, UntrustButton } from './PluginActions';
import { ServerTroubleTag, SourceTag, StatusTag, TrustTag } from './pluginTags';
import '../../i18n/load/apps';

export interface PluginCardProps {
  plugin: PluginView;
  apps: AppView[];
  onChanged: () => void;
  onOpenCompact: (app: AppView) => void;
}

function folderName(dir: string): string {
  return dir.split(/[\\/]/).filter(Boolean).pop() ?? dir;
}

/** One plugin folder: who it is, where it came from, whether it may run, its apps and its problems. */
export function PluginCard({ plugin, apps, onChanged, onOpenCompact }: PluginCardProps) {
  const { t } = useTranslation();
  const needsTrust = plugin.status === 'loaded' && (plugin.trust.state === 'untrusted' || plugin.trust.state === 'changed');
  const canUntrust = plugin.source !== 'builtin' && plugin.source !== 'dev' && (plugin.trust.state === 'trusted' || plugin.trust.state === 'changed');
  const testId = plugin.id ?? folderName(plugin.dir);

  return (
    <Card
      data-testid={`plugin-${testId}`}
      title={
        <Space size={8} wrap>
          <span>{plugin.name ?? plugin.id ?? folderName(plugin.dir)}</span>
          {plugin.id && plugin.name ? (
            <Typography.Text type="secondary" className="plugin-id">
              {plugin.id}
            </Typography.Text>
          ) : null}
          {plugin.version ? <Typography.Text type="secondary">v{plugin.version}</Typography.Text> : null}
        </Space>
      }
      extra={
        <Space size={4} wrap>
          <SourceTag source={plugin.source} />
          <StatusTag status={plugin.status} />
          {plugin.status === 'loaded' ? <TrustTag trust={plugin.trust} /> : null}
          <ServerTroubleTag apps={apps} />
          {canUntrust ? <UntrustButton plugin={plugin} onDone={onChanged} /> : null}
          {plugin.source === 'user' && plugin.id ? <UninstallButton plugin={plugin} onDone={onChanged} /> : null}
          {plugin.source === 'dev' ? <UnlinkButton plugin={plugin} onDone={onChanged} /> : null}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" className="mono-wrap" style={{ fontSize: 12 }}>
        {t('apps.folder')}{' '}
        <Typography.Text code copyable>
          {plugin.dir}
        </Typography.Text>
        {plugin.backendEntry ? (
          <>
            {' · '}
            {t('apps.backend')} <Typography.Text code>{plugin.backendEntry}</Typography.Text>
          </>
        ) : null}
      </Typography.Paragraph>
      {plugin.status === 'overridden' || plugin.status === 'shadowed' ? <Alert type="info" showIcon title={t(`apps.statusExplain.${plugin.status}`)} style={{ marginBottom: 12 }} /> : null}
      {needsTrust ? <TrustBlock plugin={plugin} onChanged={onChanged} /> : null}
      {plugin.problems.length > 0 ? <ProblemList problems={plugin.problems} testId={`problems-plugin-${testId}`} /> : null}
      {apps.map((app) => (
        <AppDetails key={app.appId} app={app} runnable={plugin.runnable} onOpenCompact={onOpenCompact} />
      ))}
      {plugin.status === 'loaded' && apps.length === 0 ? <Typography.Text type="secondary">{t('apps.noApps')}</Typography.Text> : null}
    </Card>
  );
}
