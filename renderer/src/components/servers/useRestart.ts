import { App as AntApp } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorLine, toApiError } from '../../api/client';

/** Ends every lease of the server so the next call starts it again (a fixed config or binary then takes effect). */
export function useRestart(serverId: string) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [restarting, setRestarting] = useState(false);
  const restart = async () => {
    setRestarting(true);
    try {
      const { restarted } = await api.call('servers.restart', { serverId });
      void message.success(t('servers.restarted', { count: restarted }));
    } catch (e) {
      const error = toApiError(e);
      void message.error(errorLine(error));
    } finally {
      setRestarting(false);
    }
  };
  return { restarting, restart };
}
