import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHostLinkState } from '../api/hooks';

/**
 * Says so while host events cannot reach this page (serve mode only): the
 * data on screen may be stale. Once the host refused the token, retrying
 * cannot help, so it tells the user how to get a working page instead.
 */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const state = useHostLinkState();
  if (state === 'connected') return null;
  const ended = state === 'ended';
  return (
    <Alert
      banner
      type={ended ? 'error' : 'warning'}
      showIcon
      data-testid="connection-lost"
      data-state={state}
      title={ended ? t('common.connection.ended') : t('common.connection.lost')}
      description={ended ? t('common.connection.endedHint') : t('common.connection.lostHint')}
    />
  );
}
