import type { AccessCode } from '../policy/accessRule.js';

/**
 * Why a resource request was refused: `UNKNOWN_SERVER` (no such server),
 * `NO_RESOURCES` / `NO_SUBSCRIBE` / `NO_COMPLETIONS` (the server did not
 * declare it), `BAD_URI` (empty, too long, or a template that cannot be
 * filled), or the access rule's codes (docs/rules/resources.md#grant).
 */
export type ResourceErrorCode = 'UNKNOWN_SERVER' | 'NO_RESOURCES' | 'NO_SUBSCRIBE' | 'NO_COMPLETIONS' | 'BAD_URI' | AccessCode;

export class ResourceError extends Error {
  constructor(
    readonly code: ResourceErrorCode,
    readonly reason: string,
    readonly fix?: string,
    readonly serverId?: string,
  ) {
    super(fix ? `${reason}; ${fix}` : reason);
  }
}
