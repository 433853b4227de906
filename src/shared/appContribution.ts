import { z } from 'zod';
import { ProblemSchema } from './problems.js';
import { ServerEnvNameSchema, EnvValueSchema } from './mcp.js';

/** `_meta.chatos.uiApp` (docs/rules/gateway.md#_meta): who is calling and where its files live. */
export const UiAppMetaSchema = z.object({
  pluginId: z.string(),
  appId: z.string(),
  pluginDir: z.string(),
  dataDir: z.string(),
  stateDir: z.string(),
  sessionRoot: z.string(),
  projectRoot: z.string(),
});
export type UiAppMeta = z.infer<typeof UiAppMetaSchema>;

/** `dev`: a folder linked in place for development (`chatos dev DIR`): trusted once, re-pinned on every edit while linked. */
export const PluginSourceSchema = z.enum(['builtin', 'user', 'extra', 'dev']);
export type PluginSource = z.infer<typeof PluginSourceSchema>;

export const ExposureSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('off') }),
  z.object({ mode: z.literal('all') }),
  z.object({ mode: z.literal('list'), names: z.array(z.string()) }),
]);

export const ResolvedExposureSchema = z.object({
  exposure: ExposureSchema,
  source: z.enum(['inline', 'config', 'defaults', 'none']),
});

export const McpContributionSchema = z.object({
  /** `cmd://…` for a stdio server from `entry`, else the manifest's `url`. */
  url: z.string(),
  transport: z.enum(['stdio', 'http']),
  /** `truely-stateless` in plugin.json: one instance for every conversation. */
  trulyStateless: z.boolean().optional(),
  /** argv for stdio servers; spawned directly, never through a shell. */
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(ServerEnvNameSchema, EnvValueSchema),
  enabled: z.boolean(),
  description: z.string().optional(),
  tags: z.array(z.string()),
  /** The manifest's `callMeta` as written. */
  callMeta: z.record(z.string(), z.unknown()),
  /** The plugin's declared tool permissions: glob → level. */
  permissions: z.record(z.string(), z.enum(['read', 'write', 'confirm', 'navigate'])),
});

export const AppPromptSchema = z.object({
  title: z.string().optional(),
  zh: z.string().optional(),
  en: z.string().optional(),
});

/** Everything the host derives from one app of one plugin (docs/rules/names-and-exposure.md#where-the-contribution-lives). */
export const AppContributionSchema = z.object({
  pluginId: z.string(),
  appId: z.string(),
  providerAppId: z.string(),
  name: z.string(),
  description: z.string().optional(),
  source: PluginSourceSchema,
  pluginDir: z.string(),
  /** The module page; `path` absent when the page is an MCP App (`mcpApp`). */
  entry: z.object({ path: z.string().optional(), compactPath: z.string().optional() }),
  /** The app's page as a `ui://` view of its own server (docs/plugins/pages.md#a-page-that-is-an-mcp-app). */
  mcpApp: z.object({ resourceUri: z.string() }).optional(),
  iconPath: z.string().optional(),
  serverName: z.string(),
  promptNames: z.object({ zh: z.string(), en: z.string() }),
  allowMain: z.boolean(),
  allowSub: z.boolean(),
  mcp: McpContributionSchema.optional(),
  prompt: AppPromptSchema.optional(),
  agent: z.object({ name: z.string().optional(), description: z.string().optional(), modelId: z.string().optional() }).optional(),
  exposure: z.object({ mcpServers: ResolvedExposureSchema, prompts: ResolvedExposureSchema }),
  uiApp: UiAppMetaSchema,
  /** The `_meta` injected into every tools/call of this app's server: callMeta expanded, `chatos.uiApp`, `workdir`. */
  meta: z.record(z.string(), z.unknown()),
});
export type AppContribution = z.infer<typeof AppContributionSchema>;

/** A plugin folder as the scanner found it, valid or not. */
export const PluginRecordSchema = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  version: z.string().optional(),
  dir: z.string(),
  source: PluginSourceSchema,
  /** loaded: its apps contribute; invalid: errors; overridden: a user plugin replaced this built-in; shadowed: another plugin with its id won. */
  status: z.enum(['loaded', 'invalid', 'overridden', 'shadowed']),
  appIds: z.array(z.string()),
  /** `backend.entry`, absolute, when the plugin has a backend. */
  backendEntry: z.string().optional(),
  problems: z.array(ProblemSchema),
});
export type PluginRecord = z.infer<typeof PluginRecordSchema>;
