import type { ServerDefinition } from '../../shared/mcp.js';
import type { Problem } from '../../shared/problems.js';
import type { BuiltinToolAdmin } from '../mcp/admin/builtinToolAdmin.js';
import type { McpServerAdmin } from '../mcp/admin/mcpServerAdmin.js';
import type { McpSignIn } from '../mcp/admin/mcpSignIn.js';
import type { ReloadReport } from '../mcp/mcpRuntime.js';
import type { ServerSettings } from '../mcp/settings/serverSettings.js';
import type { ServerTrouble } from '../mcp/serverTrouble.js';
import type { ServerAdministration } from '../operations/serverAdministration.js';
import type { WorkspaceRoots } from '../workspaceRoots/workspaceRoots.js';

export type { ReloadReport } from '../mcp/mcpRuntime.js';
export type { ServerTrouble } from '../mcp/serverTrouble.js';
export { troubleProblem } from '../mcp/serverTrouble.js';
export { launchLine } from '../mcp/admin/serverEntry.js';

/**
 * MCP servers: their definitions from every source and hot reload, the
 * administration of what runs (list, tools, restart, log, switches) and the
 * user's mcp.yaml entries.
 */
export interface McpFacade {
  /** Every server definition (mcp.yaml, the registry, the host's own), as loaded now. */
  definitions(): ServerDefinition[];
  definition(serverId: string): ServerDefinition | undefined;
  /** The definitions' version: it changes on every reload that changed something. */
  readonly version: number;
  /** Problems of mcp.yaml and of the definitions. */
  readonly problems: Problem[];
  /** Re-reads mcp.yaml and the registry's servers; swaps only what changed. */
  reload(): Promise<ReloadReport>;
  /** What is wrong with a server now (its command is not there, or its last start failed); undefined when nothing is known to be wrong. */
  trouble(serverId: string): ServerTrouble | undefined;
  /** The servers as a person administers them: list, tools, restart, log, switches, instance problems, state changes. */
  readonly servers: Pick<
    ServerAdministration,
    'require' | 'list' | 'snapshots' | 'tools' | 'restart' | 'log' | 'setLogLevel' | 'setEnabled' | 'setToolEnabled' | 'setPermission' | 'instanceProblems' | 'onStateChange'
  >;
  /** The user's own servers (mcp.yaml): add, edit, remove, test, import, templates. */
  readonly admin: Pick<McpServerAdmin, 'list' | 'get' | 'add' | 'update' | 'remove' | 'setDisabled' | 'test' | 'planImport' | 'applyImport' | 'templates' | 'addTemplate'>;
  /** The built-in tools (time, fetch, calculator) and their switches in mcp.yaml's `builtins:` block. */
  readonly builtins: Pick<BuiltinToolAdmin, 'list' | 'set'>;
  /** Per-server user settings as stored: tools switched off, permission overrides. */
  readonly settings: Pick<ServerSettings, 'of'>;
  /** Signing in to the user's remote servers (OAuth): sign in, cancel, sign out. */
  readonly signIn: Pick<McpSignIn, 'signIn' | 'cancel' | 'signOut'>;
  /** "Always allow" for a server's sampling requests, read and revoked (the requests themselves are `host.questions`). */
  readonly sampling: { alwaysAllowed(serverId: string): boolean; revoke(serverId: string): void };
  /** Each conversation's workspace roots (roots/list): what they are, and setting a conversation's own (a WorkspaceRootsError names a bad folder). */
  readonly roots: Pick<WorkspaceRoots, 'view' | 'set'>;
}
