import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useAction } from '../useAction';
import '../../i18n/load/servers';

/** Ends every lease of the server so the next call starts it again (a fixed config or binary then takes effect). */
export function useRestart(serverId: string) {
  const { t } = useTranslation();
  const { busy, run } = useAction();
  const restart = () =>
    run(async () => {
      const { restarted } = await api.call('servers.restart', { serverId });
      return t('servers.restarted', { count: restarted });
    });
  return { restarting: busy, restart };
}
