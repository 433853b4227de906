import { App as AntApp } from 'antd';
import { useTranslation } from 'react-i18next';
import type { HostEventMessage } from '../../../src/shared/hostApi';
import { useHostEvent } from '../api/hooks';

type DevReloaded = Extract<HostEventMessage, { type: 'plugins.devReloaded' }>;

// The Apps texts it says these in arrive with the first notice: the shell loads before any page, and most windows never get one.
const appsTexts = () => import('../i18n/load/apps');

/** Says, each time, that an edit to a development link was picked up and what changed (the page, server and backend reload by themselves). */
export function DevReloadNotices() {
  const { t } = useTranslation();
  const { notification } = AntApp.useApp();
  const notify = (event: DevReloaded) => {
    const files = [...event.changes.modified, ...event.changes.added, ...event.changes.removed];
    notification.info({
      key: `dev-reloaded-${event.pluginId}`,
      title: t('apps.devLink.reloaded', { id: event.pluginId }),
      description: (
        <div data-testid="dev-reloaded" data-plugin={event.pluginId}>
          <div>{t('apps.devLink.changedFiles', { files: files.join(', ') })}</div>
          {event.runPlanChanged ? <div>{t('apps.devLink.planChanged')}</div> : null}
        </div>
      ),
      placement: 'bottomRight',
    });
  };
  useHostEvent('plugins.devReloaded', (event) => void appsTexts().then(() => notify(event)));
  return null;
}
