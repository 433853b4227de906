import type { ServerDefinition } from '../../shared/mcp.js';
import type { LeaseHolders } from '../mcp/connection/leaseHolders.js';
import type { McpApps } from '../mcpApps/mcpApps.js';
import type { Callers } from '../operations/callers.js';
import type { McpPrompts } from '../tools/mcpPrompts.js';
import type { ResourceService } from '../resources/resourceService.js';
import type { ToolGateway } from '../tools/toolGateway.js';
import type { Caller } from '../tools/toolSource.js';

export type { Caller, Flow, GatewayCallResult, OfferedTool } from '../tools/toolGateway.js';
export { callProgress, RunningCalls } from '../tools/runningCalls.js';
export type { AppView } from '../mcpApps/mcpApps.js';
export { viewCsp, type ViewPlace } from '../mcpApps/viewCsp.js';
export { viewProxy } from '../mcpApps/viewProxy.js';
export { guardedViewHtml } from '../mcpApps/viewGuard.js';

/**
 * Tools: the one gateway every tool call goes through (access, permission
 * level, confirmation, audit), the callers faces build for it, and the
 * leases conversations hold (the confirmations a person answers are `host.questions`).
 */
export interface ToolsFacade {
  /** The tools this caller is offered now, from every tool source, with problems and lease reminders. */
  list: ToolGateway['listTools'];
  /** Runs one tool call through every check; the only way a tool runs. */
  call: ToolGateway['callTool'];
  /** The MCP servers this caller may use now, in id order. */
  visibleServers(caller: Caller): ServerDefinition[];
  /** The MCP prompts of the servers a caller may use (slash commands): listed (all, or one server's), got with arguments, their arguments completed. */
  readonly prompts: Pick<McpPrompts, 'list' | 'listOf' | 'get' | 'complete'>;
  /** A server's resources for this caller (list, read, subscribe, template completions), its access checked as for a tool call. */
  readonly resources: Pick<ResourceService, 'list' | 'read' | 'subscribe' | 'complete'>;
  /** MCP Apps (docs/rules/mcp-apps.md): a tool's `ui://` view read for the caller, and the calls and resource reads its view makes. */
  readonly apps: Pick<McpApps, 'view' | 'call' | 'readResource' | 'listResources'>;
  /** Who calls: an agent in a flow, an app as itself, an app's page calling its own server. */
  readonly callers: Pick<Callers, 'agent' | 'app' | 'page' | 'findApp' | 'requireRunnable'>;
  /** Who keeps a conversation's own server instances alive (a browser tab), and ending a conversation's use of tools. */
  readonly leases: ConversationLeases;
}

export interface ConversationLeases extends Pick<LeaseHolders, 'hold' | 'connected' | 'disconnected' | 'conversationsOf'> {
  /** Ends a conversation: its instances (audited as released), its "approve for this conversation" answers, its ties to holders. */
  end(conversationId: string, reason?: 'conversation-ended' | 'holder-gone'): Promise<number>;
}
