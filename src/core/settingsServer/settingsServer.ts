import { McpServer, type ToolAnnotations } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { DEFAULT_TOOL_TIMEOUT_MS, type PermissionLevel, type ServerDefinition } from '../../shared/mcp.js';
import type { ConfirmableEntry, SummaryBuilder, ToolConfirmationService } from '../confirmation/toolConfirmationService.js';
import { HOST_APP_ID } from '../dataHome.js';
import { registryId } from '../registry/registryTables.js';
import { toolNameFor } from '../naming/toolNaming.js';
import { riskyArguments } from './lowRisk.js';
import { errorResult } from './toolResults.js';
import { MODULES } from './tools/index.js';
import type { SettingsContext, SettingsTool, ToolArgs, ToolModule } from './types.js';

/** The in-process server's name: the runtime's `inProcessServers` key, and what tool names derive from (`mcp_settings_<tool>`). */
export const SETTINGS_SERVER_NAME = 'settings';
export const SETTINGS_SERVER_ID = registryId(HOST_APP_ID, SETTINGS_SERVER_NAME);

/**
 * Its registry row's description, shown wherever servers are picked (an agent's "Your own servers"): what giving it to
 * an agent means, since it is the one server that changes ChatOS itself.
 */
export const SETTINGS_SERVER_DESCRIPTION =
  "ChatOS's own settings as tools: an agent given this server can read and change agents, apps, servers, grants, models' use and knowledge bases. " +
  'Changes that create, delete, grant or widen access ask you first. Give it only to an assistant meant to manage ChatOS.';

const INSTRUCTIONS =
  "ChatOS's own settings: agents, installed apps, the registry's servers, prompts and grants, MCP servers and their tools, and knowledge bases. " +
  "Read tools run at once (reading another agent's memories asks the user first); tools that create, delete or grant ask the user first, and so do changes that widen what agents and models may use (an agent's apps, servers or knowledge bases, a tool switched on, a knowledge base's embedding model) or that rewrite what other agents read (another agent's name or description, a knowledge base's name or description); a declined call returns a result saying so.";

/** MCP annotations say to any client what the permission level says to ours (STYLE: confirmation is declared, not hard-wired). */
function annotationsOf(level: PermissionLevel): ToolAnnotations {
  switch (level) {
    case 'read':
    case 'navigate':
      return { readOnlyHint: true, destructiveHint: false };
    case 'write':
      return { readOnlyHint: false, destructiveHint: false };
    case 'confirm':
      return { readOnlyHint: false, destructiveHint: true };
  }
}

const toolsOf = (modules: readonly ToolModule[]) => modules.flatMap((module) => module.tools.map((tool) => ({ domain: module.domain, tool })));

/**
 * A fresh settings server over `ctx`; the runtime makes one per connection.
 * Built with the v2 server package, so it speaks both protocol eras: a
 * 2026-07-28 client statelessly (server/discover, `_meta` on every request),
 * a 2025 client over initialize (docs/rules/mcp-yaml.md#protocol-eras).
 * A tool that fails (an unknown agent, a refused grant, a bug) returns an
 * `isError` result the model can read: a throw would reach the model as a
 * protocol error with less to go on.
 */
export function createSettingsServer(ctx: SettingsContext, modules: readonly ToolModule[] = MODULES): McpServer {
  const server = new McpServer({ name: 'chatos-settings', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  for (const { domain, tool } of toolsOf(modules)) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: z.object(tool.inputSchema),
        annotations: annotationsOf(tool.permission),
        // The assistant page groups tools by domain and shows their level (docs/rules/settings-server.md#the-management-ui).
        _meta: { chatos: { domain, permission: tool.permission } },
      },
      async (args) => {
        try {
          return await tool.handler(args as ToolArgs<z.ZodRawShape>, ctx);
        } catch (error) {
          return errorResult(`${tool.name} failed: ${(error as Error).message}`);
        }
      },
    );
  }
  return server;
}

/**
 * The settings server as the runtime sees it: built in, under `chatos`,
 * one shared instance (its state lives in the host's services, not in the
 * server), and one exact permission pattern per tool with its declared
 * level, so the gateway decides from the definition before any annotation.
 */
export function settingsServerDefinition(modules: readonly ToolModule[] = MODULES): ServerDefinition {
  return {
    id: SETTINGS_SERVER_ID,
    name: SETTINGS_SERVER_NAME,
    providerAppId: HOST_APP_ID,
    origin: 'builtin',
    category: 'assistant',
    transport: { kind: 'in-process', server: SETTINGS_SERVER_NAME },
    trulyStateless: true,
    tools: { whitelist: [], blacklist: [] },
    transform: [],
    allowMain: true,
    allowSub: true,
    timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    permissions: toolsOf(modules).map(({ tool }) => ({ pattern: tool.name, level: tool.permission })),
    disabledTools: [],
    disabled: false,
    meta: {},
  };
}

/** The name the gateway offers a settings tool under (`mcp_settings_<tool>`). */
export function settingsToolName(rawName: string, modules: readonly ToolModule[] = MODULES): string {
  const naming = toolNameFor(settingsServerDefinition(modules), rawName);
  if (!naming.ok) throw new Error(`settings tool ${rawName}: ${naming.reason}`);
  return naming.name;
}

/**
 * The confirmation sees the model's arguments as sent; the tool's summary
 * wants them parsed. Arguments that do not parse will fail the call anyway,
 * and the user is told so rather than shown a half-filled sentence.
 */
function summaryBuilderOf(tool: SettingsTool, offeredName: string): SummaryBuilder | undefined {
  const summary = tool.summary;
  if (!summary) return undefined;
  const schema = z.object(tool.inputSchema);
  return (args) => {
    const parsed = schema.safeParse(args);
    if (parsed.success) return summary(parsed.data);
    return `Run ${offeredName} with arguments that are not valid, so it will fail: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'} ${i.message}`).join('; ')}`;
  };
}

/**
 * Every confirm tool's entry, by the name the gateway offers it under (docs/rules/settings-server.md#adding-a-domain:
 * confirm tools register automatically), and every write tool's,
 * asking only for the calls that give more than its low-risk arguments. A
 * write call asks through this registration whatever level the tool ends up
 * with (a user's override included): widening what models may use always
 * asks.
 */
export function settingsConfirmables(modules: readonly ToolModule[] = MODULES): ConfirmableEntry[] {
  return toolsOf(modules)
    .filter(({ tool }) => tool.permission === 'confirm' || tool.permission === 'write' || tool.privateToAgent !== undefined)
    .map(({ tool }) => {
      const toolName = settingsToolName(tool.name, modules);
      const entry: ConfirmableEntry = { toolName, risk: tool.risk ?? 'medium', summaryBuilder: summaryBuilderOf(tool, toolName) };
      if (tool.permission !== 'confirm') entry.asks = (args, callerAgentId) => asksFor(tool, args, callerAgentId);
      return entry;
    });
}

/**
 * Whether a call of a `write` or `read` tool asks: another agent's private data (`privateToAgent`), or a write of more
 * than its low-risk arguments.
 */
function asksFor(tool: SettingsTool, args: Readonly<Record<string, unknown>>, callerAgentId: string | undefined): boolean {
  const owner = tool.privateToAgent;
  if (owner !== undefined && (callerAgentId === undefined || args[owner] !== callerAgentId)) return true;
  return tool.permission === 'write' && riskyArguments(tool.lowRisk, args, callerAgentId).length > 0;
}

export function registerSettingsConfirmables(service: Pick<ToolConfirmationService, 'registerMultiple'>, modules: readonly ToolModule[] = MODULES): void {
  service.registerMultiple(settingsConfirmables(modules));
}
