import { App as AntApp } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PermissionLevel } from '../../../../src/shared/mcp';
import { api, toApiError } from '../../api/client';
import '../../i18n/load/servers';

/**
 * Switching a tool on/off and overriding its permission. Both persist in the
 * host and take effect for the next call; `reload` refreshes the list after.
 * `busy` holds `<rawName>` while that tool's change is on its way.
 */
export function useToolActions(serverId: string, reload: () => Promise<void>) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [busy, setBusy] = useState<Set<string>>(new Set());

  const run = async (tool: string, action: () => Promise<unknown>) => {
    setBusy((b) => new Set(b).add(tool));
    try {
      await action();
      await reload();
    } catch (e) {
      const error = toApiError(e);
      void message.error(t('servers.tools.changeFailed', { tool, message: error.message }) + (error.hint ? ` — ${error.hint}` : ''));
    } finally {
      setBusy((b) => {
        const next = new Set(b);
        next.delete(tool);
        return next;
      });
    }
  };

  return {
    busy,
    setEnabled: (tool: string, enabled: boolean) => run(tool, () => api.call('servers.setToolEnabled', { serverId, tool, enabled })),
    /** `null` removes the user's override, back to the config / annotation / default level. */
    setPermission: (tool: string, level: PermissionLevel | null) => run(tool, () => api.call('servers.setPermission', { serverId, tool, level })),
  };
}
