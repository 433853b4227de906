import { z } from 'zod';
import { emptyRecord, ownRecord } from '../../shared/ownKeys.js';
import { appIdFault } from '../naming/appIds.js';
import { ServerEnvNameSchema, StoredSecretNameSchema } from '../../shared/mcp.js';

/**
 * The `plugin.json` contract (docs/rules/names-and-exposure.md, plus `providerAppId` from docs/rules/registry.md#provider-app-ids).
 * Unknown keys are tolerated here (zod strips them) and reported as warnings
 * by `findUnknownKeys`, so manifests written for newer or older hosts load.
 */

export const SUPPORTED_MANIFEST_VERSION = 1;

const idMessage = 'must start with a letter or digit and contain only letters, digits';

export const PluginIdSchema = z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, { error: `${idMessage}, '.', '_' or '-' (at most 128)` });

/** Any id the original ChatOS accepted, but for what cannot be a folder name or is unsafe in a path (see appIds.ts). */
export const AppIdSchema = z.string({ error: 'must be a string' }).superRefine((id, ctx) => {
  const fault = appIdFault(id);
  if (fault) ctx.addIssue({ code: 'custom', message: fault.message, params: { hint: fault.hint } });
});

/** A provider app id names a folder under $CHATOS_HOME, so it must be a safe path segment. */
export const ProviderAppIdSchema = z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { error: `${idMessage}, '_' or '-' (at most 64)` });

/** A path relative to the plugin folder; containment is checked against the disk later. */
export const RelativePathSchema = z.string({ error: 'must be a path string' }).min(1, { error: 'must not be empty' });

export const CompactEntrySchema = z.union([RelativePathSchema, z.object({ type: z.literal('module').default('module'), path: RelativePathSchema })]);

export const ModuleEntrySchema = z.object({
  type: z.literal('module', { error: "must be 'module'" }),
  path: RelativePathSchema,
  compact: CompactEntrySchema.optional(),
});

export const AppEntrySchema = z.union([RelativePathSchema, ModuleEntrySchema]);

/**
 * A server's environment: literal strings, or `{ secret: NAME }` read from the key store when the server
 * starts (as in mcp.yaml), so a bundle's sensitive `user_config` never sits in a file trust pins.
 */
const PluginEnvSchema = z.record(ServerEnvNameSchema, z.union([z.string(), z.object({ secret: StoredSecretNameSchema }).strict()], { error: 'must be a string or { "secret": NAME }' }));

export const McpSchema = z
  .object({
    entry: RelativePathSchema.optional(),
    url: z.string({ error: 'must be a string' }).optional(),
    command: z.string().min(1).default('node'),
    args: z.array(z.string({ error: 'must be a string' })).default([]),
    env: PluginEnvSchema.default({}),
    /** Main flows only get servers that opt in (docs/rules/names-and-exposure.md#flags). */
    allowMain: z.boolean().default(false),
    allowSub: z.boolean().default(true),
    callMeta: z.record(z.string(), z.unknown()).default({}),
    description: z.string().optional(),
    tags: z.array(z.string()).default([]),
    enabled: z.boolean().default(true),
    /**
     * One instance shared by every conversation instead of one each
     * (docs/rules/mcp-yaml.md#leases): only for a server that keeps no state of
     * a conversation between calls. Spelled as mcp.yaml spells it.
     */
    'truely-stateless': z.boolean({ error: 'must be true or false' }).default(false),
    /** Tool-name glob → permission level (docs/rules/confirmation.md#permission-levels); first match wins, before MCP annotations. */
    permissions: ownRecord(z.enum(['read', 'write', 'confirm', 'navigate'], { error: 'must be read, write, confirm or navigate' })).default(emptyRecord),
  })
  .superRefine((mcp, ctx) => {
    const has = Number(mcp.entry !== undefined) + Number(mcp.url !== undefined);
    if (has !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: has === 0 ? 'needs exactly one of "entry" or "url"; it has neither' : 'needs exactly one of "entry" or "url"; it has both',
        params: { hint: has === 0 ? 'add "entry": "<path to your server script>" (stdio) or "url": "https://…" (remote)' : 'remove "entry" or "url"' },
      });
    }
  });

export const PromptSideSchema = z.union([RelativePathSchema, z.object({ path: RelativePathSchema }), z.object({ content: z.string() })]);

export const McpPromptSchema = z.union([
  RelativePathSchema,
  z.object({ title: z.string().optional(), zh: PromptSideSchema.optional(), en: PromptSideSchema.optional() }).refine((p) => p.zh !== undefined || p.en !== undefined, {
    error: 'needs "zh" or "en" (or both)',
    params: { hint: 'add "zh": "prompt.zh.md" and/or "en": "prompt.en.md"' },
  }),
]);

export const ExposureValueSchema = z.union([z.boolean(), z.array(z.string({ error: 'must be a string' }))], {
  error: 'must be true, false or a list of names',
});

export const AppAiSchema = z.object({
  mcp: McpSchema.optional(),
  mcpPrompt: McpPromptSchema.optional(),
  agent: z.object({ name: z.string().optional(), description: z.string().optional(), modelId: z.string().optional() }).optional(),
  mcpServers: ExposureValueSchema.optional(),
  prompts: ExposureValueSchema.optional(),
  config: RelativePathSchema.optional(),
});

/** Longest `ui://` uri a tool may link (docs/rules/mcp-apps.md#tools-with-a-view). */
const MAX_RESOURCE_URI_CHARS = 2048;

/** A page that is an MCP App: a `ui://` view its own server serves (docs/plugins/pages.md#a-page-that-is-an-mcp-app). */
export const McpAppPageSchema = z.object({
  resourceUri: z
    .string({ error: 'must be a string' })
    .max(MAX_RESOURCE_URI_CHARS, { error: `must be at most ${MAX_RESOURCE_URI_CHARS} characters` })
    .refine((uri) => uri.startsWith('ui://'), { error: 'must be a ui:// uri', params: { hint: 'name the view your server lists, e.g. "ui://my-app/page.html"' } }),
});

export const AppSchema = z
  .object({
    id: AppIdSchema,
    name: z.string({ error: 'must be a string' }).min(1),
    description: z.string().optional(),
    icon: RelativePathSchema.optional(),
    entry: AppEntrySchema.optional(),
    mcpApp: McpAppPageSchema.optional(),
    ai: AppAiSchema.optional(),
  })
  .superRefine((app, ctx) => {
    // At most one page per app: a module ChatOS mounts, or a view of the app's own server that any MCP Apps host renders.
    // An app with neither is a server alone (an installed MCP bundle is one), so it must bring that server.
    if (app.entry !== undefined && app.mcpApp !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['mcpApp'], message: 'has two pages: "entry" and "mcpApp"; an app has one', params: { hint: 'remove "entry" or "mcpApp"' } });
    }
    if (app.entry === undefined && app.mcpApp === undefined && !app.ai?.mcp) {
      ctx.addIssue({
        code: 'custom',
        path: ['entry'],
        message: 'brings nothing: no page ("entry" or "mcpApp") and no server ("ai.mcp")',
        params: { hint: 'add "entry": "index.mjs", or "ai": { "mcp": { "entry": "server.mjs" } } for an app that is a server alone' },
      });
    }
    if (app.mcpApp && !app.ai?.mcp) {
      ctx.addIssue({
        code: 'custom',
        path: ['mcpApp'],
        message: "an MCP App page is a view of the app's own server, and this app has none",
        params: { hint: 'add "ai": { "mcp": { "entry": "server.mjs" } } whose server lists the ui:// resource and a tool linking it' },
      });
    }
  });

export const PluginManifestSchema = z.object({
  manifestVersion: z.literal(SUPPORTED_MANIFEST_VERSION).default(SUPPORTED_MANIFEST_VERSION),
  id: PluginIdSchema,
  name: z.string({ error: 'must be a string' }).min(1),
  version: z.string({ error: 'must be a string' }).min(1),
  description: z.string().optional(),
  providerAppId: ProviderAppIdSchema.optional(),
  backend: z.object({ entry: RelativePathSchema }).optional(),
  apps: z.array(AppSchema).min(1, { error: 'must list at least one app' }),
});

/** The `ai.config` file: YAML or JSON, holding only the exposure lists. */
export const AiConfigFileSchema = z.object({
  mcpServers: ExposureValueSchema.optional(),
  prompts: ExposureValueSchema.optional(),
});

export type PluginManifest = z.infer<typeof PluginManifestSchema>;
export type AppManifest = z.infer<typeof AppSchema>;
export type PromptSide = z.infer<typeof PromptSideSchema>;
export type ExposureValue = z.infer<typeof ExposureValueSchema>;
export type AiConfigFile = z.infer<typeof AiConfigFileSchema>;
