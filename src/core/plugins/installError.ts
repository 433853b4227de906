import type { Problem } from '../../shared/problems.js';

/** Why a plugin was not installed, by code. */
export type InstallErrorCode = 'SOURCE_MISSING' | 'INVALID_PLUGIN' | 'ALREADY_INSTALLED' | 'ZIP_REFUSED' | 'HAS_LINKS';

export class InstallError extends Error {
  constructor(
    readonly code: InstallErrorCode,
    message: string,
    readonly hint?: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
  }
}
