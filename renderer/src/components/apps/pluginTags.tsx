import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AppView, PluginView } from '../../../../src/shared/hostApi';
import '../../i18n/load/apps';

const SOURCE_COLOR: Record<PluginView['source'], string> = { builtin: 'geekblue', user: 'green', extra: 'purple', dev: 'magenta' };
const STATUS_COLOR: Record<PluginView['status'], string> = { loaded: 'success', invalid: 'error', overridden: 'default', shadowed: 'default' };
const TRUST_COLOR: Record<PluginView['trust']['state'], string> = { builtin: 'default', blocked: 'red', trusted: 'cyan', untrusted: 'orange', changed: 'volcano' };

export function SourceTag({ source }: { source: PluginView['source'] }) {
  const { t } = useTranslation();
  return (
    <Tag color={SOURCE_COLOR[source]} data-testid={`plugin-source-${source}`}>
      {t(`apps.source.${source}`)}
    </Tag>
  );
}

export function StatusTag({ status }: { status: PluginView['status'] }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} data-testid="plugin-status">
      {t(`apps.status.${status}`)}
    </Tag>
  );
}

export function TrustTag({ trust }: { trust: PluginView['trust'] }) {
  const { t } = useTranslation();
  // Built-ins are trusted by shipping with the host; a tag would only be noise.
  if (trust.state === 'builtin') return null;
  return (
    <Tag color={TRUST_COLOR[trust.state]} data-testid="plugin-trust">
      {t(`apps.trust.state.${trust.state}`)}
    </Tag>
  );
}

/** Problem codes of an app whose own server cannot start (its command is not there, its last start failed). */
const SERVER_TROUBLE = new Set(['SERVER_COMMAND_NOT_FOUND', 'SERVER_START_FAILED']);

/** A red tag when an app of the plugin has a server that cannot start: "loaded · trusted" alone would say all is well. */
export function ServerTroubleTag({ apps }: { apps: AppView[] }) {
  const { t } = useTranslation();
  if (!apps.some((app) => app.problems.some((problem) => SERVER_TROUBLE.has(problem.code)))) return null;
  return (
    <Tag color="error" data-testid="plugin-server-broken">
      {t('apps.serverBroken')}
    </Tag>
  );
}
