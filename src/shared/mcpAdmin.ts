import { z } from 'zod';
import { SignInStateSchema } from './mcpAuth.js';
import { NodeRuntimeChoiceSchema, ServerProtocolSchema } from './mcp.js';
import { EnvNameSchema } from './models.js';
import { ProblemSchema } from './problems.js';

/**
 * The user's MCP servers as the MCP servers page and `chatos mcp` edit them
 * (docs/rules/settings-server.md#categories: add, import, edit, delete): one form per server, turned
 * into an entry of `mcp.yaml` by the core, which keeps the file's comments
 * and order. Stored values never come back out: a view says only that one
 * is there.
 */

/** A server's name: its key under `servers:` in mcp.yaml; its registry id is `chatos::<name>`. */
export const MCP_SERVER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const McpServerNameSchema = z.string().regex(MCP_SERVER_NAME_PATTERN, {
  error: 'must start with a letter or digit and use only letters, digits, ".", "_" or "-" (at most 64), e.g. "github"',
});

/** One `env` or `headers` value as a form sets it. */
export const ValueInputSchema = z.discriminatedUnion('kind', [
  /** Written into mcp.yaml as it is. */
  z.object({ kind: z.literal('text'), text: z.string().max(16_384) }).strict(),
  /** `{ env: NAME }`: copied from the host's environment when the server starts. */
  z.object({ kind: z.literal('env'), name: EnvNameSchema }).strict(),
  /** Kept in the host's key store (like a model's key); no `value` keeps the one stored. */
  z.object({ kind: z.literal('secret'), value: z.string().min(1).max(16_384).optional() }).strict(),
]);
export type ValueInput = z.infer<typeof ValueInputSchema>;

export const NamedValueInputSchema = z.object({ key: z.string().min(1, { error: 'must not be empty' }).max(256), value: ValueInputSchema }).strict();
export type NamedValueInput = z.infer<typeof NamedValueInputSchema>;

export const McpTransportKindSchema = z.enum(['stdio', 'streamable_http']);
export type McpTransportKind = z.infer<typeof McpTransportKindSchema>;

/**
 * A server as the add and edit forms send it. Fields left out on an edit
 * keep what the file has; what the form does not show (tools filters,
 * transforms, permissions written by hand) is never touched.
 */
export const McpServerInputSchema = z
  .object({
    name: McpServerNameSchema,
    transport: McpTransportKindSchema,
    // stdio
    command: z.string().max(4096).optional(),
    args: z.array(z.string().max(16_384)).max(512).default([]),
    env: z.array(NamedValueInputSchema).max(256).default([]),
    cwd: z.string().max(4096).optional(),
    /** For a `node` command: which Node runs it (mcp.yaml `nodeRuntime`); null removes the choice (the default then applies). */
    nodeRuntime: NodeRuntimeChoiceSchema.nullable().optional(),
    // streamable_http
    url: z.string().max(4096).optional(),
    headers: z.array(NamedValueInputSchema).max(256).default([]),
    // both
    disabled: z.boolean().optional(),
    /** Per-call timeout (mcp.yaml `timeout`). */
    timeoutMs: z.number().int().positive().optional(),
    allowMain: z.boolean().optional(),
    allowSub: z.boolean().optional(),
  })
  .strict();
export type McpServerInput = z.input<typeof McpServerInputSchema>;
export type McpServerInputParsed = z.output<typeof McpServerInputSchema>;

/** A value as a view shows it: text as written, a host variable and whether it is set, a stored value only as there or not. */
export const ValueViewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('env'), name: z.string(), set: z.boolean() }),
  z.object({ kind: z.literal('secret'), set: z.boolean() }),
]);
export type ValueView = z.infer<typeof ValueViewSchema>;
export const NamedValueViewSchema = z.object({ key: z.string(), value: ValueViewSchema });

/** One server of mcp.yaml as the edit form and `chatos mcp list` show it. */
export const McpServerEntryViewSchema = z.object({
  name: z.string(),
  /** Registry id (`chatos::<name>`): the id of its card on the MCP servers page. */
  id: z.string(),
  transport: McpTransportKindSchema.optional(),
  command: z.string().optional(),
  args: z.array(z.string()),
  env: z.array(NamedValueViewSchema),
  cwd: z.string().optional(),
  nodeRuntime: NodeRuntimeChoiceSchema.optional(),
  url: z.string().optional(),
  headers: z.array(NamedValueViewSchema),
  disabled: z.boolean(),
  timeoutMs: z.number().optional(),
  allowMain: z.boolean().optional(),
  allowSub: z.boolean().optional(),
  /** Keys written by hand that the form does not edit (tools, transform, permissions…); kept as they are. */
  otherKeys: z.array(z.string()),
  /** What the loader says about this entry (an error means it does not run as written). */
  problems: z.array(ProblemSchema),
  /** A url server's sign-in (OAuth): none, needed, signed in (as whom, until when), or needed again. */
  signIn: SignInStateSchema.optional(),
});
export type McpServerEntryView = z.infer<typeof McpServerEntryViewSchema>;

export const McpServerListSchema = z.object({
  /** The mcp.yaml edited. */
  file: z.string(),
  exists: z.boolean(),
  servers: z.array(McpServerEntryViewSchema),
  /** Problems of the file as a whole (a syntax error stops every edit until it is fixed). */
  problems: z.array(ProblemSchema),
});
export type McpServerList = z.infer<typeof McpServerListSchema>;

/** A field the core refused, by its name in the input (`url`, `env[1].key`, `name`), with how to fix it. */
export const FieldErrorSchema = z.object({ path: z.string(), message: z.string(), hint: z.string().optional() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** "Test connection": the tools it found, or exactly why it did not start (a code, and the reason where the host can tell). */
export const McpTestResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    ms: z.number(),
    tools: z.array(z.object({ name: z.string(), description: z.string() })),
    stderr: z.array(z.string()),
    /** The protocol era and revision it was spoken to in (docs/using/mcp-servers.md#protocol-eras). */
    protocol: ServerProtocolSchema.optional(),
  }),
  z.object({
    ok: z.literal(false),
    /** SERVER_START_FAILED, SERVER_NOT_RUNNABLE, TEST_TIMEOUT, MCP_SERVER_INVALID (the definition itself is refused)… */
    code: z.string(),
    /** ENV_MISSING, SECRET_MISSING, SPAWN_FAILED, HTTP_CONNECT_FAILED, URL_REFUSED, HANDSHAKE_FAILED. */
    reason: z.string().optional(),
    message: z.string(),
    hint: z.string().optional(),
    ms: z.number().optional(),
    stderr: z.array(z.string()),
    fields: z.array(FieldErrorSchema).optional(),
  }),
]);
export type McpTestResult = z.infer<typeof McpTestResultSchema>;

// ── import ──────────────────────────────────────────────────────────────────

/** `mcpServers`: Claude Desktop, Cursor, Cline (and most other clients); `servers`: VS Code's mcp.json (or `mcp.servers` in its settings). */
export const ImportFormatSchema = z.enum(['mcpServers', 'vscode']);
export type ImportFormat = z.infer<typeof ImportFormatSchema>;

export const ImportNoteSchema = z.object({ code: z.string(), message: z.string() });

/** A value of an imported server's env or headers as its plan shows it: text as written (a quotedWord), copied from a host variable, or kept in the key store. */
export const ImportValueViewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), shown: z.string() }),
  z.object({ kind: z.literal('env'), name: z.string() }),
  z.object({ kind: z.literal('secret') }),
]);
export type ImportValueView = z.infer<typeof ImportValueViewSchema>;

/**
 * Everything an imported server would run with, as the user approves it:
 * the program and each argument, the folder, every variable its process
 * gets (what the file sets, and the host's own it inherits, by name), or
 * the url and headers. Strings from the file are shown as quotedWord makes
 * them (quoted where they hold spaces, quotes or control characters), so
 * nothing in them can pass for something else.
 */
export const ImportRunSchema = z.object({
  /** The program, then each argument. */
  command: z.array(z.string()).optional(),
  /** The folder it starts in; absent: the host's working folder. */
  cwd: z.string().optional(),
  url: z.string().optional(),
  env: z.array(z.object({ name: z.string(), value: ImportValueViewSchema, /** It decides which code runs (NODE_OPTIONS, LD_PRELOAD, PYTHONPATH, DYLD_*…). */ changesCode: z.boolean() })),
  inherited: z.array(z.string()),
  headers: z.array(z.object({ name: z.string(), value: ImportValueViewSchema })),
});
export type ImportRun = z.infer<typeof ImportRunSchema>;

export const ImportEntrySchema = z.object({
  /** The server's key in the imported file. */
  sourceName: z.string(),
  /** The name it gets in mcp.yaml (the source name, made valid where it is not). */
  name: z.string(),
  /** add: new; conflict: mcp.yaml has a server of that name (choose skip, replace or rename); refused: cannot be imported, see `reason`. */
  status: z.enum(['add', 'conflict', 'refused']),
  transport: McpTransportKindSchema.optional(),
  /** The command line or url, as the servers page shows it (stored values masked). */
  launch: z.string().optional(),
  /** What it would run with, in full (for those that can be added). */
  run: ImportRunSchema.optional(),
  conflict: z.object({ existingLaunch: z.string(), suggestedName: z.string() }).optional(),
  reason: z.object({ code: z.string(), message: z.string(), hint: z.string() }).optional(),
  /** What changes on the way in (a value kept in the key store, a field ChatOS does not use, a renamed server), and IMPORT_ENV_CHANGES_CODE for each variable that decides which code runs. */
  notes: z.array(ImportNoteSchema),
});
export type ImportEntry = z.infer<typeof ImportEntrySchema>;

export const ImportPlanSchema = z.object({
  format: ImportFormatSchema.optional(),
  entries: z.array(ImportEntrySchema),
  /** Problems of the file as a whole (not JSON, no server list). */
  problems: z.array(ProblemSchema),
});
export type ImportPlan = z.infer<typeof ImportPlanSchema>;

export const ConflictChoiceSchema = z.enum(['skip', 'replace', 'rename']);
export type ConflictChoice = z.infer<typeof ConflictChoiceSchema>;

export const ImportApplyOptionsSchema = z.object({
  /** What to do with a name mcp.yaml already has, per source name; default `onConflict`. */
  choices: z
    .array(z.object({ sourceName: z.string(), choice: ConflictChoiceSchema }))
    .max(1000)
    .default([]),
  onConflict: ConflictChoiceSchema.default('skip'),
  /** Only these source names (default: every importable one). */
  only: z.array(z.string()).max(1000).optional(),
  /** Keep values that look like secrets (keys, tokens, passwords) in the key store instead of mcp.yaml; default true. */
  storeSecrets: z.boolean().default(true),
});
export type ImportApplyOptions = z.input<typeof ImportApplyOptionsSchema>;

export const ImportResultSchema = z.object({
  added: z.array(z.string()),
  replaced: z.array(z.string()),
  renamed: z.array(z.object({ from: z.string(), to: z.string() })),
  skipped: z.array(z.string()),
  refused: z.array(z.string()),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

// ── templates ───────────────────────────────────────────────────────────────

const Words = z.object({ zh: z.string(), en: z.string() });

export const McpTemplateSchema = z.object({
  id: z.string(),
  /** The server name it suggests. */
  name: z.string(),
  title: Words,
  description: Words,
  /** Runs from the packages installed with ChatOS (no download); otherwise fetched by npx or uvx on first start. */
  bundled: z.boolean(),
  /** What must be on the PATH for it to start: node (bundled), npx, uvx. */
  runner: z.enum(['node', 'npx', 'uvx']),
  /** Where to read about it. */
  homepage: z.string(),
  /** Values the user gives (a folder to share…), with a default where there is a sensible one. */
  params: z.array(z.object({ key: z.string(), label: Words, kind: z.enum(['folder', 'file', 'text']), required: z.boolean(), default: z.string().optional() })),
  /** The server it makes with the defaults, as the add form would send it. */
  input: McpServerInputSchema,
});
export type McpTemplate = z.infer<typeof McpTemplateSchema>;
