import type { AccessCode } from '../policy/accessRule.js';

/**
 * Why a resource request was refused: `MCP_SERVER_NOT_FOUND` (no such
 * server), `NOT_OFFERED` (the server declared no resources, or no
 * subscriptions: the message says which), `BAD_ARGUMENTS` (a uri empty or
 * too long), or the access rule's codes (docs/rules/resources.md#grant).
 */
export type ResourceErrorCode = 'MCP_SERVER_NOT_FOUND' | 'NOT_OFFERED' | 'BAD_ARGUMENTS' | AccessCode;

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
