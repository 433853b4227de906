import { z } from 'zod';
import { LOG_LEVELS } from './logLevels.js';

/**
 * The protocol a running instance speaks (docs/using/mcp-servers.md#protocol-eras): `modern`, MCP 2026-07-28 and
 * stateless (`server/discover`, no session); `legacy`, a 2025-11-25 or older revision over `initialize`. `version`
 * is the revision agreed, when the transport tells it.
 */
export const ServerProtocolSchema = z.object({ era: z.enum(['legacy', 'modern']), version: z.string().optional() });
export type ServerProtocol = z.infer<typeof ServerProtocolSchema>;

/** The name of a value kept in the host's key store (`{ secret: NAME }`): the store holds it as `mcp:NAME`. */
export const StoredSecretNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, { error: 'must be a stored value\'s name: letters, digits, ".", "_" or "-" (at most 128)' });

/**
 * The name of an environment variable a config sets. A name ends at its first `=` in the environment block a
 * process gets, so a key `NODE_OPTIONS=--require ./x.js --title` would set NODE_OPTIONS in the server past every
 * check that reads names (the trust plan, the import's code-changing variables); NUL ends the whole entry.
 */
export const ServerEnvNameSchema = z
  .string()
  .min(1, { error: 'an environment variable name must not be empty' })
  .max(256)
  .regex(/^[^=\0]+$/, { error: 'must be an environment variable name: "=" ends a name (it would set another variable), and NUL is not allowed' });

/**
 * A value that is written literally, copied from the host's environment
 * (`{ env: NAME }`, docs/rules/mcp-yaml.md#environment-and-headers), or kept in the host's key store like a
 * model's key (`{ secret: NAME }`, written by the MCP servers page and
 * `chatos mcp`): read only in the main process when the server starts.
 */
export const EnvValueSchema = z.union([z.string(), z.object({ env: z.string().min(1) }).strict(), z.object({ secret: StoredSecretNameSchema }).strict()]);
export type EnvValue = z.infer<typeof EnvValueSchema>;

/** Tool name transforms, applied in order (docs/rules/mcp-yaml.md#tool-names-and-transforms). */
export const TransformSchema = z.union([
  z.object({ prefix: z.string() }).strict(),
  z.object({ prefix: z.object({ remove: z.string().default(''), add: z.string().default('') }).strict() }).strict(),
  z.object({ suffix: z.string() }).strict(),
]);
export type Transform = z.infer<typeof TransformSchema>;

export const PermissionLevelSchema = z.enum(['read', 'write', 'confirm', 'navigate']);
export type PermissionLevel = z.infer<typeof PermissionLevelSchema>;

export const ServerCategorySchema = z.enum(['external', 'builtin', 'assistant']);
export type ServerCategory = z.infer<typeof ServerCategorySchema>;

/**
 * Which Node runs a server whose command is `node`: the one on PATH
 * (`system`), the app's own (`bundled`: Electron's binary as a plain Node in
 * the desktop app, the running Node in `chatos serve` and the CLI), or the
 * system's when PATH has one, else the app's (`auto`, the default).
 */
export const NodeRuntimeChoiceSchema = z.enum(['system', 'bundled', 'auto']);
export type NodeRuntimeChoice = z.infer<typeof NodeRuntimeChoiceSchema>;

export const StdioTransportSchema = z.object({
  kind: z.literal('stdio'),
  command: z.string().min(1),
  args: z.array(z.string()),
  env: z.record(ServerEnvNameSchema, EnvValueSchema),
  /**
   * Host variables passed on beyond the default list (mcp.yaml `inheritEnv`):
   * more names, or `true` for the whole environment. Never set for plugins.
   */
  inheritEnv: z.union([z.literal(true), z.array(z.string())]).optional(),
  cwd: z.string().optional(),
  /** For a `node` command: which Node runs it (absent: auto). Set from mcp.yaml (the entry's own, or the `nodeRuntime:` block). */
  nodeRuntime: NodeRuntimeChoiceSchema.optional(),
});

/**
 * How ChatOS identifies itself when it signs in to a remote server (mcp.yaml
 * `oauth:`): a client id (and secret) the server's operator registered for
 * the user, or the url of a client ID metadata document. Neither is needed
 * where the authorization server lets ChatOS register itself.
 */
export const OAuthClientConfigSchema = z.object({
  clientId: z.string().min(1).optional(),
  clientSecret: EnvValueSchema.optional(),
  clientMetadataUrl: z.string().min(1).optional(),
});

export type OAuthClientConfig = z.infer<typeof OAuthClientConfigSchema>;

export const HttpTransportSchema = z.object({
  kind: z.literal('streamable_http'),
  url: z.string().min(1),
  headers: z.record(z.string(), EnvValueSchema),
  sessionId: z.string().optional(),
  oauth: OAuthClientConfigSchema.optional(),
});

/** A server that runs inside the host (the built-in settings server), reached over the SDK's in-memory transport. */
export const InProcessTransportSchema = z.object({
  kind: z.literal('in-process'),
  /** Which of the host's in-process servers. */
  server: z.string().min(1),
  /** What its factory is given (the fetch tool: whether private addresses are allowed): part of the definition, so a change restarts it. */
  options: z.record(z.string(), z.union([z.boolean(), z.string(), z.number()])).optional(),
});
export type InProcessOptions = NonNullable<z.infer<typeof InProcessTransportSchema>['options']>;

export const ServerTransportSchema = z.discriminatedUnion('kind', [StdioTransportSchema, HttpTransportSchema, InProcessTransportSchema]);
export type ServerTransport = z.infer<typeof ServerTransportSchema>;

/**
 * One server, whatever it came from (mcp.yaml, a plugin's cmd:// or url,
 * a provider's defaults, another app's DB): the single type the runtime,
 * the catalog and the gateway work with. Two definitions are equal when
 * their canonical JSON is; hot reload restarts only servers that differ.
 */
export const ServerDefinitionSchema = z.object({
  /** Runtime id: the registry id, `<providerAppId>::<name>` (mcp.yaml servers are `chatos::<key>`). */
  id: z.string(),
  /** The server's name: tool names derive from it (`mcp_<normalize(name)>_<tool>`). */
  name: z.string(),
  providerAppId: z.string(),
  origin: z.enum(['mcp.yaml', 'plugin', 'app-db', 'defaults', 'host', 'builtin']),
  category: ServerCategorySchema,
  transport: ServerTransportSchema,
  /** `truely-stateless` (docs/rules/mcp-yaml.md#leases): one client shared by every conversation; otherwise one lease per conversation. */
  trulyStateless: z.boolean(),
  tools: z.object({ whitelist: z.array(z.string()), blacklist: z.array(z.string()) }),
  transform: z.array(TransformSchema),
  allowMain: z.boolean(),
  allowSub: z.boolean(),
  /** Per-call timeout: counted from the call's start, or from the server's last progress report. */
  timeoutMs: z.number().int().positive(),
  /** The longest a call may run however often it reports progress (docs/rules/mcp-yaml.md#timeouts); default DEFAULT_MAX_TOTAL_TIMEOUT_MS. */
  maxTotalTimeoutMs: z.number().int().positive().optional(),
  /** How long starting may take (spawn or connect, initialize, list tools); default by transport (see connectDeadline.ts). */
  connectTimeoutMs: z.number().int().positive().optional(),
  /** At most this many characters of one result's text reach the model (docs/rules/gateway.md#result-size); default DEFAULT_RESULT_CHARS. */
  maxResultChars: z.number().int().positive().optional(),
  /** The largest MCP App view (`ui://` resource) read from it, in bytes (docs/rules/mcp-apps.md#size); default DEFAULT_MAX_VIEW_BYTES. */
  maxViewBytes: z.number().int().positive().optional(),
  /** mcp.yaml's `sampling:` (docs/rules/sampling.md#limits): the model entry that answers this server's sampling requests, and how many a minute. */
  sampling: z.object({ model: z.string().optional(), perMinute: z.number().int().positive().optional() }).optional(),
  /** Tool-name glob → permission level; first match wins (docs/rules/confirmation.md#permission-levels). */
  permissions: z.array(z.object({ pattern: z.string(), level: PermissionLevelSchema })),
  /** Tools the user switched off (raw tool names). */
  disabledTools: z.array(z.string()),
  disabled: z.boolean(),
  /** The `_meta` injected into every tools/call (plugin apps: callMeta, chatos.uiApp, workdir). */
  meta: z.record(z.string(), z.unknown()),
  /** For plugin servers: whose trust decides whether it may start. */
  plugin: z.object({ pluginId: z.string(), appId: z.string(), pluginDir: z.string() }).optional(),
});
/**
 * Read-only all the way down: definitions are replaced, never mutated (the
 * gateway's memos key on their identity), and the checker holds every
 * reader to it.
 */
export type ServerDefinition = DeepReadonly<z.infer<typeof ServerDefinitionSchema>>;

/** `T` with every property and array read-only, recursively (plain data). */
export type DeepReadonly<T> = T extends (infer U)[] ? readonly DeepReadonly<U>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

export const LogLevelSchema = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevelSchema>;

export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** How long a call that keeps reporting progress may run in all, unless mcp.yaml's `maxTotalTimeout` says otherwise: 10 min. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;

/** How many characters of one tool result's text the model is sent, unless its server says otherwise (docs/rules/gateway.md#result-size). */
export const DEFAULT_RESULT_CHARS = 64_000;
/** The largest MCP App view read from a server unless its `maxViewBytes` says otherwise: four times one message's bound (the official PDF viewer is 4.2 MB). */
export const DEFAULT_MAX_VIEW_BYTES = 16 * 1024 * 1024;
