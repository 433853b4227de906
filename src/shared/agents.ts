import { z } from 'zod';
import { KnowledgeBaseIdSchema } from './knowledge.js';
import { AgentMemorySettingsSchema } from './memory.js';
import { PermissionLevelSchema, ServerEnvNameSchema } from './mcp.js';
import { WorkspaceRootsSchema } from './workspaceRoots.js';

/** One app an agent uses (docs/rules/agents.md#what-an-agent-stores): whether its MCP and prompts are on, and which server / prompt ids are selected. */
export const AgentUiAppSchema = z.object({
  pluginId: z.string().min(1),
  appId: z.string().min(1),
  mcp: z.boolean().default(false),
  prompt: z.boolean().default(false),
  /** Registry ids (`<providerAppId>::<name>`). */
  mcpServerIds: z.array(z.string()).default([]),
  promptIds: z.array(z.string()).default([]),
});
export type AgentUiApp = z.infer<typeof AgentUiAppSchema>;

/**
 * The entry that stands for the host itself (docs/rules/agents.md#your-own-servers):
 * under it an agent selects what ChatOS registers under its own name, the
 * servers the user added (mcp.yaml, imported, templates), its built-in ones,
 * and the user's own prompts. It is no plugin: no own server, no own prompt.
 */
export const HOST_UI_APP = { pluginId: 'chatos', appId: 'chatos' } as const;

export const isHostUiApp = (app: { pluginId: string; appId: string }) => app.pluginId === HOST_UI_APP.pluginId && app.appId === HOST_UI_APP.appId;

export const AgentLanguageSchema = z.enum(['zh', 'en']);

export const AgentIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { error: 'must start with a letter or digit and use only letters, digits, ".", "_" or "-" (at most 64)' });

/**
 * An agent's name and description are read by other agents' models (the
 * sub-agent tool that runs it describes it with them: docs/rules/agents.md#what-an-agent-stores), so what
 * may be written is bounded, like a knowledge base's.
 */
export const MAX_AGENT_NAME_CHARS = 200;
export const MAX_AGENT_DESCRIPTION_CHARS = 4000;

/** How far an ACP agent's terminal requests go: `off` refuses them, `ask` asks the person before each command. */
export const AcpTerminalLevelSchema = z.enum(['off', 'ask']);
export type AcpTerminalLevel = z.infer<typeof AcpTerminalLevelSchema>;

/**
 * The program an agent of kind `acp` runs (docs/using/acp.md): an Agent Client
 * Protocol agent started over stdio, run as written (never through a shell),
 * with the host's minimal environment plus `env`. Only a person writes it
 * (the agent editor, `chatos agents create`): a UI app's page may not.
 */
export const AcpCommandSchema = z
  .object({
    command: z.string().min(1, { error: 'must name the program to run' }).max(4096),
    args: z.array(z.string().max(32_768)).max(256).default([]),
    env: z.record(ServerEnvNameSchema, z.string().max(32_768)).optional(),
    /**
     * Whether the agent may run commands in a terminal (`terminal/*`): `off`
     * (absent) refuses them and offers none; `ask` offers them and asks the
     * person before each command (docs/using/acp.md#terminals).
     */
    terminal: AcpTerminalLevelSchema.optional(),
  })
  .strict();
export type AcpCommand = z.infer<typeof AcpCommandSchema>;

/** How an agent answers: `model`, the host's own loop over a model entry; `acp`, an external ACP agent program. */
export const AgentKindSchema = z.enum(['model', 'acp']);

/** What a user writes to create or update an agent (`chatos agents create --file`). */
export const AgentInputSchema = z.object({
  id: AgentIdSchema.optional(),
  name: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(MAX_AGENT_NAME_CHARS, { error: `must be at most ${MAX_AGENT_NAME_CHARS} characters` }),
  description: z
    .string()
    .max(MAX_AGENT_DESCRIPTION_CHARS, { error: `must be at most ${MAX_AGENT_DESCRIPTION_CHARS} characters` })
    .default(''),
  /** Absent: `model`. */
  kind: AgentKindSchema.optional(),
  /** For kind `acp`: the ACP agent program it runs. */
  acp: AcpCommandSchema.optional(),
  /** The app the agent runs on behalf of: its grants decide what it may use. */
  hostAppId: z.string().min(1).default('chatos'),
  /** Language of the prompts it gets; the other language is the fallback. */
  language: AgentLanguageSchema.default('zh'),
  uiApps: z.array(AgentUiAppSchema).default([]),
  /** The model entry it chats with (`chatos models list`); unset until one is chosen. */
  modelId: z.string().min(1).max(64).optional(),
  /** Its own instructions, sent before its resolved prompts. */
  systemPrompt: z.string().max(100_000).default(''),
  /** Agents it may delegate to (each offered as a tool that runs it in the sub flow). */
  subAgents: z.array(AgentIdSchema).default([]),
  /** Knowledge bases it may search in a chat (offered as one `knowledge_search` tool over them). */
  knowledgeBases: z.array(KnowledgeBaseIdSchema).default([]),
  /**
   * Its workspace roots (docs/using/agents.md#workspace-roots): absolute
   * folder paths its MCP servers are told they may work in (`roots/list`),
   * unless a conversation sets its own.
   */
  roots: WorkspaceRootsSchema.default([]),
  /**
   * The permission level of its calls to each sub-agent, by the sub-agent's
   * id: unset, a call runs without asking (`write`) and is audited like any
   * tool call; `confirm` asks the user first.
   */
  subAgentPermissions: z.record(AgentIdSchema, PermissionLevelSchema).optional(),
  /**
   * Its memory (docs/rules/agents.md#memory): unset or `enabled: false`, it
   * is offered no memory tools; `shared`, it keeps one memory with every
   * agent of its host app that shares too.
   */
  memory: AgentMemorySettingsSchema.optional(),
  /**
   * The UI app whose page created it (`host.chat.agents.create|createForApp`):
   * that page may list, change, delete and chat with it, and with no other
   * agent. Set at creation; an update keeps it.
   */
  ownerApp: z
    .object({ pluginId: z.string().min(1), appId: z.string().min(1) })
    .strict()
    .optional(),
});
export type AgentInput = z.input<typeof AgentInputSchema>;

/**
 * An agent as stored. Its name and description are read without the input's
 * bounds, so an agent saved before them is still listed; wherever another
 * model reads them they are quoted and cut (src/core/untrustedText.ts).
 */
export const AgentSchema = AgentInputSchema.extend({ id: AgentIdSchema, name: z.string().min(1, { error: 'must not be empty' }), description: z.string().default('') });
export type Agent = z.infer<typeof AgentSchema>;
