import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerDefinition } from '../../shared/mcp.js';
import type { ConnectionManager } from '../mcp/connection/connectionManager.js';
import { GatewayError } from './refusals.js';
import { HOST_TOOL_OWNER, type Caller, type OfferedTool, type SourceCall, type SourceListing, type SourceResult, type ToolSource } from './toolSource.js';

/** The admin tool of every caller that may hold a dedicated instance (docs/rules/gateway.md#the-hosts-own-tools). */
export const RELEASE_TOOL: Tool = {
  name: 'mcp_release',
  description:
    "Release this conversation's dedicated instance of an MCP server: its process ends now, and a later call of one of its tools starts a fresh instance (its state is not kept). " +
    'Call it once you are sure you no longer need the tools of the server named in a lease reminder.',
  inputSchema: { type: 'object', properties: { serverId: { type: 'string', description: 'The server id named in the lease reminder, e.g. "chatos::everything"' } }, required: ['serverId'] },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
};

/** The sticky reminder of docs/rules/mcp-yaml.md#leases for a conversation holding a stateful server's instance. */
export const leaseReminder = (serverId: string) =>
  `You now hold a dedicated instance of MCP server "${serverId}" for this conversation. When you are sure you no longer need its tools, call mcp_release({"serverId":"${serverId}"}) to free it.`;

/** mcp_release as a listing offers it: a tool of the host itself. */
const RELEASE_OFFERED: OfferedTool = Object.freeze({
  name: RELEASE_TOOL.name,
  rawName: RELEASE_TOOL.name,
  ...HOST_TOOL_OWNER,
  description: RELEASE_TOOL.description!,
  inputSchema: RELEASE_TOOL.inputSchema,
  annotations: RELEASE_TOOL.annotations,
  permission: 'write',
  permissionSource: 'default',
  source: 'host',
});

const NOTHING: SourceListing = Object.freeze({ tools: [], problems: [], reminders: [] });
const OFFERED: SourceListing = Object.freeze({ tools: [RELEASE_OFFERED], problems: [], reminders: [] });

export interface ReleaseToolDeps {
  /** The servers this caller may use now: a caller of one with per-conversation instances may hold one. */
  visibleServers(caller: Caller): readonly ServerDefinition[];
  connections: Pick<ConnectionManager, 'release'>;
}

/**
 * `mcp_release`, a tool of the host: offered to a caller that may use a
 * server with per-conversation instances, and callable by any caller (it
 * only ever ends the caller's own conversation's instance). Its audit line
 * names the server released and says whether it held one.
 */
export class ReleaseToolSource implements ToolSource {
  readonly kind = 'host';
  readonly reservesNames = true;

  constructor(private readonly deps: ReleaseToolDeps) {}

  async list(caller: Caller): Promise<SourceListing> {
    return this.deps.visibleServers(caller).some((server) => !server.trulyStateless) ? OFFERED : NOTHING;
  }

  resolve(_caller: Caller, toolName: string) {
    return toolName === RELEASE_TOOL.name ? { tool: RELEASE_OFFERED } : undefined;
  }

  async call({ caller, args }: SourceCall): Promise<SourceResult> {
    const serverId = args.serverId;
    if (typeof serverId !== 'string')
      throw new GatewayError('BAD_ARGUMENTS', 'mcp_release needs {"serverId": "<server id>"}', 'pass the server id the lease reminder named, e.g. {"serverId": "chatos::everything"}');
    const released = await this.deps.connections.release(serverId, caller.conversationId, { appId: caller.appId, agentId: caller.agentId, flow: caller.flow });
    const text = released ? `Released this conversation's instance of "${serverId}".` : `This conversation held no instance of "${serverId}".`;
    return { result: { content: [{ type: 'text', text }] }, audit: { serverId, reason: 'mcp_release', ...(released ? { outcome: 'released' as const } : {}) } };
  }

  names(): readonly string[] {
    return [RELEASE_TOOL.name];
  }
}
