import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolConfirmationRequest } from '../../shared/confirmation.js';
import type { PermissionLevel, ServerDefinition } from '../../shared/mcp.js';
import type { Problem } from '../../shared/problems.js';
import type { CatalogTool } from '../mcp/catalog/toolCatalog.js';
import type { CallOptions } from '../mcp/connection/serverConnection.js';
import type { SavedArtifact } from './artifacts.js';
import type { PermissionSource } from './permissions.js';

/**
 * The one interface every tool source implements
 * (docs/contributing/architecture.md#the-tool-seam): MCP servers, the host's own tools
 * (mcp_release, knowledge_search, memory) and an agent's sub-agents. A source lists
 * what a caller is offered, resolves a name a caller calls (or refuses it),
 * and runs a resolved call. Access, the permission level, confirmation and
 * the audit are the gateway's, the same for every source.
 */

export type Flow = 'main' | 'sub';

/** Who is calling: the app it acts for (grants are per app), the conversation (leases), the flow. */
export interface Caller {
  appId: string;
  agentId?: string;
  conversationId: string;
  flow: Flow;
  /** An agent's selection: only these registry ids, when given. */
  serverIds?: readonly string[];
  /**
   * Acting for one plugin of its app (its page, an agent its page made):
   * of the app's own registrations only that plugin's count, since joining
   * a provider app grants nothing (docs/rules/registry.md#who-sees-what).
   */
  asPlugin?: string;
  /** A UI app's page calling its own server (through the bridge), rather than an agent or a script acting as the app. */
  fromPage?: boolean;
  /** Calls asked for together (one model message): their confirmations share this id, so a face shows them as one card. */
  confirmationGroup?: string;
  /** How deep in sub-agent runs this caller is: 0 (or absent) for a conversation a person started. */
  depth?: number;
}

/** Per call: cancellation and progress, and where its images go (a conversation's own folder; default the host's artifacts folder). */
export interface GatewayCallOptions extends CallOptions {
  artifactsDir?: string;
  /** The model's id of this call, when a chat turn makes it: a sub-agent's run is linked to it. */
  callId?: string;
  /** A source that runs a conversation for the call (a sub-agent) names it as soon as it exists. */
  onConversation?: (conversationId: string) => void;
  /** A confirm-level call: the question put to the user, when it is put (a call an earlier approval lets through is not asked). */
  onAsked?(request: ToolConfirmationRequest): void;
  /** The user approved it: it runs from now. */
  onApproved?(): void;
}

/** Where a tool comes from. */
export type ToolSourceKind = 'mcp' | 'host' | 'sub-agent';

/** A tool as a caller is offered it: its name for that caller, where it runs, its permission level. */
export interface OfferedTool extends CatalogTool {
  permission: PermissionLevel;
  permissionSource: PermissionSource;
  source: ToolSourceKind;
  /**
   * Its call settles only once its work has stopped, cancelled or not (a
   * sub-agent's run writes its stopped state first): a caller awaits it
   * rather than giving up on it when the user stops.
   */
  settlesOnAbort?: true;
}

/** What a source offers one caller now. */
export interface SourceListing {
  tools: OfferedTool[];
  problems: Problem[];
  /** docs/rules/mcp-yaml.md#leases: the first lease of a stateful server asks the agent to release it when done. */
  reminders: string[];
}

/** The tool a call names, as its source resolved it for this caller; `server` is the MCP server it runs on. */
export interface ResolvedTool {
  tool: OfferedTool;
  server?: ServerDefinition;
}

/** One call as the gateway hands it to the tool's source, once it may run. */
export interface SourceCall {
  caller: Caller;
  tool: OfferedTool;
  server?: ServerDefinition;
  args: Record<string, unknown>;
  /** When the gateway took the call, on the host's clock. */
  started: number;
  /** The lease reminders the call has already (a server started to resolve it). */
  reminders: readonly string[];
}

/** What the audit line of a call says beyond the call itself: the server a host tool acted on, and why. */
export interface AuditNote {
  serverId: string;
  outcome?: 'released';
  reason: string;
}

/** How a source's call ended. */
export interface SourceResult {
  result: CallToolResult;
  artifacts?: readonly SavedArtifact[];
  reminders?: readonly string[];
  /** The caller cancelled it and it stopped (a sub-agent's run, stopped by Stop or by its card's Cancel). */
  cancelled?: boolean;
  audit?: AuditNote;
  /** Its server's cap on what the model is sent of a result (docs/rules/gateway.md#result-size); absent: the default. */
  maxResultChars?: number;
}

export interface ToolSource {
  readonly kind: ToolSourceKind;
  /**
   * Whether its names win, for a caller it offers them to, over a server tool
   * of the same name (the host's own tools, an agent's sub-agents): that
   * server tool is left out of the listing, with a warning, and never
   * reached by that name.
   */
  readonly reservesNames: boolean;
  /**
   * Served ahead of everything else (docs/rules/gateway.md#memory): its names
   * are claimed before any other source's (so no server starts to find
   * them), and its calls skip the confirmation step (the agent's memory
   * tools). They are audited like any call.
   */
  readonly interceptsFirst?: boolean;
  list(caller: Caller): Promise<SourceListing>;
  /**
   * The tool `toolName` is for this caller, when it is this source's;
   * undefined when it is not. A refusal (this source's name, but not for
   * this caller now) is a thrown GatewayError. `reminders` collects lease
   * reminders of servers started to find out.
   */
  resolve(caller: Caller, toolName: string, reminders: string[]): ResolvedTool | undefined | Promise<ResolvedTool | undefined>;
  /** Runs a resolved call that may run (access checked, decided). A GatewayError thrown here is a refusal (bad arguments). */
  call(call: SourceCall, options: GatewayCallOptions | undefined): Promise<SourceResult>;
  /** The names it would offer this caller, found without starting anything: for "did you mean". */
  names(caller: Caller): readonly string[];
  /** An error of `call` that is a refusal (it never ran: its plugin may not run now), said as the gateway's. */
  refusalOf?(error: unknown): GatewayRefusal | undefined;
}

/** A refusal as the audit and the caller get it. */
export interface GatewayRefusal {
  code: string;
  message: string;
  serverId?: string;
}

/** The host itself as the owner of its own tools, as listings and the audit name it. */
export const HOST_TOOL_OWNER = { serverId: 'chatos', serverName: 'chatos' } as const;
