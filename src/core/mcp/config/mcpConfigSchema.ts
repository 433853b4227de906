import * as path from 'node:path';
import { z } from 'zod';
import { DEFAULT_TOOL_TIMEOUT_MS, ServerEnvNameSchema, EnvValueSchema, NodeRuntimeChoiceSchema, PermissionLevelSchema, TransformSchema } from '../../../shared/mcp.js';
import { MCP_SERVER_NAME_PATTERN } from '../../../shared/mcpAdmin.js';
import { emptyRecord, ownRecord } from '../../../shared/ownKeys.js';
import { SUPPORTED_TRANSPORTS } from './transports.js';

/**
 * The `$CHATOS_HOME/chatos/mcp.yaml` contract (v1, docs/rules/mcp-yaml.md) plus the host's
 * own per-server fields. Unknown keys are tolerated here (zod strips them)
 * and reported as warnings by the loader, so a file written for a newer host
 * still loads.
 */

export const SUPPORTED_MCP_CONFIG_VERSION = 1;

/** A server id is the key under `servers:`; it becomes the registry id `chatos::<id>`. */
export const SERVER_ID_PATTERN = MCP_SERVER_NAME_PATTERN;

/** setTimeout fires at once for delays above 2^31-1 ms, so a larger timeout would mean none. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** The highest `maxResultChars`: about a million tokens, more than any model's window. */
export const MAX_RESULT_CHARS = 4_000_000;

/** `maxViewBytes` between these: a view smaller than one message needs no setting, and past 64 MB a view is no page. */
export const MIN_VIEW_BYTES_SETTING = 64 * 1024;
export const MAX_VIEW_BYTES_SETTING = 64 * 1024 * 1024;

/**
 * YAML writes an empty block (`env:` with nothing under it) as null. Users
 * mean "none", so null and a missing key both read as the empty value.
 */
function orEmpty<T extends z.ZodType>(schema: T, empty: () => z.output<T>) {
  return schema.nullish().transform((value) => (value ?? empty()) as z.output<T>);
}

const StringListSchema = z.array(z.string({ error: 'must be a string' }));

export const ToolFilterConfigSchema = z.object({
  whitelist: orEmpty(StringListSchema, () => []),
  blacklist: orEmpty(StringListSchema, () => []),
});

/**
 * One entry under `servers:`. Transport-specific requirements (a command for
 * stdio, a url for streamable_http) are checked after parsing, because
 * `transport` may be left out and inferred from which of the two is given.
 */
export const McpServerEntrySchema = z.object({
  transport: z.enum(SUPPORTED_TRANSPORTS).optional(),
  // stdio
  command: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional(),
  args: orEmpty(StringListSchema, () => []),
  env: orEmpty(z.record(ServerEnvNameSchema, EnvValueSchema), () => ({})),
  /**
   * More of the host's environment than the default list (serverEnvironment.ts):
   * `true` for all of it, or the names of more variables. Default: the list only.
   */
  inheritEnv: z
    .union([z.boolean(), z.array(z.string({ error: 'must be a string' }).regex(/^[^=\0]+$/, { error: 'must be a variable name' }))], { error: 'must be true, false or a list of variable names' })
    .default(false),
  /** The folder the program starts in (default: the host's working folder); absolute. */
  cwd: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .refine((dir) => path.isAbsolute(dir), { error: 'must be an absolute path' })
    .optional(),
  /** For a `node` command: which Node runs it (nodeRuntime.ts); default the `nodeRuntime:` block's, else auto. */
  nodeRuntime: NodeRuntimeChoiceSchema.optional(),
  // streamable_http
  url: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional(),
  headers: orEmpty(z.record(z.string(), EnvValueSchema), () => ({})),
  sessionId: z.string({ error: 'must be a string' }).optional(),
  /** How ChatOS identifies itself when the server asks the user to sign in (OAuth); tokens are never written here. */
  oauth: z
    .object({
      client_id: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional(),
      client_secret: EnvValueSchema.optional(),
      client_metadata_url: z
        .string({ error: 'must be a string' })
        .refine((url) => URL.canParse(url) && new URL(url).protocol === 'https:' && new URL(url).pathname !== '/', { error: 'must be an https url with a path' })
        .optional(),
    })
    .strict()
    .nullish(),
  /** Spelled as docs/rules/mcp-yaml.md#leases spells it. */
  'truely-stateless': z.boolean().default(false),
  tools: orEmpty(ToolFilterConfigSchema, () => ({ whitelist: [], blacklist: [] })),
  transform: orEmpty(z.array(TransformSchema), () => []),
  // host fields
  /**
   * Default true, unlike a plugin's `ai.mcp.allowMain` (docs/rules/names-and-exposure.md#flags): a
   * plugin brings its server along, but the user wrote this entry on purpose.
   */
  allowMain: z.boolean().default(true),
  allowSub: z.boolean().default(true),
  /** Per-call timeout in milliseconds. */
  timeout: z.number().int().positive().max(MAX_TIMEOUT_MS).default(DEFAULT_TOOL_TIMEOUT_MS),
  /** Milliseconds a call may run in all, however often the server reports progress (each report restarts `timeout`). */
  maxTotalTimeout: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(),
  /** Milliseconds to start: spawn or connect, initialize, list tools (default 30 s for a url, 2 min for a command). */
  connectTimeout: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(),
  /** Characters of one result's text the model is sent (default 64 000); the user sees the whole result. */
  maxResultChars: z.number().int().min(1_000).max(MAX_RESULT_CHARS).optional(),
  /** Bytes of the largest MCP App view read from this server (default 16 MiB); every other answer stays within one message's 4 MiB. */
  maxViewBytes: z.number().int().min(MIN_VIEW_BYTES_SETTING).max(MAX_VIEW_BYTES_SETTING).optional(),
  /** Sampling requests of this server (docs/rules/sampling.md#limits): the model entry that answers them, and how many a minute. */
  sampling: z
    .object({
      model: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(64).optional(),
      perMinute: z.number().int().min(1).max(60).optional(),
    })
    .strict()
    .optional(),
  /** Tool-name glob → permission level; the map's order is the match order (first match wins). */
  permissions: orEmpty(ownRecord(PermissionLevelSchema), emptyRecord),
  disabled: z.boolean().default(false),
  /** Raw tool names the user switched off. */
  disabledTools: orEmpty(StringListSchema, () => []),
});
export type McpServerEntry = z.infer<typeof McpServerEntrySchema>;

/**
 * The file as a whole. `servers` is left unparsed here: each entry is parsed
 * on its own, so one broken server rejects only itself.
 */
export const McpConfigFileSchema = z.object({
  version: z.literal(SUPPORTED_MCP_CONFIG_VERSION),
  servers: orEmpty(z.record(z.string(), z.unknown()), () => ({})),
  /** How long instances are kept (leaseSettings.ts checks it apart, so a bad block rejects only itself). */
  leases: z.unknown().optional(),
  /** Which Node runs `node` servers (nodeRuntimeSettings.ts checks it apart, like leases). */
  nodeRuntime: z.unknown().optional(),
  /** Which built-in tools are on (builtinSettings.ts checks it apart, like leases). */
  builtins: z.unknown().optional(),
});

/** How to fix a field, by its key under `servers.<id>`. */
export const SERVER_FIELD_HINTS: Record<string, string> = {
  transport: 'use "transport: stdio" (with command) or "transport: streamable_http" (with url)',
  command: 'name the program to start, e.g. "command: npx"',
  args: "use a list of strings, e.g. args: ['-y', '@playwright/mcp@latest']",
  env: 'map each variable to a string, or to { env: HOST_VARIABLE } to copy it from the host environment',
  inheritEnv: 'use true (the whole host environment), or a list of host variable names, e.g. inheritEnv: [AWS_PROFILE, KUBECONFIG]',
  nodeRuntime: "use system (node from PATH), bundled (the app's own Node) or auto (PATH's node, else the app's)",
  cwd: 'use the absolute path of an existing folder, e.g. "cwd: /home/me/project", or remove cwd to start in the host\'s working folder',
  url: 'use an http(s) url, e.g. "url: http://127.0.0.1:3000/mcp"',
  headers: 'map each header to a string, or to { env: HOST_VARIABLE } to copy it from the host environment',
  sessionId: 'use a string, or remove sessionId',
  oauth:
    "use oauth: { client_id: ID, client_secret: { secret: NAME } } for a client the server's operator registered for you, or oauth: { client_metadata_url: https://… }; leave it out when the server lets ChatOS register itself",
  'truely-stateless': 'use true (one client shared by every conversation) or false (one client per conversation)',
  tools: "use tools: { whitelist: ['browser_*'], blacklist: ['*_unsafe'] }",
  transform: "use a list of - prefix: 'x_', - prefix: { remove: 'old_', add: 'new_' } or - suffix: '_x'",
  allowMain: 'use true or false',
  allowSub: 'use true or false',
  timeout: 'use a whole number of milliseconds, e.g. "timeout: 60000"',
  connectTimeout: 'use a whole number of milliseconds, e.g. "connectTimeout: 30000"',
  maxTotalTimeout: 'use a whole number of milliseconds, at least the timeout, e.g. "maxTotalTimeout: 600000" (10 min)',
  maxResultChars: 'use a whole number of characters from 1000 to 4000000, e.g. "maxResultChars: 64000"',
  maxViewBytes: 'use a whole number of bytes from 65536 to 67108864, e.g. "maxViewBytes: 33554432" (32 MiB)',
  sampling: 'use sampling: { model: MODEL_ID, perMinute: 10 } (a model entry of "chatos models list"; 1 to 60 requests a minute)',
  permissions: "map tool-name globs to read, write, confirm or navigate, e.g. permissions: { 'browser_*': confirm }",
  disabled: 'use true or false',
  disabledTools: "use a list of raw tool names, e.g. disabledTools: ['browser_close']",
};
