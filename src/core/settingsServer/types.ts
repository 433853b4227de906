import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ContributionCopies } from '../../shared/registry.js';
import type { z } from 'zod';
import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { RiskLevel } from '../../shared/confirmation.js';
import type { PermissionLevel, ServerCategory, ServerDefinition } from '../../shared/mcp.js';
import type { Problem } from '../../shared/problems.js';
import type { AgentStore } from '../agents/agentStore.js';
import type { AlwaysAllowStore } from '../confirmation/alwaysAllowStore.js';
import type { KnowledgeService } from '../knowledge/knowledgeService.js';
import type { AgentMemories } from '../memory/agentMemories.js';
import type { RegistryCenter } from '../registry/registryCenter.js';
import type { ConnectionState } from '../mcp/connection/serverConnection.js';
import type { LowRiskArguments } from './lowRisk.js';

/** A server's state as the settings tools report it: a disabled server never starts, so it has no connection state. */
export type SettingsServerState = { kind: 'disabled' } | ConnectionState;

/** One server as `list_mcp_servers` shows it. `tools` is absent until the server has listed its tools once. */
export interface SettingsServerView {
  id: string;
  name: string;
  category: ServerCategory;
  origin: ServerDefinition['origin'];
  state: SettingsServerState;
  /** Raw tool names (as the server lists them), with whether the user left them on. */
  tools?: { name: string; enabled: boolean }[];
}

/**
 * What the settings tools may touch: the services themselves, not the host.
 * The host fills it in (see `createSettingsContext`); tests may fill it with
 * real services on a temp home. Nothing here imports the host, so the tools
 * stay usable by any face that has these services.
 */
export interface SettingsContext {
  agents: AgentStore;
  /** Confirm-level tools an agent may run without asking ("always allow"). */
  alwaysAllow: Pick<AlwaysAllowStore, 'list' | 'revoke'>;
  registry: RegistryCenter;
  /** Knowledge bases (docs/rules/knowledge.md#the-settings-tools). */
  knowledge: KnowledgeService;
  /** Agents' memories, by agent id (docs/rules/settings-server.md#the-server). */
  memories: AgentMemories;
  plugins: {
    list(): PluginRecord[];
    apps(): AppContribution[];
    problems(): Problem[];
    /** Scans the plugin roots again, syncs the registry with the result and reloads the servers when plugins changed. */
    rescan(): Promise<unknown>;
    /** Plugin servers and prompts copied into the host's own lists, and the switch that copies them (docs/rules/names-and-exposure.md#where-the-contribution-lives). */
    copies(): ContributionCopies;
    setSyncAiContributes(on: boolean): ContributionCopies;
  };
  servers: {
    list(): SettingsServerView[];
    setToolEnabled(serverId: string, rawToolName: string, enabled: boolean): void;
  };
}

/** The arguments a tool's handler receives: its input shape, parsed. */
export type ToolArgs<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>>;

/**
 * One settings tool (`SettingsTool`, docs/rules/settings-server.md#adding-a-domain). Its permission is declared
 * here and nowhere else: the server definition's permission patterns, the
 * MCP annotations and the confirmation registration are all derived from it.
 */
export interface SettingsTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  /** Raw tool name; the gateway offers it as `mcp_settings_<name>`. */
  name: string;
  description: string;
  permission: PermissionLevel;
  /** How risky a `confirm` tool (or a `write` call that asks) is; shown with the confirmation. */
  risk?: RiskLevel;
  /**
   * For a `write` tool: the arguments a call may give and still run without
   * asking (docs/rules/confirmation.md#permission-levels, see lowRisk.ts). A call giving any other argument
   * asks the user first; a write tool without a whitelist asks for any.
   */
  lowRisk?: LowRiskArguments;
  /**
   * For a tool that shows one agent's private data (its memories): the argument naming that agent. A call about the
   * calling agent itself runs as its level says; a call about another agent (or made by no agent) asks the user first,
   * since a prompt-injected model could otherwise read what another agent kept, and send it to an embedding endpoint
   * with its query (docs/rules/settings-server.md#the-server).
   */
  privateToAgent?: string;
  inputSchema: Shape;
  /** One sentence a person can judge before approving, e.g. `Delete agent "writer"`. For `confirm` tools and for the `write` calls that ask. */
  summary?(args: ToolArgs<Shape>): string;
  /** Returns a result; a failure the caller should read is an `isError` result, never a throw. */
  handler(args: ToolArgs<Shape>, ctx: SettingsContext): Promise<CallToolResult>;
}

/** One domain's tools, one `<domain>.tools.ts` file each (docs/rules/settings-server.md#adding-a-domain). */
export interface ToolModule {
  domain: string;
  tools: SettingsTool[];
}

/** Keeps a tool's argument types tied to its input shape while letting modules list tools of different shapes. */
export function defineTool<Shape extends z.ZodRawShape>(tool: SettingsTool<Shape>): SettingsTool {
  return tool as unknown as SettingsTool;
}
