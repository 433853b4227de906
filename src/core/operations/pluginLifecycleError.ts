import type { PluginRecord } from '../../shared/appContribution.js';

/** Why a trust or an uninstall was refused, by code. */
export type PluginLifecycleErrorCode = 'NOT_FOUND' | 'NOT_ALLOWED' | 'INVALID';

export class PluginLifecycleError extends Error {
  constructor(
    readonly code: PluginLifecycleErrorCode,
    message: string,
    readonly hint?: string,
    readonly plugin?: PluginRecord,
  ) {
    super(message);
  }
}
