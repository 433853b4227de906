import { z } from 'zod';
import { ServerEnvNameSchema, EnvValueSchema, PermissionLevelSchema } from './mcp.js';

/** Where a registration came from; a re-sync of one origin replaces exactly its rows. */
export const RegistrySourceSchema = z.discriminatedUnion('kind', [
  /** The host's own admin DB (`mcpServers` / `prompts`). */
  z.object({ kind: z.literal('host') }),
  /** Another provider app's admin DB, `$CHATOS_HOME/<app>/admin.db`. */
  z.object({ kind: z.literal('app-db'), file: z.string() }),
  /** Bundled defaults for a provider app whose DB is missing. */
  z.object({ kind: z.literal('defaults'), file: z.string() }),
  /** A server built into the host (the settings server), under `chatos`. */
  z.object({ kind: z.literal('builtin') }),
  /** The host's `mcp.yaml` (docs/rules/mcp-yaml.md); its servers are registered under `chatos`. */
  z.object({ kind: z.literal('mcp-yaml'), file: z.string() }),
  /** A UI app of a plugin (docs/rules/names-and-exposure.md#two-ways-to-expose, way A). */
  z.object({
    kind: z.literal('plugin'),
    pluginId: z.string(),
    appId: z.string(),
    pluginDir: z.string(),
    /** Registered by the app's page through the host API (docs/rules/registry.md#the-push-api), not declared in plugin.json: a rescan leaves it. */
    pushed: z.literal(true).optional(),
  }),
]);
export type RegistrySource = z.infer<typeof RegistrySourceSchema>;

const StringMapSchema = z.record(z.string(), z.string());

/** What a provider registers for a server (`serverConfig`, docs/rules/registry.md#the-interface). */
export const McpServerConfigSchema = z.object({
  /** Stable name within the provider; the registry id is `<providerAppId>::<name>`. */
  name: z.string().min(1),
  /** `cmd://<command> <args…>` for stdio, or an http(s)/ws(s) url. */
  url: z.string().min(1),
  env: StringMapSchema.default({}),
  description: z.string().optional(),
  tags: z.array(z.string()).default([]),
  allowMain: z.boolean().default(false),
  allowSub: z.boolean().default(true),
  enabled: z.boolean().default(true),
  callMeta: z.record(z.string(), z.unknown()).optional(),
});
export type McpServerConfig = z.input<typeof McpServerConfigSchema>;

/**
 * Set while a registration's origin no longer offers it: its plugin was not
 * found in the root it came from, its mcp.yaml entry or provider DB row is
 * gone. It is shown with this state and never offered; its grants are kept
 * until it comes back or the user prunes it (`chatos registry prune`).
 */
export const MissingSchema = z.object({ since: z.string(), reason: z.string() });
export type Missing = z.infer<typeof MissingSchema>;

export const RegistryMcpServerSchema = McpServerConfigSchema.extend({
  id: z.string(),
  providerAppId: z.string(),
  source: RegistrySourceSchema,
  missing: MissingSchema.optional(),
  /** A plugin's `ai.mcp.env` may name a key-store value (`{ secret: NAME }`), read only when the server starts. */
  env: z.record(ServerEnvNameSchema, EnvValueSchema).default({}),
  /**
   * A plugin's declared tool permissions (plugin.json `ai.mcp.permissions`, in
   * the order written): kept in the row, with its expanded `callMeta`, so a
   * reload builds the server's definition from the row alone.
   */
  permissions: z.array(z.object({ pattern: z.string(), level: PermissionLevelSchema })).optional(),
  /** A plugin's `truely-stateless` (docs/rules/mcp-yaml.md#leases): one instance shared by every conversation. */
  trulyStateless: z.boolean().optional(),
});
export type RegistryMcpServer = z.infer<typeof RegistryMcpServerSchema>;

export const PromptConfigSchema = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  content: z.string(),
  lang: z.enum(['zh', 'en']).optional(),
});
export type PromptConfig = z.input<typeof PromptConfigSchema>;

export const RegistryPromptSchema = PromptConfigSchema.extend({
  id: z.string(),
  providerAppId: z.string(),
  source: RegistrySourceSchema,
  missing: MissingSchema.optional(),
});
export type RegistryPrompt = z.infer<typeof RegistryPromptSchema>;

export const GrantSchema = z.object({
  appId: z.string(),
  /** A registry id (`<providerAppId>::<name>`). */
  targetId: z.string(),
  grantedAt: z.string(),
});
export type Grant = z.infer<typeof GrantSchema>;

export const AppRegistrationSchema = z.object({
  appId: z.string(),
  /** How the registry knows this app: `host`, `app-db`, `defaults`, `plugin:<pluginId>`; sorted. */
  origins: z.array(z.string()),
});
export type AppRegistration = z.infer<typeof AppRegistrationSchema>;

/** The host's own server list (the `mcpServers` table of its admin DB; also other apps' DBs). */
export const HostMcpServerSchema = McpServerConfigSchema.extend({
  id: z.string(),
  source: RegistrySourceSchema.optional(),
  /** A copy of a plugin server keeps its `{ secret: NAME }` references (see RegistryMcpServerSchema). */
  env: z.record(ServerEnvNameSchema, EnvValueSchema).default({}),
});
export type HostMcpServer = z.infer<typeof HostMcpServerSchema>;

export const HostPromptSchema = PromptConfigSchema.extend({
  id: z.string(),
  source: RegistrySourceSchema.optional(),
});
export type HostPrompt = z.infer<typeof HostPromptSchema>;

const CopyOriginSchema = z.object({ name: z.string(), pluginId: z.string(), appId: z.string() });

/**
 * Plugin servers and prompts copied into the host's own lists, and whether
 * the data home's `syncAiContributes` switch is on
 * (docs/rules/names-and-exposure.md#where-the-contribution-lives).
 */
export const ContributionCopiesSchema = z.object({
  syncAiContributes: z.boolean(),
  /** Server copies, with their url (`cmd://…` for a program over stdio). */
  servers: z.array(CopyOriginSchema.extend({ url: z.string() })),
  prompts: z.array(CopyOriginSchema.extend({ lang: z.string().optional() })),
});
export type ContributionCopies = z.infer<typeof ContributionCopiesSchema>;

/** A name a provider app pushes: data from outside, so one plain shape; the registry name is derived from it (docs/rules/registry.md#the-push-api). */
export const PushedNameSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, { error: "must be 1-40 lowercase letters, digits, '_' or '-', starting with a letter or digit" });

/** `serverConfig` of a push: a streamable HTTP server (a program over stdio is declared in plugin.json, where trust pins its command). */
export const PushedServerSchema = z
  .object({
    name: PushedNameSchema,
    url: z.string().min(1).max(2048),
    description: z.string().max(1000).optional(),
    allowMain: z.boolean().default(false),
    allowSub: z.boolean().default(true),
  })
  .strict();

export const PushedPromptSchema = z.object({ name: PushedNameSchema, title: z.string().max(200).optional(), content: z.string().max(100_000), lang: z.enum(['zh', 'en']).optional() }).strict();
