import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerDefinition } from '../../../shared/mcp.js';
import type { AccessCode, AccessRefusal } from '../../policy/accessRule.js';
import { toolNameFor } from '../catalog/toolNaming.js';

export type GatewayErrorCode = 'UNKNOWN_TOOL' | 'BAD_ARGUMENTS' | AccessCode;

/**
 * A refusal of the gateway: a code to branch on, why (naming the tool and
 * the server), and the exact fix. `message` says both, for whoever shows one
 * line (a model reads it as the call's error); faces that show a fix apart
 * use `reason` and `fix`.
 */
export class GatewayError extends Error {
  readonly reason: string;

  constructor(
    readonly code: GatewayErrorCode,
    reason: string,
    readonly fix?: string,
    /** The server the refusal is about, when it names one. */
    readonly serverId?: string,
  ) {
    super(fix ? `${reason}; ${fix}` : reason);
    this.reason = reason;
  }
}

/** The access rule's refusal as the gateway throws it, naming the server. */
export const gatewayRefusal = (refusal: AccessRefusal, serverId: string) => new GatewayError(refusal.code, refusal.reason, refusal.fix, serverId);

/** Whether the server's tool list, as last listed, gives a tool this name. */
function lists(server: ServerDefinition, tools: readonly Tool[] | undefined, toolName: string): boolean {
  return (
    tools?.some((tool) => {
      const named = toolNameFor(server, tool.name);
      return named.ok && named.name === toolName;
    }) === true
  );
}

/**
 * The server a refused name belongs to, among the servers whose names could
 * make it: one whose listed tools give that name; else one whose default
 * prefix it carries and whose tools are not known yet. `guess` (the name must
 * be refused, so some server is named) then takes one whose prefix it
 * carries, then one with a transform that could make it and has not listed
 * its tools yet, then the first. A
 * server with a transform could make many names, so it is named only when
 * nothing more certain is left.
 */
export function ownerOf(candidates: readonly ServerDefinition[], toolName: string, cachedTools: (serverId: string) => readonly Tool[] | undefined, guess: boolean): ServerDefinition | undefined {
  const listed = candidates.find((server) => lists(server, cachedTools(server.id), toolName));
  if (listed) return listed;
  const byPrefix = candidates.find((server) => server.transform.length === 0 && cachedTools(server.id) === undefined);
  if (byPrefix || !guess) return byPrefix;
  return candidates.find((server) => server.transform.length === 0) ?? candidates.find((server) => cachedTools(server.id) === undefined) ?? candidates[0];
}
