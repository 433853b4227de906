import { SettingsViewSchema } from './settings.js';
import { AgentMemoryListingSchema, MAX_MEMORIES, MAX_MEMORY_CHARS, MAX_MEMORY_QUERY_CHARS, MemoryIdSchema, MemorySchema } from './memory.js';
import { z } from 'zod';
import { AgentSchema } from './agents.js';
import { ToolConfirmationRequestSchema } from './confirmation.js';
import { QuestionAnswerSchema, QuestionOutcomeSchema, QuestionSchema } from './question.js';
import { AuditDecisionSchema, AuditOutcomeSchema, AuditRecordSchema } from './audit.js';
import {
  AlwaysAllowEntrySchema,
  ChatStatusEventSchema,
  ConversationDetailSchema,
  ConversationIdSchema,
  ConversationMessageSchema,
  ConversationSchema,
  ExportFormatSchema,
  MessageIdSchema,
  PendingAttachmentSchema,
  AppSourceSchema,
  SearchHitSchema,
  ToolCallEventSchema,
} from './chat.js';
import { LogLevelSchema, PermissionLevelSchema, ServerCategorySchema, ServerProtocolSchema } from './mcp.js';
import { ModelPresetSchema } from './modelPresets.js';
import { HostPromptViewSchema } from './hostPrompts.js';
import { AddResultSchema, DocumentPageSchema, IngestProgressSchema, KnowledgeBaseSchema, MAX_QUERY_CHARS, SearchResultSchema } from './knowledge.js';
import { BuiltinToolChangeSchema, BuiltinToolViewSchema } from './builtinTools.js';
import { ImportApplyOptionsSchema, ImportPlanSchema, ImportResultSchema, McpServerEntryViewSchema, McpServerListSchema, McpTemplateSchema, McpTestResultSchema } from './mcpAdmin.js';
import { ApiKindSchema, ModelKindSchema, KeyStoreSchema, ModelCatalogSchema, ModelTestResultSchema, ModelViewSchema } from './models.js';
import { PageChatRequestSchema } from './pageChat.js';
import { ToolUiSchema } from './mcpApps.js';
import { BundleConfigValuesSchema, BundlePreviewSchema } from './bundles.js';
import { CatalogAddResultSchema, CatalogBundleSchema, CatalogEntryViewSchema, CatalogPageSchema, CatalogSearchSchema } from './mcpCatalog.js';
import { ProblemSchema } from './problems.js';
import { GotPromptSchema, MAX_COMPLETE_CHARS, McpPromptSchema, PromptArgsSchema } from './mcpPrompts.js';
import { DiagnosticsReportSchema } from './diagnostics.js';
import { AppRegistrationSchema, ContributionCopiesSchema, GrantSchema, RegistryMcpServerSchema, RegistryPromptSchema } from './registry.js';
import { PluginRootViewSchema, PruneResultSchema } from './roots.js';
import { RunPlanSchema, TrustChangesSchema, TrustStateSchema } from './trust.js';
import { DroppedGrantSchema, PluginUpdateSchema } from './pluginUpdate.js';
import { PageRegistryViewSchema } from './pageRegistry.js';
import { PluginRecordSchema, ResolvedExposureSchema, UiAppMetaSchema } from './appContribution.js';

/**
 * HostApi: the one contract between the host core and its faces (Electron
 * IPC, `chatos serve` over HTTP + WebSocket). Every request a face receives is
 * checked with `safeParse` against `params` before the core sees it; every
 * response and event is built from these schemas (tests parse them back).
 * The renderer imports types only, so zod stays out of its bundle.
 */

const Id = z.string().min(1).max(256);
/**
 * Any length the request's body allows (1 MB): the core refuses a text over
 * MAX_MEMORY_CHARS with its own message (the limit and the size) after one
 * comparison, where a schema bound would answer with a bare schema error.
 */
const MemoryTextParam = z.string();
const Empty = z.object({}).strict();
const FlowSchema = z.enum(['main', 'sub']);
const ConversationId = z.string().min(1).max(128);
/** A conversation's workspace roots as faces see them (docs/using/chat.md#workspace-roots). */
const ConversationRootsSchema = z.object({ roots: z.array(z.string()), own: z.boolean() });
const JsonObject = z.record(z.string(), z.unknown());
/** Chosen by the page for one upload or one add, so it can send the parts and follow (or cancel) the add. */
const KnowledgeJobId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);
/** A part of an upload, base64: small enough for a request body of 1 MB. */
export const KNOWLEDGE_UPLOAD_PART_CHARS = 680_000;
/** Files one knowledge.addUploads adds at most (its request stays well under 1 MB). */
export const MAX_UPLOADS_PER_ADD = 1000;
/** A face's own id for a call it may cancel. */
const CallId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** Who asks for a server's resources: an agent in a flow, in a conversation (its instance of the server). */
const ResourceCallerParams = z.object({ agentId: Id, flow: FlowSchema.default('main'), conversationId: ConversationId });
/** Room past the host's own bound, so the host refuses a long uri in its words. */
const ResourceUri = z.string().min(1).max(16_384);
const ResourceListingSchema = z.object({
  serverId: z.string(),
  resources: z.array(
    z.object({
      uri: z.string(),
      name: z.string(),
      view: z.literal(true).optional(),
      title: z.string().optional(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
      size: z.number().optional(),
    }),
  ),
  templates: z.array(
    z.object({
      uriTemplate: z.string(),
      name: z.string(),
      view: z.literal(true).optional(),
      title: z.string().optional(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
      arguments: z.array(z.string()),
    }),
  ),
  subscribe: z.boolean(),
  truncated: z.boolean(),
});
const ResourceReadSchema = z.object({
  serverId: z.string(),
  uri: z.string(),
  contents: z.array(z.union([z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }), z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() })])),
  cut: z.object({ totalChars: z.number(), keptChars: z.number(), droppedBlobs: z.number() }).optional(),
});

/** One app as the Apps page shows it (the same fields as `chatos apps --json`). */
export const AppViewSchema = z.object({
  pluginId: z.string(),
  appId: z.string(),
  providerAppId: z.string(),
  name: z.string(),
  description: z.string().optional(),
  source: z.enum(['builtin', 'user', 'extra', 'dev']),
  pluginDir: z.string(),
  serverName: z.string(),
  /** Registry id of the app's own server, when it has one. */
  serverId: z.string().nullable(),
  promptNames: z.object({ zh: z.string(), en: z.string() }),
  url: z.string().nullable(),
  transport: z.enum(['stdio', 'http']).nullable(),
  command: z.array(z.string()).nullable(),
  /** Whether its own server is switched on in the manifest; null when it has none. */
  enabled: z.boolean().nullable(),
  allowMain: z.boolean(),
  allowSub: z.boolean(),
  /** The manifest's callMeta as it is sent in every tool call's `_meta` (beside `chatos` and `workdir`). */
  callMeta: z.record(z.string(), z.unknown()),
  uiApp: UiAppMetaSchema,
  workdir: z.string().optional(),
  exposure: z.object({ mcpServers: ResolvedExposureSchema, prompts: ResolvedExposureSchema }),
  /** Its own prompt: the title and which languages it has; null when it brings none. */
  prompt: z.object({ title: z.string().nullable(), zh: z.boolean(), en: z.boolean() }).nullable(),
  entry: z.object({ path: z.string().optional(), compactPath: z.string().optional() }),
  /** Its page is this `ui://` view of its own server, shown in an MCP App frame (docs/plugins/pages.md#a-page-that-is-an-mcp-app). */
  mcpApp: z.object({ resourceUri: z.string() }).optional(),
  hasIcon: z.boolean(),
  problems: z.array(ProblemSchema),
});
export type AppView = z.infer<typeof AppViewSchema>;

export const PluginViewSchema = PluginRecordSchema.extend({
  trust: TrustStateSchema,
  /** What the plugin would run once trusted (exact command lines, entries, backend). */
  runPlan: RunPlanSchema,
  /** True when its servers, pages and backend may run now. */
  runnable: z.boolean(),
});
export type PluginView = z.infer<typeof PluginViewSchema>;

export const ToolViewSchema = z.object({
  name: z.string(),
  rawName: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  description: z.string(),
  inputSchema: JsonObject,
  permission: PermissionLevelSchema,
  permissionSource: z.enum(['override', 'config', 'annotation', 'default']),
  /** Its MCP App view and who sees it (docs/rules/mcp-apps.md#tools-with-a-view). */
  ui: ToolUiSchema.optional(),
});
export type ToolView = z.infer<typeof ToolViewSchema>;

export const ConnectionStateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stopped') }),
  z.object({ kind: z.literal('starting') }),
  z.object({ kind: z.literal('running'), pid: z.number().optional(), since: z.number() }),
  z.object({ kind: z.literal('error'), message: z.string(), at: z.number() }),
]);

export const ServerViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: ServerCategorySchema,
  origin: z.string(),
  description: z.string().optional(),
  /** What starts it: argv for stdio, the url for http, `in-process` for the built-in ones. */
  launch: z.string(),
  disabled: z.boolean(),
  /** Switched off by the user on the MCP servers page (`servers.setEnabled`): not offered, not started. */
  switchedOff: z.boolean(),
  /** The level the user set for the server's own log messages (`servers.setLogLevel`); absent: the server's default. */
  logLevel: LogLevelSchema.optional(),
  /** The user chose "always allow" for its sampling requests (docs/using/sampling.md#always-allow); `sampling.revoke` takes it back. */
  samplingAlways: z.boolean().optional(),
  /** The state of its most advanced lease, or stopped. */
  state: ConnectionStateSchema,
  /** `rssBytes`: the resident memory of the instance's process tree (Linux; absent elsewhere or when it is not running). */
  leases: z.array(
    z.object({
      conversationId: z.string(),
      state: ConnectionStateSchema,
      pid: z.number().optional(),
      rssBytes: z.number().optional(),
      inFlight: z.number(),
      lastUsed: z.number(),
      protocol: ServerProtocolSchema.optional(),
    }),
  ),
  /** What it speaks: its first running instance's, else what it spoke at its last start (every start asks again); absent before it ever started. */
  protocol: ServerProtocolSchema.optional(),
  problems: z.array(ProblemSchema),
});
export type ServerView = z.infer<typeof ServerViewSchema>;

export const ServerToolSchema = z.object({
  rawName: z.string(),
  /** Name an agent would see; absent when the catalog rejected the tool (see problems). */
  name: z.string().optional(),
  description: z.string(),
  enabled: z.boolean(),
  permission: PermissionLevelSchema,
  permissionSource: z.enum(['override', 'config', 'annotation', 'default']),
  /** The level without the user's override, so the UI can offer "reset". */
  inputSchema: JsonObject,
  /** The group the server declares the tool in (`_meta.chatos.domain`: the settings server's module); absent when it declares none. */
  domain: z.string().optional(),
});
export type ServerTool = z.infer<typeof ServerToolSchema>;

/**
 * A tool result as a face shows it: MCP content passed through, except that
 * images the gateway saved are `artifact` items the face turns into urls.
 */
export const ResultItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('artifact'), path: z.string(), mimeType: z.string(), url: z.string() }),
  z.object({ type: z.literal('other'), json: z.unknown() }),
]);
/**
 * A view read for its frame (docs/rules/mcp-apps.md#the-frame): `url`, its sandbox proxy; `origin`, the origin of its
 * own the proxy and the view run at, the only one the page takes the view's messages from.
 */
export const McpAppViewSchema = z.object({ url: z.string(), origin: z.string(), prefersBorder: z.boolean(), dropped: z.array(z.string()) });

export const ToolOutcomeSchema = z.object({
  isError: z.boolean(),
  content: z.array(ResultItemSchema),
  structuredContent: JsonObject.optional(),
  /** The result's own `_meta`, as the server sent it (an MCP App's view reads it: docs/rules/mcp-apps.md#the-result-a-view-gets). */
  _meta: JsonObject.optional(),
  decision: z.enum(['auto', 'approved', 'declined', 'expired', 'withdrawn']),
  durationMs: z.number(),
  reminders: z.array(z.string()),
});
export type ToolOutcome = z.infer<typeof ToolOutcomeSchema>;

export const SourcedProblemSchema = ProblemSchema.extend({ source: z.enum(['plugins', 'registry', 'mcp', 'servers', 'chat']) });
export type SourcedProblem = z.infer<typeof SourcedProblemSchema>;

export const AgentPreviewSchema = z.object({
  /** zod-style field errors of the draft (path like `uiApps[0].appId`); empty when it would save. */
  fieldErrors: z.array(z.object({ path: z.string(), message: z.string() })),
  main: z.array(ToolViewSchema),
  sub: z.array(ToolViewSchema),
  prompt: z.object({ text: z.string(), parts: z.array(z.object({ id: z.string(), title: z.string().optional(), lang: z.enum(['zh', 'en']) })) }),
  /** What the main flow's servers said at initialize, given to the model with the prompt (docs/rules/chat.md#server-instructions). */
  serverInstructions: z.array(z.object({ serverId: z.string(), serverName: z.string(), text: z.string() })),
  problems: z.array(ProblemSchema),
});
export type AgentPreview = z.infer<typeof AgentPreviewSchema>;

/**
 * A conversation as a face shows it: its detail, and the url each saved
 * image of its tool results loads from (by the image's `artifact` path),
 * since only the face knows how it serves them.
 */
export const ConversationViewSchema = ConversationDetailSchema.extend({ artifactUrls: z.record(z.string(), z.string()) });
export type ConversationView = z.infer<typeof ConversationViewSchema>;

const BackendReply = z.union([z.object({ ok: z.literal(true), result: z.unknown() }), z.object({ ok: z.literal(false), message: z.string() })]);

/** Every request: its params and its result. */
export const HostApiMethods = {
  'host.info': { params: Empty, result: z.object({ version: z.string(), home: z.string(), face: z.enum(['electron', 'serve']), locale: z.string() }) },

  'apps.list': { params: Empty, result: z.object({ apps: z.array(AppViewSchema), plugins: z.array(PluginViewSchema), problems: z.array(ProblemSchema) }) },
  'apps.rescan': { params: Empty, result: z.object({ reread: z.array(z.string()), removed: z.array(z.string()), problems: z.number() }) },
  'plugins.trust': { params: z.object({ pluginId: Id }).strict(), result: z.object({ trust: TrustStateSchema, runPlan: RunPlanSchema }) },
  'plugins.untrust': { params: z.object({ pluginId: Id }).strict(), result: z.object({ changed: z.boolean() }) },
  /** What installing `source` would do: a new install (no `update`), or an update in place of the installed copy of its id. Nothing is placed. */
  'plugins.installPreview': { params: z.object({ source: z.string().min(1).max(4096) }).strict(), result: z.object({ pluginId: z.string(), update: PluginUpdateSchema.optional() }) },
  /**
   * The desktop's folder picker, for a plugin folder to install: the folder chosen, or null when cancelled. Only the
   * desktop face has one (`host.info` face "electron"); in a browser the folder's path is typed.
   */
  'plugins.pickFolder': { params: Empty, result: z.object({ dir: z.string().nullable() }) },
  /** Installs; over an installed copy of the same id only with `update: true` (else ALREADY_INSTALLED): grants kept, trust needed again. */
  'plugins.install': {
    params: z.object({ source: z.string().min(1).max(4096), update: z.boolean().default(false) }).strict(),
    result: z.object({ pluginId: z.string(), dir: z.string(), leftOut: z.array(z.string()), updated: z.boolean().default(false) }),
  },
  /** One part of an MCP Bundle the page picked or dropped (docs/using/bundles.md), at its byte offset; the first says the whole size. */
  'plugins.bundleUploadPart': {
    params: z
      .object({ uploadId: KnowledgeJobId, offset: z.number().int().min(0), data: z.string().max(KNOWLEDGE_UPLOAD_PART_CHARS), name: z.string().min(1).max(300), size: z.number().int().min(0) })
      .strict(),
    result: z.object({ received: z.number() }),
  },
  /** What installing the uploaded bundle shows: author, signature, exact command, tools, settings. Nothing is placed; the upload stays for the install. */
  'plugins.bundlePreview': { params: z.object({ uploadId: KnowledgeJobId }).strict(), result: BundlePreviewSchema },
  /**
   * Installs the uploaded bundle with these settings (sensitive ones to the key store); over an installed copy only with
   * `update`. Over a copy of another signer (the preview's `signerChanged`) its stored secrets only with `keepSecrets`.
   */
  'plugins.installBundle': {
    params: z.object({ uploadId: KnowledgeJobId, config: BundleConfigValuesSchema, update: z.boolean().default(false), keepSecrets: z.boolean().default(false) }).strict(),
    result: z.object({ pluginId: z.string(), dir: z.string(), updated: z.boolean() }),
  },
  /** An MCP Bundle by the http(s) address the user pasted: fetched by the host into upload `uploadId` (bounded), and its preview; installed with plugins.installBundle. */
  'plugins.bundleFromUrl': { params: z.object({ uploadId: KnowledgeJobId, url: z.string().min(1).max(4096) }).strict(), result: BundlePreviewSchema },
  /**
   * A catalog entry's MCP Bundle (registryType mcpb): fetched by the host from the address the registry names, refused
   * unless its bytes have the entry's fileSha256, held as upload `uploadId`, and its preview; installed with plugins.installBundle.
   */
  'plugins.bundleFromCatalog': { params: z.object({ uploadId: KnowledgeJobId, entry: CatalogBundleSchema }).strict(), result: BundlePreviewSchema },
  /**
   * A bundle the desktop was asked to open (double-clicked, "Open with", `chatos serve --open FILE`): held as upload
   * `uploadId` and its preview, as a dropped file's; null when none waits. One ChatOS refused to open fails with the reason.
   */
  'plugins.takeOpenedBundle': {
    params: z.object({ uploadId: KnowledgeJobId }).strict(),
    result: z.object({ opened: z.object({ fileName: z.string(), preview: BundlePreviewSchema }).nullable() }),
  },
  /** What installing an uploaded plugin .zip (sent with plugins.bundleUploadPart) would do, as plugins.installPreview says for a path. */
  'plugins.zipPreview': { params: z.object({ uploadId: KnowledgeJobId }).strict(), result: z.object({ pluginId: z.string(), update: PluginUpdateSchema.optional() }) },
  /** Installs the uploaded plugin .zip, as plugins.install does a path: untrusted until trusted; over an installed copy only with `update`. */
  'plugins.installZip': {
    params: z.object({ uploadId: KnowledgeJobId, update: z.boolean().default(false) }).strict(),
    result: z.object({ pluginId: z.string(), dir: z.string(), leftOut: z.array(z.string()), updated: z.boolean().default(false) }),
  },
  /** The grants other apps have on what uninstalling the plugin removes (the confirm lists them). */
  'plugins.uninstallPreview': { params: z.object({ pluginId: Id }).strict(), result: z.object({ dir: z.string(), grants: z.array(DroppedGrantSchema) }) },
  'plugins.uninstall': { params: z.object({ pluginId: Id, purge: z.boolean().default(false) }).strict(), result: z.object({ removed: z.boolean() }) },

  /** Development links: `preview` says what linking a folder would run (nothing is linked); `link` links it in place and trusts it as a link. */
  'plugins.devPreview': {
    params: z.object({ dir: z.string().min(1).max(4096) }).strict(),
    result: z.object({ dir: z.string(), pluginId: z.string().optional(), runPlan: RunPlanSchema.optional(), problems: z.array(ProblemSchema) }),
  },
  'plugins.devLink': { params: z.object({ dir: z.string().min(1).max(4096) }).strict(), result: z.object({ pluginId: z.string(), dir: z.string(), added: z.boolean(), runPlan: RunPlanSchema }) },
  /** Unlinks by folder or plugin id: it stops, its trust and registrations (and the grants on them) go; the folder stays. */
  'plugins.devUnlink': { params: z.object({ target: z.string().min(1).max(4096) }).strict(), result: z.object({ dir: z.string(), pluginId: z.string().optional(), removed: z.array(z.string()) }) },

  /** A url for the app's page frame (its own origin, its plugin folder only). */
  'uiApps.open': { params: z.object({ pluginId: Id, appId: Id, surface: z.enum(['full', 'compact']).default('full') }).strict(), result: z.object({ url: z.string(), entry: z.string() }) },
  /** A page's `host.tools.call`: only its own server's tools, through the gateway. */
  'uiApps.callTool': {
    params: z.object({ pluginId: Id, appId: Id, tool: Id, args: JsonObject.default({}), conversationId: ConversationId.default('ui') }).strict(),
    result: ToolOutcomeSchema,
  },
  /**
   * An app's page that is an MCP App (docs/plugins/pages.md#a-page-that-is-an-mcp-app): its `ui://` view read from
   * the app's own server with the app as the caller, as `mcpApps.view` reads one (linked by a tool, the MIME type, the
   * size); refused while its plugin may not run. `serverId`: the server its `tools/call`s go to.
   */
  'uiApps.mcpAppView': {
    params: z.object({ pluginId: Id, appId: Id, conversationId: ConversationId }).strict(),
    result: McpAppViewSchema.extend({ serverId: z.string(), resourceUri: z.string() }),
  },
  /** A `tools/call` of that page: as `mcpApps.callTool`, the app as the caller, only a tool of its own server that apps may see. */
  'uiApps.mcpAppCall': {
    params: z.object({ pluginId: Id, appId: Id, conversationId: ConversationId, tool: Id, args: JsonObject.default({}) }).strict(),
    result: ToolOutcomeSchema,
  },
  /** A `resources/read` of that page: as `mcpApps.readResource`, the app as the caller, only its own server. */
  'uiApps.mcpAppReadResource': { params: z.object({ pluginId: Id, appId: Id, conversationId: ConversationId, uri: ResourceUri }).strict(), result: ResourceReadSchema },
  /** Its `resources/list` and `resources/templates/list`: its own server's, the app as the caller. */
  'uiApps.mcpAppListResources': { params: z.object({ pluginId: Id, appId: Id, conversationId: ConversationId }).strict(), result: ResourceListingSchema },
  /** A page's `host.chat.*` (the original page API): only its own app's agents and their conversations. */
  'uiApps.chat': { params: z.object({ pluginId: Id, appId: Id, request: PageChatRequestSchema }).strict(), result: JsonObject },
  'uiApps.invokeBackend': { params: z.object({ pluginId: Id, appId: Id, method: Id, params: z.unknown().optional() }).strict(), result: BackendReply },
  /** A page's `host.registry.list()`: the registry as its app may see it (scoped in the core). */
  'uiApps.registry': { params: z.object({ pluginId: Id, appId: Id }).strict(), result: PageRegistryViewSchema },
  /**
   * A provider app's `registry.registerMcpServer(providerAppId, serverConfig)` from its page
   * (docs/rules/registry.md#the-push-api): only under its own app id, the name derived, nothing granted.
   * `server` is checked in the core, so a refusal names the field and the fix.
   */
  'uiApps.registerMcpServer': { params: z.object({ pluginId: Id, appId: Id, providerAppId: Id, server: z.unknown() }).strict(), result: z.object({ id: z.string() }) },
  /** Its `registry.registerPrompt(providerAppId, promptConfig)`, checked the same way. */
  'uiApps.registerPrompt': { params: z.object({ pluginId: Id, appId: Id, providerAppId: Id, prompt: z.unknown() }).strict(), result: z.object({ id: z.string() }) },

  'agents.list': { params: Empty, result: z.object({ agents: z.array(AgentSchema) }) },
  /** Creates (no `id`) or replaces the agent `id`. Invalid input fails with `fields`. */
  'agents.save': { params: z.object({ id: Id.optional(), agent: JsonObject }).strict(), result: z.object({ agent: AgentSchema }) },
  'agents.delete': { params: z.object({ id: Id }).strict(), result: z.object({ deleted: z.boolean() }) },
  /** Creates the ready assistant for a model (docs/using/agents.md#a-ready-assistant): built-in apps and the user's own servers, in the user's language. */
  'agents.createReady': { params: z.object({ modelId: Id, language: z.enum(['zh', 'en']) }).strict(), result: z.object({ agent: AgentSchema }) },
  /** Adds a ready built-in tool (time, fetch, calculator) or the settings assistant (`settings`) to one agent: switched on if off, picked for that agent only. */
  'agents.addBuiltin': { params: z.object({ agentId: Id, name: Id }).strict(), result: z.object({ agent: AgentSchema }) },
  /** What a draft would get: its tools for main and sub, its prompt text; nothing is saved or started. */
  'agents.preview': { params: z.object({ agent: JsonObject }).strict(), result: AgentPreviewSchema },
  /** An agent's memories (docs/using/agents.md#memory): newest first, or those matching `query` by words, best first. */
  'memory.list': {
    params: z.object({ agentId: Id, query: z.string().max(MAX_MEMORY_QUERY_CHARS).optional(), limit: z.number().int().min(1).max(MAX_MEMORIES).optional() }).strict(),
    result: AgentMemoryListingSchema,
  },
  /** A memory the user adds, edits or removes on the Memory tab; a text over MAX_MEMORY_CHARS is refused (MEMORY_TOO_LARGE). */
  'memory.remember': { params: z.object({ agentId: Id, text: MemoryTextParam }).strict(), result: z.object({ memory: MemorySchema }) },
  'memory.update': { params: z.object({ agentId: Id, id: MemoryIdSchema, text: MemoryTextParam }).strict(), result: z.object({ memory: MemorySchema }) },
  'memory.forget': { params: z.object({ agentId: Id, id: MemoryIdSchema }).strict(), result: z.object({ memory: MemorySchema }) },

  /** The user's settings (docs/using/settings.md) with the data home, the version and the host's limits. */
  'settings.get': { params: Empty, result: SettingsViewSchema },
  /** Changes settings: given fields set, `null` unset; checked in the core (an unknown field, a value out of range, a missing agent or model: INVALID with `fields`). Emits settings.changed. */
  'settings.update': { params: z.object({ patch: JsonObject }).strict(), result: SettingsViewSchema },

  /** Model entries; a key is shown only as where it comes from and whether it is set. */
  'models.list': { params: Empty, result: z.object({ models: z.array(ModelViewSchema), keyStore: KeyStoreSchema }) },
  'models.presets': { params: Empty, result: z.object({ presets: z.array(ModelPresetSchema) }) },
  /** Creates (no `id`) or replaces the entry `id`. `apiKey` goes straight to the key store and is never sent back. Invalid input fails with `fields`. */
  'models.save': { params: z.object({ id: Id.optional(), model: JsonObject, apiKey: z.string().min(1).max(16_384).optional() }).strict(), result: z.object({ model: ModelViewSchema }) },
  'models.remove': { params: z.object({ id: Id }).strict(), result: z.object({ removed: z.boolean() }) },
  /** One tiny streamed request; a provider failure is `ok: false` with its code, a missing key or entry an error. */
  'models.test': { params: z.object({ id: Id }).strict(), result: ModelTestResultSchema },
  /**
   * The model names a provider offers, for the model picker: of a saved entry (`id`, with its key), or
   * of what the editor holds before it is saved (`api`, `baseUrl`, and the key typed, if any).
   */
  /** What a model name suggests (docs/using/models.md#kinds): the Models form shows it while the user has not chosen. */
  'models.guess': {
    params: z.object({ api: ApiKindSchema, model: z.string().max(256) }).strict(),
    result: z.object({ kind: ModelKindSchema, reasoning: z.boolean() }),
  },

  'models.available': {
    params: z
      .object({ id: Id.optional(), api: ApiKindSchema.optional(), baseUrl: z.string().max(2048).optional(), apiKey: z.string().min(1).max(16_384).optional() })
      .strict()
      .refine((p) => p.id !== undefined || (p.api !== undefined && p.baseUrl !== undefined), { error: 'give id (a saved entry) or api and baseUrl', path: ['id'] }),
    result: ModelCatalogSchema,
  },

  'registry.overview': {
    params: Empty,
    result: z.object({
      apps: z.array(AppRegistrationSchema),
      servers: z.array(RegistryMcpServerSchema),
      prompts: z.array(RegistryPromptSchema),
      grants: z.array(GrantSchema.extend({ kind: z.enum(['server', 'prompt']) })),
      /** Per app: the ids it may see (own + granted; everything for the owner). */
      visible: z.record(z.string(), z.object({ servers: z.array(z.string()), prompts: z.array(z.string()) })),
      owner: z.string(),
      /** Servers and prompts of plugins that may not run now (untrusted, changed, blocked): listed here, offered to no one. */
      notRunnable: z.array(z.object({ id: z.string(), code: z.string(), message: z.string() })),
    }),
  },
  'registry.grant': { params: z.object({ appId: Id, id: Id }).strict(), result: z.object({ result: z.enum(['created', 'unchanged']) }) },
  /** Plugin servers and prompts copied into the host's own lists, and the switch (`syncAiContributes`) that copies them. */
  'registry.copies': { params: Empty, result: ContributionCopiesSchema },
  'registry.setSyncAiContributes': { params: z.object({ enabled: z.boolean() }).strict(), result: ContributionCopiesSchema },
  'registry.revoke': { params: z.object({ appId: Id, id: Id }).strict(), result: z.object({ removed: z.boolean() }) },
  /** Registrations whose plugin or origin is gone (marked missing), with their grants: listed, and removed with `apply`. */
  'registry.prune': { params: z.object({ apply: z.boolean().default(false) }).strict(), result: PruneResultSchema.extend({ applied: z.boolean() }) },

  /** Plugin roots: built-in, user, remembered for every process, and this process's own. */
  'roots.list': { params: Empty, result: z.object({ roots: z.array(PluginRootViewSchema), problems: z.array(ProblemSchema) }) },
  'roots.add': { params: z.object({ dir: z.string().min(1).max(4096) }).strict(), result: z.object({ dir: z.string(), added: z.boolean(), plugins: z.array(z.string()) }) },
  'roots.remove': { params: z.object({ dir: z.string().min(1).max(4096) }).strict(), result: z.object({ dir: z.string(), missing: z.array(z.string()) }) },

  'servers.list': { params: Empty, result: z.object({ servers: z.array(ServerViewSchema) }) },
  /** Lists a server's tools (starting it if it has not listed them yet). */
  'servers.tools': { params: z.object({ serverId: Id }).strict(), result: z.object({ tools: z.array(ServerToolSchema), problems: z.array(ProblemSchema) }) },
  'servers.restart': { params: z.object({ serverId: Id }).strict(), result: z.object({ restarted: z.number() }) },
  'servers.log': { params: z.object({ serverId: Id }).strict(), result: z.object({ lines: z.array(z.string()) }) },
  'servers.setEnabled': { params: z.object({ serverId: Id, enabled: z.boolean() }).strict(), result: Empty },
  'servers.setToolEnabled': { params: z.object({ serverId: Id, tool: Id, enabled: z.boolean() }).strict(), result: Empty },
  /** Sets the level a server sends its log messages from (`logging/setLevel`), now and at each start; null: its own default. */
  'servers.setLogLevel': { params: z.object({ serverId: Id, level: LogLevelSchema.nullable() }).strict(), result: z.object({ applied: z.number(), notLogging: z.number() }) },
  'servers.setPermission': { params: z.object({ serverId: Id, tool: Id, level: PermissionLevelSchema.nullable() }).strict(), result: Empty },

  /** The user's MCP servers (mcp.yaml): edited through the core, which keeps the file's comments; stored values never come back. Invalid input fails with `fields` (`url`, `env[0].key`…). */
  'mcpServers.list': { params: Empty, result: McpServerListSchema },
  'mcpServers.add': { params: z.object({ server: JsonObject }).strict(), result: z.object({ server: McpServerEntryViewSchema }) },
  'mcpServers.update': { params: z.object({ name: Id, server: JsonObject }).strict(), result: z.object({ server: McpServerEntryViewSchema }) },
  'mcpServers.remove': {
    params: z.object({ name: Id }).strict(),
    result: z.object({ removed: z.string(), storedValuesRemoved: z.number(), grantsRevoked: z.number(), agentsChanged: z.array(z.string()) }),
  },
  'mcpServers.setDisabled': { params: z.object({ name: Id, disabled: z.boolean() }).strict(), result: z.object({ server: McpServerEntryViewSchema }) },
  /** Starts a saved server (`name`: of mcp.yaml, or a registry id) or a form not yet saved (`server`) once: its tools, or the coded reason it did not start. */
  'mcpServers.test': {
    params: z
      .object({ name: Id.optional(), server: JsonObject.optional(), timeoutMs: z.number().int().min(1000).max(600_000).optional() })
      .strict()
      .refine((p) => (p.name === undefined) !== (p.server === undefined), { error: 'give name (a saved server) or server (a form), one of the two', path: ['name'] }),
    result: McpTestResultSchema,
  },
  /** What importing another client's config would do (adds, conflicts, refusals); nothing is written. */
  'mcpServers.importPlan': {
    params: z
      .object({
        text: z
          .string()
          .min(1)
          .max(4 * 1024 * 1024),
        fileName: z.string().max(4096).optional(),
        storeSecrets: z.boolean().default(true),
      })
      .strict(),
    result: ImportPlanSchema,
  },
  'mcpServers.importApply': {
    params: z
      .object({
        text: z
          .string()
          .min(1)
          .max(4 * 1024 * 1024),
        fileName: z.string().max(4096).optional(),
        options: ImportApplyOptionsSchema.default({ choices: [], onConflict: 'skip', storeSecrets: true }),
      })
      .strict(),
    result: ImportResultSchema,
  },
  'mcpServers.templates': { params: Empty, result: z.object({ templates: z.array(McpTemplateSchema) }) },
  // The MCP server catalog (docs/rules/catalog.md): the core checks the add (CatalogAddSchema) as it checks mcpServers.add's server.
  'catalog.search': { params: CatalogSearchSchema, result: CatalogPageSchema },
  'catalog.show': { params: z.object({ name: z.string().min(1).max(200), registry: z.string().max(2048).optional() }).strict(), result: z.object({ entry: CatalogEntryViewSchema }) },
  'catalog.add': { params: z.object({ request: JsonObject }).strict(), result: CatalogAddResultSchema },
  'mcpServers.addTemplate': {
    params: z.object({ templateId: Id, name: Id.optional(), params: z.record(z.string(), z.string().max(4096)).default({}) }).strict(),
    result: z.object({ server: McpServerEntryViewSchema }),
  },
  /** The built-in tools (time, fetch, calculator), each with its switch: on, it is registered as chatos::<name>. */
  'mcpServers.builtins': { params: Empty, result: z.object({ builtins: z.array(BuiltinToolViewSchema) }) },
  'mcpServers.setBuiltin': { params: z.object({ name: Id, change: BuiltinToolChangeSchema }).strict(), result: z.object({ builtin: BuiltinToolViewSchema }) },
  /** Signs in to a remote server (OAuth): answers when the browser came back, with the server's view (its sign-in state). */
  'mcpServers.signIn': { params: z.object({ name: Id }).strict(), result: z.object({ server: McpServerEntryViewSchema }) },
  /** Ends a sign-in that is waiting for the browser. */
  'mcpServers.cancelSignIn': { params: z.object({ name: Id }).strict(), result: z.object({ cancelled: z.boolean() }) },
  /** Forgets a remote server's tokens and registration. */
  'mcpServers.signOut': { params: z.object({ name: Id }).strict(), result: z.object({ server: McpServerEntryViewSchema }) },

  /** The host's own prompts (zh/en pairs), registered under `chatos`; `setGrant` grants both texts to an app. */
  'prompts.list': { params: Empty, result: z.object({ prompts: z.array(HostPromptViewSchema), apps: z.array(z.string()) }) },
  'prompts.save': { params: z.object({ create: z.boolean(), prompt: JsonObject }).strict(), result: z.object({ prompt: HostPromptViewSchema }) },
  'prompts.remove': { params: z.object({ name: Id }).strict(), result: z.object({ removed: z.boolean(), revokedGrants: z.number() }) },
  'prompts.setGrant': { params: z.object({ name: Id, appId: Id, granted: z.boolean() }).strict(), result: z.object({ prompt: HostPromptViewSchema }) },

  /** Knowledge bases (see docs/using/knowledge.md): every change is announced as knowledge.changed; adds report knowledge.progress under their jobId. */
  'knowledge.list': { params: Empty, result: z.object({ knowledgeBases: z.array(KnowledgeBaseSchema) }) },
  'knowledge.create': { params: z.object({ base: JsonObject }).strict(), result: z.object({ knowledgeBase: KnowledgeBaseSchema }) },
  /** A new embedding model re-embeds every chunk (progress under jobId, cancellable). */
  'knowledge.update': { params: z.object({ id: Id, patch: JsonObject, jobId: KnowledgeJobId.optional() }).strict(), result: z.object({ knowledgeBase: KnowledgeBaseSchema }) },
  'knowledge.delete': { params: z.object({ id: Id }).strict(), result: z.object({ deleted: z.string() }) },
  'knowledge.documents': {
    params: z.object({ id: Id, file: z.string().max(300).optional(), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(500).default(50) }).strict(),
    result: DocumentPageSchema,
  },
  'knowledge.search': {
    params: z.object({ id: Id, query: z.string().min(1).max(MAX_QUERY_CHARS), limit: z.number().int().min(1).max(50).default(5) }).strict(),
    result: SearchResultSchema.extend({ note: z.string().optional() }),
  },
  /** One part of a file being uploaded, at its byte offset (parts in order); the file is added with addUpload. */
  'knowledge.uploadPart': {
    params: z.object({ uploadId: KnowledgeJobId, offset: z.number().int().min(0), data: z.string().max(KNOWLEDGE_UPLOAD_PART_CHARS) }).strict(),
    result: z.object({ received: z.number() }),
  },
  'knowledge.addUpload': { params: z.object({ id: Id, uploadId: KnowledgeJobId, name: z.string().min(1).max(300), jobId: KnowledgeJobId }).strict(), result: AddResultSchema },
  /** Several uploaded files as one change (the base written once): a drop of many files. */
  'knowledge.addUploads': {
    params: z
      .object({
        id: Id,
        uploads: z
          .array(z.object({ uploadId: KnowledgeJobId, name: z.string().min(1).max(300) }).strict())
          .min(1)
          .max(MAX_UPLOADS_PER_ADD),
        jobId: KnowledgeJobId,
      })
      .strict(),
    result: z.object({ added: z.array(AddResultSchema) }),
  },
  'knowledge.addText': { params: z.object({ id: Id, title: z.string().max(200).default('text'), text: z.string().min(1).max(900_000), jobId: KnowledgeJobId }).strict(), result: AddResultSchema },
  /** Cancels a running add or re-embed: nothing of it is kept. */
  'knowledge.cancel': { params: z.object({ jobId: KnowledgeJobId }).strict(), result: z.object({ cancelled: z.boolean() }) },
  'knowledge.removeDocument': {
    params: z
      .object({ id: Id, file: z.string().min(1).max(300).optional(), chunkId: z.string().min(1).max(64).optional() })
      .strict()
      .refine((p) => (p.file === undefined) !== (p.chunkId === undefined), { error: 'give file (all its chunks) or chunkId (one chunk), one of the two', path: ['file'] }),
    result: z.object({ removed: z.number() }),
  },

  'tools.list': {
    params: z.object({ agentId: Id, flow: FlowSchema.default('main'), conversationId: ConversationId }).strict(),
    result: z.object({ tools: z.array(ToolViewSchema), problems: z.array(ProblemSchema), reminders: z.array(z.string()) }),
  },
  /** With `callId` (the face's own id for this call): the server's progress arrives as `tool.progress` events, and `tools.cancel` cancels it. */
  'tools.call': {
    params: z.object({ agentId: Id, flow: FlowSchema.default('main'), conversationId: ConversationId, tool: Id, args: JsonObject.default({}), callId: CallId.optional() }).strict(),
    result: ToolOutcomeSchema,
  },
  /** The MCP prompts of the servers the agent may use in this conversation, or in a chat not started yet (slash commands, docs/using/slash-commands.md). */
  'mcpPrompts.list': {
    params: z.object({ agentId: Id, conversationId: ConversationId.optional() }).strict(),
    result: z.object({ prompts: z.array(McpPromptSchema), problems: z.array(ProblemSchema) }),
  },
  /** One prompt got with its arguments, as the messages to send (checked and bounded by the host, audited). */
  'mcpPrompts.get': {
    params: z.object({ agentId: Id, conversationId: ConversationId.optional(), serverId: Id, name: z.string().min(1).max(200), arguments: PromptArgsSchema.default({}) }).strict(),
    result: z.object({ prompt: GotPromptSchema }),
  },
  /**
   * Gets one prompt (as mcpPrompts.get) and sends it into the conversation (docs/using/slash-commands.md#what-is-sent):
   * its user messages as the user's, their images attached; its assistant turns stored as the prompt's; then a turn.
   * What could not be sent is said at the end of its last user message. Returns once stored. No conversation: it starts one.
   */
  'chat.sendPrompt': {
    params: z.object({ agentId: Id, conversationId: ConversationIdSchema.optional(), serverId: Id, name: z.string().min(1).max(200), arguments: PromptArgsSchema.default({}) }).strict(),
    result: z.object({ conversationId: z.string(), userMessageId: z.string() }),
  },
  /** The server's suggestions for one argument of a prompt as the user types it (completion/complete, ref/prompt). */
  'mcpPrompts.complete': {
    params: z
      .object({
        agentId: Id,
        conversationId: ConversationId.optional(),
        serverId: Id,
        name: z.string().min(1).max(200),
        argument: z.object({ name: z.string().min(1).max(200), value: z.string().max(MAX_COMPLETE_CHARS) }).strict(),
        context: PromptArgsSchema.default({}),
      })
      .strict(),
    result: z.object({ values: z.array(z.string()), hasMore: z.boolean() }),
  },
  /**
   * An MCP App view (docs/rules/mcp-apps.md#the-view), read for the caller: only one a tool it is offered links to,
   * only `text/html;profile=mcp-app`, at most its server's maxViewBytes (16 MiB by default). `url`: the view's sandbox
   * proxy, which a frame loads and which frames the view under the CSP it declared (narrowed; `dropped` names what was
   * left out of it).
   */
  'mcpApps.view': {
    params: z.object({ agentId: Id, flow: FlowSchema.default('main'), conversationId: ConversationId, serverId: Id, uri: z.string().min(1).max(2048) }).strict(),
    result: McpAppViewSchema,
  },
  /**
   * A `tools/call` of an MCP App's view: a tool of its own server (by the name the server knows it) that apps may
   * see, through the gateway as the caller (grants, confirmation, audit); rate-limited per app (APP_CALL_RATE_LIMITED).
   */
  'mcpApps.callTool': {
    params: z.object({ agentId: Id, flow: FlowSchema.default('main'), conversationId: ConversationId, serverId: Id, tool: Id, args: JsonObject.default({}) }).strict(),
    result: ToolOutcomeSchema,
  },
  /**
   * A `resources/read` of an MCP App's view: a resource of its own server, through the host's resource path as the
   * caller (its access checked, audited), its text whole (a view reads data; the transport bounds one message).
   */
  'mcpApps.readResource': {
    params: z.object({ agentId: Id, flow: FlowSchema.default('main'), conversationId: ConversationId, serverId: Id, uri: ResourceUri }).strict(),
    result: ResourceReadSchema,
  },
  /** A view's `resources/list` and `resources/templates/list`: its own server's, as the caller sees them. */
  'mcpApps.listResources': {
    params: z.object({ agentId: Id, flow: FlowSchema.default('main'), conversationId: ConversationId, serverId: Id }).strict(),
    result: ResourceListingSchema,
  },
  /** Cancels a `tools.call` made with this `callId` while it runs: the MCP request is aborted (the server is told); the call fails with CALL_ABORTED. */
  'tools.cancel': { params: z.object({ callId: CallId }).strict(), result: z.object({ cancelled: z.boolean() }) },
  /** A server's resources for an agent's caller (docs/using/resources.md): its access checked as for a tool call. */
  /** The servers an agent may use in a flow (their resources may be listed): id and name, in id order. */
  'resources.servers': { params: ResourceCallerParams.strict(), result: z.object({ servers: z.array(z.object({ serverId: z.string(), name: z.string() })) }) },
  /** A template filled with values (only `{name}` and `{+name}`; no ".." segment): the uri, or INVALID saying which value. */
  'resources.fill': {
    params: z.object({ uriTemplate: ResourceUri, values: z.record(z.string(), z.string().max(8192)) }).strict(),
    result: z.object({ uri: z.string() }),
  },
  'resources.list': { params: ResourceCallerParams.extend({ serverId: Id }).strict(), result: ResourceListingSchema },
  /** One resource's contents within the server's result-size cap (a blob as base64 with its mimeType); audited like a read tool's call. */
  'resources.read': { params: ResourceCallerParams.extend({ serverId: Id, uri: ResourceUri }).strict(), result: ResourceReadSchema },
  /** Subscribes the conversation's instance to a resource's updates (or ends it): `server.resources` events follow. */
  'resources.subscribe': { params: ResourceCallerParams.extend({ serverId: Id, uri: ResourceUri, subscribed: z.boolean() }).strict(), result: z.object({ subscribed: z.boolean() }) },
  /** Values the server suggests for one argument of a template (`completion/complete`). */
  'resources.complete': {
    params: ResourceCallerParams.extend({
      serverId: Id,
      uriTemplate: ResourceUri,
      name: z.string().min(1).max(256),
      value: z.string().max(8192),
      context: z.record(z.string(), z.string().max(8192)).default({}),
    }).strict(),
    result: z.object({ values: z.array(z.string()) }),
  },
  'conversations.end': { params: z.object({ conversationId: ConversationId }).strict(), result: z.object({ released: z.number() }) },
  /**
   * A conversation's workspace roots (a chat's or the Playground's): the folders its servers are told, and whether they are
   * its own rather than its agent's. `agentId`: the agent a conversation the chat does not store (the Playground's) is used with.
   */
  'conversations.roots': { params: z.object({ conversationId: ConversationId, agentId: Id.optional() }).strict(), result: ConversationRootsSchema },
  /** Sets a conversation's own workspace roots (null: its agent's again); each must be an absolute path to a folder that exists. Its running servers are told. */
  'conversations.setRoots': {
    params: z.object({ conversationId: ConversationId, roots: z.array(z.string().max(4096)).max(256).nullable() }).strict(),
    result: ConversationRootsSchema,
  },

  /** Stored conversations, newest activity first (sub-agent runs only with includeChildren). */
  'conversations.list': { params: z.object({ agentId: Id.optional(), includeChildren: z.boolean().default(false) }).strict(), result: z.object({ conversations: z.array(ConversationSchema) }) },
  /**
   * One conversation: its active branch, where it branches, its sub-agent
   * runs. With `limit`, a window of the branch (the newest messages, or
   * those before, after or around one; `window` says where it sits), so a
   * conversation of any length opens at once; without, the whole branch.
   */
  'conversations.get': {
    params: z
      .object({
        id: ConversationIdSchema,
        limit: z.number().int().min(1).max(500).optional(),
        around: MessageIdSchema.optional(),
        before: MessageIdSchema.optional(),
        after: MessageIdSchema.optional(),
        leafId: MessageIdSchema.optional(),
      })
      .strict()
      .refine((p) => p.limit !== undefined || (p.around ?? p.before ?? p.after ?? p.leafId) === undefined, { error: 'around, before, after and leafId need a limit', path: ['limit'] })
      .refine((p) => [p.around, p.before, p.after].filter((x) => x !== undefined).length <= 1, { error: 'give at most one of around, before and after', path: ['around'] }),
    result: ConversationViewSchema,
  },
  'conversations.create': { params: z.object({ agentId: Id, title: z.string().max(500).default('') }).strict(), result: z.object({ conversation: ConversationSchema }) },
  'conversations.rename': { params: z.object({ id: ConversationIdSchema, title: z.string().max(500) }).strict(), result: z.object({ conversation: ConversationSchema }) },
  /** Stops it, releases its server instances and approvals (and its sub-agent runs'), removes it. */
  'conversations.delete': { params: z.object({ id: ConversationIdSchema }).strict(), result: z.object({ deleted: z.boolean(), released: z.number() }) },
  /** Shows another branch: the one through `messageId` (a sibling from `siblings`), to its newest message. */
  'conversations.setBranch': { params: z.object({ id: ConversationIdSchema, messageId: MessageIdSchema }).strict(), result: ConversationViewSchema },
  /** Titles and user/assistant text of every conversation, case-insensitive. */
  'conversations.search': {
    params: z.object({ text: z.string().min(1).max(500), limit: z.number().int().min(1).max(500).default(50) }).strict(),
    result: z.object({ hits: z.array(SearchHitSchema) }),
  },
  'conversations.export': {
    params: z.object({ id: ConversationIdSchema, format: ExportFormatSchema.default('md') }).strict(),
    result: z.object({ filename: z.string(), mimeType: z.string(), text: z.string() }),
  },

  /**
   * Sends a user message and starts the turn; returns at once. Progress
   * arrives as chat.* events for `conversationId`. A new conversation with
   * `agentId` when no `conversationId` is given. The turn runs in the host:
   * a page or socket that goes away does not stop it.
   */
  'chat.send': {
    params: z
      .object({
        conversationId: ConversationIdSchema.optional(),
        agentId: Id.optional(),
        text: z.string().max(200_000),
        /** Ids chat.attach returned: the message carries those files. */
        attachments: z.array(Id).max(10).optional(),
        /** Switch the conversation to this chat model first (a new chat's pick, e.g. one that reads the attached image). */
        modelId: Id.optional(),
      })
      .strict()
      .refine((p) => p.conversationId !== undefined || p.agentId !== undefined, { error: 'give conversationId (to continue one) or agentId (to start one)', path: ['agentId'] })
      .refine((p) => p.text.length > 0 || (p.attachments?.length ?? 0) > 0, { error: 'write a message, or attach a file', path: ['text'] }),
    result: z.object({ conversationId: z.string(), userMessageId: z.string() }),
  },
  /**
   * A message an app posts into a conversation (docs/rules/app-messages.md): an MCP App's `ui/message`, a canvas
   * form's submit. It starts the next turn as a user message would, shown as the app's and sent to the model
   * marked as data from it. The face names `source` from what it hosts; refused (APP_MESSAGE_TOO_LARGE,
   * APP_MESSAGE_RATE_LIMITED, CONVERSATION_BUSY) with a hint. Returns at once.
   */
  'chat.postAppMessage': {
    params: z.object({ conversationId: ConversationIdSchema, source: AppSourceSchema, text: z.string().max(200_000), state: z.unknown().optional() }).strict(),
    result: z.object({ conversationId: z.string(), messageId: z.string() }),
  },
  /**
   * What an app's view tells the model without starting a turn (docs/rules/app-messages.md#context-from-an-app):
   * an MCP App's `ui/update-model-context`. It overwrites the app's previous update and goes with the
   * conversation's next message; `content` keeps text blocks (others are named), `structuredContent` goes as
   * JSON, cut past 20,000 characters with a note. The face names `source` from what it hosts. `pending`: false
   * when the update said nothing (the app's context is cleared). Refused: CONVERSATION_NOT_FOUND, APP_CONTEXT_LIMIT.
   */
  'chat.setAppContext': {
    params: z
      .object({
        conversationId: ConversationIdSchema,
        source: AppSourceSchema,
        content: z
          .array(z.object({ type: z.string().min(1).max(100), text: z.string().max(200_000).optional() }))
          .max(1000)
          .optional(),
        structuredContent: z.record(z.string(), z.unknown()).optional(),
      })
      .strict(),
    result: z.object({ pending: z.boolean() }),
  },
  /**
   * One part of a file being attached to a message, at its byte offset
   * (parts in order); `size` is the whole file's, so a file too large is
   * refused at its first part. The whole file is then read by chat.attach.
   */
  'chat.uploadPart': {
    params: z
      .object({ uploadId: KnowledgeJobId, offset: z.number().int().min(0), data: z.string().max(KNOWLEDGE_UPLOAD_PART_CHARS), name: z.string().min(1).max(300), size: z.number().int().min(0) })
      .strict(),
    result: z.object({ received: z.number() }),
  },
  /**
   * Reads an uploaded file as an attachment (docs/using/chat.md#attachments): an image, or a
   * document's text; refused, naming the file and the fix, when it cannot
   * be sent. It waits (30 minutes at most) for the chat.send that names it.
   */
  /**
   * A server's resource (read as an agent's caller, its access checked) to attach to the next message, like a file
   * (docs/using/resources.md#mention). `conversationId`: the conversation it is for; none for a chat not started yet.
   */
  'chat.attachResource': {
    params: z.object({ agentId: Id, conversationId: ConversationIdSchema.optional(), serverId: Id, uri: ResourceUri }).strict(),
    result: z.object({ attachment: PendingAttachmentSchema }),
  },
  'chat.attach': { params: z.object({ uploadId: KnowledgeJobId, name: z.string().min(1).max(300) }).strict(), result: z.object({ attachment: PendingAttachmentSchema }) },
  /** Forgets an attachment not sent yet (the user removed it). */
  'chat.detach': { params: z.object({ id: Id }).strict(), result: z.object({ discarded: z.boolean() }) },
  /** Stops the running turn: the stream is aborted, tool calls in flight cancelled, waiting confirmations declined; the partial answer is kept. */
  'chat.stop': { params: z.object({ conversationId: ConversationIdSchema }).strict(), result: z.object({ stopped: z.boolean() }) },
  /** Cancels one running tool call of the conversation (its MCP request aborted, the server told); the turn goes on with the call marked cancelled. */
  'chat.cancelCall': { params: z.object({ conversationId: ConversationIdSchema, callId: Id }).strict(), result: z.object({ cancelled: z.boolean() }) },
  /** Continues a stopped conversation from where it stopped; `summarize`: older turns are summarized first (the provider said it is too long). */
  'chat.resume': { params: z.object({ conversationId: ConversationIdSchema, summarize: z.boolean().optional() }).strict(), result: z.object({ conversationId: z.string() }) },
  /** Goes on with an answer the model cut at its token limit: a new answer that carries on from where it stopped. */
  'chat.continue': { params: z.object({ conversationId: ConversationIdSchema }).strict(), result: z.object({ conversationId: z.string() }) },
  /** Switches the model that answers in this conversation from the next request on (null: back to the agent's); recorded on the conversation. */
  'chat.setModel': { params: z.object({ conversationId: ConversationIdSchema, modelId: Id.nullable() }).strict(), result: z.object({ conversation: ConversationSchema }) },
  /** A new answer to the last user message (or the one before `messageId`), beside the old one. */
  'chat.regenerate': { params: z.object({ conversationId: ConversationIdSchema, messageId: MessageIdSchema.optional() }).strict(), result: z.object({ conversationId: z.string() }) },
  /** Edits a sent user message: a new branch from it; the old branch stays reachable. */
  'chat.edit': {
    params: z.object({ conversationId: ConversationIdSchema, messageId: MessageIdSchema, text: z.string().min(1).max(200_000) }).strict(),
    result: z.object({ conversationId: z.string(), userMessageId: z.string() }),
  },

  /** "Always allow" answers (confirm-level tools an agent runs without asking). */
  'alwaysAllow.list': { params: z.object({ agentId: Id.optional() }).strict(), result: z.object({ entries: z.array(AlwaysAllowEntrySchema) }) },
  'alwaysAllow.revoke': { params: z.object({ agentId: Id, toolName: Id }).strict(), result: z.object({ revoked: z.boolean() }) },

  /**
   * Everything the host waits on the person for (docs/rules/questions.md): tools' confirmations, servers' questions
   * (elicitation) and servers' sampling requests (waiting for review, their model, or the send), oldest first.
   */
  'questions.list': { params: Empty, result: z.object({ pending: z.array(QuestionSchema) }) },
  /**
   * The person's answer, of the question's kind: a confirmation's approval and its scope; a server's question's action
   * (an accepted form is checked against its fields: INVALID with `fields` naming each, and the question stays); a
   * sampling request's approve (with edits, checked against its bounds: INVALID; `always` remembers the server), send
   * or decline. `answered` is false for a question no longer waiting (answered, expired, withdrawn), an answer of another
   * kind, or one its step has not (send before the completion is shown).
   */
  'questions.respond': { params: z.object({ id: Id, answer: QuestionAnswerSchema }).strict(), result: z.object({ answered: z.boolean() }) },
  /** Whether the user chose "always allow" for this server's sampling requests. */
  'sampling.alwaysAllowed': { params: z.object({ serverId: z.string().min(1).max(512) }).strict(), result: z.object({ always: z.boolean() }) },
  /** Forgets "always allow" for this server: its next request is shown for review again. */
  'sampling.revoke': { params: z.object({ serverId: z.string().min(1).max(512) }).strict(), result: z.object({ always: z.literal(false) }) },

  'problems.list': { params: Empty, result: z.object({ problems: z.array(SourcedProblemSchema) }) },
  /** The doctor's checks, run in the host's process (the desktop app's PATH, Electron, …): the Diagnostics page. */
  'diagnostics.run': { params: Empty, result: DiagnosticsReportSchema },
  'audit.list': {
    params: z
      .object({
        limit: z.number().int().min(1).max(1000).default(100),
        appId: Id.optional(),
        agentId: Id.optional(),
        tool: Id.optional(),
        decision: AuditDecisionSchema.optional(),
        outcome: AuditOutcomeSchema.optional(),
      })
      .strict(),
    result: z.object({ records: z.array(AuditRecordSchema) }),
  },
} as const;

export type HostApiMethod = keyof typeof HostApiMethods;
export type HostApiParams<M extends HostApiMethod> = z.input<(typeof HostApiMethods)[M]['params']>;
export type HostApiResult<M extends HostApiMethod> = z.output<(typeof HostApiMethods)[M]['result']>;

export const HostApiErrorSchema = z.object({
  /** Stable code: BAD_REQUEST, UNKNOWN_METHOD, NOT_FOUND, NOT_ALLOWED, INVALID, FAILED, or a core error's own code. */
  code: z.string(),
  message: z.string(),
  hint: z.string().optional(),
  /** For INVALID input: which field and what is wrong, so a form can show it next to the field. */
  fields: z.array(z.object({ path: z.string(), message: z.string(), hint: z.string().optional() })).optional(),
});
export type HostApiError = z.infer<typeof HostApiErrorSchema>;

/** The envelope of every request and reply, over IPC and HTTP alike. */
export const HostApiRequestSchema = z.object({ method: z.string().min(1).max(64), params: z.unknown().optional() }).strict();
export type HostApiReply<M extends HostApiMethod = HostApiMethod> = { ok: true; result: HostApiResult<M> } | { ok: false; error: HostApiError };

/** Pushed to every face (WebSocket, IPC) as things change; the UI never polls. */
export const HostEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('plugins.changed'), reread: z.array(z.string()), removed: z.array(z.string()), problems: z.number() }),
  z.object({ type: z.literal('mcp.reloaded'), version: z.number(), added: z.array(z.string()), changed: z.array(z.string()), removed: z.array(z.string()) }),
  z.object({ type: z.literal('server.state'), serverId: z.string(), conversationId: z.string(), state: ConnectionStateSchema }),
  /** A server's user settings changed (a tool switched off or on, a permission overridden): tool lists and previews are stale. */
  z.object({ type: z.literal('server.settings'), serverId: z.string() }),
  /** A running server said its tool list changed, and the new list is what is offered now (no reload): tool lists and previews are stale. */
  z.object({ type: z.literal('server.tools'), serverId: z.string() }),
  /** A resource a conversation's instance subscribed to changed (`updated`, its uri), or the server's list did (`list`); coalesced. */
  z.object({ type: z.literal('server.resources'), serverId: z.string(), conversationId: z.string(), change: z.enum(['updated', 'list']), uri: z.string().optional() }),
  z.object({ type: z.literal('problems.changed'), count: z.number() }),
  /** The desktop was asked to open a bundle: the window takes it with plugins.takeOpenedBundle. */
  z.object({ type: z.literal('bundle.opened'), fileName: z.string() }),
  z.object({ type: z.literal('registry.changed') }),
  z.object({ type: z.literal('agents.changed') }),
  z.object({ type: z.literal('settings.changed') }),
  z.object({ type: z.literal('models.changed') }),
  /**
   * A question to the person (docs/rules/questions.md) was asked, moved on (a sampling request's model runs, or its
   * completion waits to be sent) or ended, with its outcome in its kind's words: a face shows it and answers with
   * `questions.respond`.
   */
  z.object({ type: z.literal('question'), change: z.enum(['asked', 'updated', 'resolved']), question: QuestionSchema, outcome: QuestionOutcomeSchema.optional() }),
  /**
   * A tool's confirmation under the names the specification gives them (docs/rules/confirmation.md#events): asked, and
   * declined because nobody answered in time. `uiApp` names the app whose
   * own server the tool is of, so its open pages get the event too.
   */
  z.object({ type: z.literal('mcp:tool_confirmation_required'), request: ToolConfirmationRequestSchema, uiApp: z.object({ pluginId: z.string(), appId: z.string() }).optional() }),
  z.object({ type: z.literal('mcp:tool_confirmation_expired'), id: z.string(), request: ToolConfirmationRequestSchema, uiApp: z.object({ pluginId: z.string(), appId: z.string() }).optional() }),
  /** A long operation (rescan, server start, install) started or ended. */
  z.object({ type: z.literal('progress'), op: z.string(), phase: z.enum(['start', 'done', 'error']), message: z.string().optional() }),
  /** A `tools.call` made with a `callId`: the server's latest progress notification. */
  z.object({ type: z.literal('tool.progress'), callId: z.string(), progress: z.number(), total: z.number().optional(), message: z.string().optional() }),
  /** A plugin's page files changed: open frames of it reload. */
  z.object({ type: z.literal('uiApp.changed'), pluginId: z.string() }),
  /** A development link was edited: pinned again, its page, servers and backend reload with the new code; what changed, for a notice. */
  z.object({ type: z.literal('plugins.devReloaded'), pluginId: z.string(), changes: TrustChangesSchema, runPlanChanged: z.boolean() }),
  /**
   * A call reached an app's own server (from any caller of this host): the app's open frames get `tool.called`.
   * `conversationId` and `agentId` say who called (a chat's side panel follows its own agent); `instanceId` and
   * `created` what the answer names (docs/using/side-panel.md).
   */
  z.object({
    type: z.literal('uiApp.toolCalled'),
    pluginId: z.string(),
    appId: z.string(),
    tool: z.string(),
    ok: z.boolean(),
    conversationId: z.string().optional(),
    agentId: z.string().optional(),
    instanceId: z.string().optional(),
    created: z.boolean().optional(),
  }),
  /** The next piece of an answer being written (message `messageId`, not stored until complete or stopped). */
  z.object({ type: z.literal('chat.delta'), conversationId: z.string(), messageId: z.string(), text: z.string() }),
  /** The next piece of what the model thinks before it answers (the Thinking block, live). */
  z.object({ type: z.literal('chat.reasoning'), conversationId: z.string(), messageId: z.string(), text: z.string(), fromAnswer: z.boolean().optional() }),
  /** A message was stored: a user message, a complete (or stopped) answer, a tool result, a summary of older turns. */
  /** `artifactUrls`: where the face serves the images the message carries (a user's attachments), by their path in the conversation's folder. */
  z.object({ type: z.literal('chat.message'), conversationId: z.string(), message: ConversationMessageSchema, artifactUrls: z.record(z.string(), z.string()).optional() }),
  /** A tool call started or finished (with its status, duration, result summary and image urls). */
  ToolCallEventSchema.extend({ type: z.literal('chat.toolCall') }),
  /** A turn is running (or retrying a request), stopped (why), or done; with the conversation's totals when it ends. */
  ChatStatusEventSchema.extend({ type: z.literal('chat.status') }),
  /** A knowledge base was created, changed (documents added or removed, settings) or deleted. */
  z.object({ type: z.literal('knowledge.changed'), knowledgeBaseId: z.string() }),
  /** How far an add or a re-embed is (its jobId as the page gave it). */
  IngestProgressSchema.extend({ type: z.literal('knowledge.progress'), jobId: z.string(), knowledgeBaseId: z.string() }),
  /** Conversations were created, renamed, deleted, or changed state: lists are stale. */
  z.object({ type: z.literal('conversations.changed') }),
  /** serve: a sign-in's page, for the user's page to open in a new tab (the desktop app opens it in the system browser). */
  z.object({
    type: z.literal('auth.openUrl'),
    name: z.string(),
    url: z
      .string()
      .url()
      .refine((url) => /^https?:/.test(url), { error: 'an http(s) url' }),
  }),
]);
export type HostEventMessage = z.infer<typeof HostEventSchema>;

/** Validates a request envelope and its params; the error names the field. */
export function parseRequest(raw: unknown): { ok: true; method: HostApiMethod; params: unknown } | { ok: false; error: HostApiError } {
  const envelope = HostApiRequestSchema.safeParse(raw);
  if (!envelope.success) return { ok: false, error: { code: 'BAD_REQUEST', message: 'a request is {"method": string, "params": object}', fields: fieldsOf(envelope.error) } };
  const { method } = envelope.data;
  if (!Object.hasOwn(HostApiMethods, method)) return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `unknown method "${method}"`, hint: `one of: ${Object.keys(HostApiMethods).join(', ')}` } };
  const spec = HostApiMethods[method as HostApiMethod];
  const params = spec.params.safeParse(envelope.data.params ?? {});
  if (!params.success)
    return {
      ok: false,
      error: {
        code: 'BAD_REQUEST',
        message: `bad params for ${method}: ${params.error.issues.map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`).join('; ')}`,
        fields: fieldsOf(params.error),
      },
    };
  return { ok: true, method: method as HostApiMethod, params: params.data };
}

export function fieldsOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
      .join('.')
      .replace(/\.\[/g, '['),
    message: issue.message,
  }));
}
