import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolConfirmationRequest } from '../../../shared/confirmation.js';
import type { PermissionLevel, ServerDefinition } from '../../../shared/mcp.js';
import type { Problem } from '../../../shared/problems.js';
import { defaultToolPrefix } from '../../naming/names.js';
import { suggestClosest } from '../../naming/suggest.js';
import type { RegistryCenter } from '../../registry/registryCenter.js';
import { buildCatalog, fileOfServer, type CatalogResult, type CatalogTool } from '../catalog/toolCatalog.js';
import type { McpRuntime } from '../mcpRuntime.js';
import type { Lease } from '../connection/connectionManager.js';
import type { CallOptions } from '../connection/serverConnection.js';
import type { ServerSettings, ServerSettingsRow } from '../settings/serverSettings.js';
import { ownValue } from '../../../shared/ownKeys.js';
import { NO_ARTIFACTS, storeImageArtifacts, type SavedArtifact } from './artifacts.js';
import { resolvePermission, type PermissionSource } from './permissions.js';
import { RUN_ALLOWED, type RunGate, type RunGateAnswer } from '../../policy/runGate.js';
import { mayProduceName } from '../catalog/toolNaming.js';
import { McpRuntimeError } from '../mcpRuntimeError.js';
import { GatewayError, gatewayRefusal, ownerOf } from './refusals.js';
import type { ToolList } from '../frozen.js';
import { accessTo, type AccessAnswer, type AccessFacts } from '../../policy/accessRule.js';
import { KNOWLEDGE_TOOL_NAME } from '../../knowledge/knowledgeChatTool.js';
import { HOST_SERVER, KnowledgeHostTool, type KnowledgeAccess } from './knowledgeHostTool.js';

export { GatewayError } from './refusals.js';

export type Flow = 'main' | 'sub';

/** Who is calling: the app it acts for (grants are per app), the conversation (leases), the flow. */
export interface Caller {
  appId: string;
  agentId?: string;
  conversationId: string;
  flow: Flow;
  /** An agent's selection: only these registry ids, when given. */
  serverIds?: readonly string[];
  /** A UI app's page calling its own server (through the bridge), rather than an agent or a script acting as the app. */
  fromPage?: boolean;
  /** Calls asked for together (one model message): their confirmations share this id, so a face shows them as one card. */
  confirmationGroup?: string;
}

/** Per call: cancellation and progress, and where its images go (a conversation's own folder; default the host's artifacts folder). */
export interface GatewayCallOptions extends CallOptions {
  artifactsDir?: string;
  /** A confirm-level call: the question put to the user, when it is put (a call an earlier approval lets through is not asked). */
  onAsked?(request: ToolConfirmationRequest): void;
  /** The user approved it: it runs from now. */
  onApproved?(): void;
}

export interface OfferedTool extends CatalogTool {
  permission: PermissionLevel;
  permissionSource: PermissionSource;
}

export type CallDecision = 'auto' | 'approved' | 'declined' | 'expired' | 'withdrawn';
/** A decision that means the tool does not run. */
type NotRun = 'declined' | 'expired' | 'withdrawn';
const notRun = (decision: CallDecision): decision is NotRun => decision === 'declined' || decision === 'expired' || decision === 'withdrawn';

export interface CallContext {
  caller: Caller;
  tool: OfferedTool;
  server: ServerDefinition;
  args: Record<string, unknown>;
}

/** Where permission, confirmation and audit plug in (the agents issue); the gateway works without them. */
export interface GatewayHooks {
  /** Decides whether the call may run; a confirm-level tool asks the user here. Answers at once (no promise) when no one is asked. */
  /** `signal`: the call's own; aborted while the user is asked, the question is withdrawn (decision `withdrawn`). `asked`: told the question when one is put. */
  beforeCall?(context: CallContext, signal?: AbortSignal, asked?: (request: ToolConfirmationRequest) => void): CallDecision | Promise<CallDecision>;
  afterCall?(record: CallRecord): void;
  /** A call the gateway refused before anyone was asked (access, flow, trust, a switch, an unknown tool, bad arguments). */
  afterRefusal?(record: RefusalRecord): void;
  permissionOverride?(serverId: string, rawName: string): PermissionLevel | undefined;
}

/** A refused call: who asked for which name, the server the refusal names (if any), and the refusal's code and message. */
export interface RefusalRecord {
  caller: Caller;
  toolName: string;
  serverId: string | undefined;
  code: string;
  message: string;
  durationMs: number;
  endedAt: number;
}

/** What afterCall gets: the call, how it was decided and how it ended. `error` is set only for a failed call. */
export interface CallRecord extends CallContext {
  decision: CallDecision;
  durationMs: number;
  /** When the call ended, on the host's clock (the audit's time: one clock read serves both). */
  endedAt: number;
  /** `cancelled`: the caller aborted it while it ran (the server was told). */
  outcome: 'ok' | 'tool-error' | 'failed' | 'declined' | 'cancelled';
  error: string | undefined;
  /** What the server answered (a call that reached it and ended), for the audit. */
  result: CallToolResult | undefined;
}

export interface GatewayCallResult {
  result: CallToolResult;
  tool: OfferedTool | { name: string; serverId: 'chatos'; permission: PermissionLevel };
  decision: CallDecision;
  artifacts: readonly SavedArtifact[];
  /** docs/rules/mcp-yaml.md#leases: the first lease of a stateful server asks the agent to release it when done. */
  reminders: readonly string[];
  durationMs: number;
}

/** The admin tool of every caller that may hold a dedicated instance (docs/rules/gateway.md#the-hosts-own-tools). */
export const RELEASE_TOOL: Tool = {
  name: 'mcp_release',
  description:
    "Release this conversation's dedicated instance of an MCP server: its process ends now, and a later call of one of its tools starts a fresh instance (its state is not kept). " +
    'Call it once you are sure you no longer need the tools of the server named in a lease reminder.',
  inputSchema: { type: 'object', properties: { serverId: { type: 'string', description: 'The server id named in the lease reminder, e.g. "chatos::everything"' } }, required: ['serverId'] },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
};

/** mcp_release as a listing offers it: a tool of the host itself. */
const RELEASE_OFFERED: OfferedTool = {
  name: RELEASE_TOOL.name,
  rawName: RELEASE_TOOL.name,
  serverId: 'chatos',
  serverName: 'chatos',
  description: RELEASE_TOOL.description!,
  inputSchema: RELEASE_TOOL.inputSchema,
  annotations: RELEASE_TOOL.annotations,
  permission: 'write',
  permissionSource: 'default',
};

export interface ToolGatewayDeps {
  runtime: McpRuntime;
  registry: RegistryCenter;
  artifactsDir: string;
  mcpConfigFile: string;
  /** `_meta.workdir` for servers that name none (plugin apps name their data folder). */
  defaultWorkdir: string;
  now: () => number;
  hooks?: GatewayHooks;
  /** The user's per-server settings: tools switched off, permission overrides. */
  settings?: ServerSettings;
  /** Whether a plugin's server may run now (cached per call): an untrusted or changed plugin's servers are offered to no one. */
  runGate: Pick<RunGate, 'checkCached'>;
  /** Servers that are told who calls (`_meta.chatos.caller`): those of built-in plugins only, asked once per definition. */
  tellsCaller?: (server: ServerDefinition) => boolean;
  /** Knowledge bases: an agent with some attached is offered `knowledge_search`, a tool of the host, over exactly those. */
  knowledge?: KnowledgeAccess;
}

/** A call that adds no reminder (nearly all): one shared, frozen list. */
const NO_REMINDERS: readonly string[] = Object.freeze([]);

/** The sticky reminder of docs/rules/mcp-yaml.md#leases for a conversation holding a stateful server's instance. */
export const leaseReminder = (serverId: string) =>
  `You now hold a dedicated instance of MCP server "${serverId}" for this conversation. When you are sure you no longer need its tools, call mcp_release({"serverId":"${serverId}"}) to free it.`;

/** One server's share of a catalog: what buildCatalog's output depends on. */
interface CatalogInput {
  server: ServerDefinition;
  tools: ToolList;
  switchedOff: readonly string[];
}

const sameCatalogInput = (a: CatalogInput, b: CatalogInput) =>
  a.server === b.server && a.tools === b.tools && a.switchedOff.length === b.switchedOff.length && a.switchedOff.every((name, i) => name === b.switchedOff[i]);

/** Distinct server sets whose catalogs are kept (a caller's visible set, a tool name's possible owners). */
const CATALOG_MEMO_SIZE = 64;

/**
 * The only way a tool runs. In order: the caller may see the server
 * (registry grants, checked now) and the flow allows it → the hooks decide
 * (permission, confirmation) → `_meta` is injected → the call runs with the
 * server's timeout, cancellation and progress → images become artifacts →
 * the hooks record it.
 */
const OWNERS_MEMO_SIZE = 10_000;
const RESOLVED_MEMO_SIZE = 1_000;

/** `_meta` with `chatos.caller`: what kind of caller (an agent, an app's page, a script acting as an app), its app, agent, conversation and flow. */
function withCallerMeta(meta: Record<string, unknown>, caller: Caller): Record<string, unknown> {
  const kind = caller.agentId !== undefined ? 'agent' : caller.fromPage ? 'page' : 'app';
  const told = { kind, appId: caller.appId, ...(caller.agentId === undefined ? {} : { agentId: caller.agentId }), conversationId: caller.conversationId, flow: caller.flow };
  return { ...meta, chatos: { ...(meta.chatos as Record<string, unknown> | undefined), caller: told } };
}

const resolvedKey = (caller: Caller, toolName: string) => `${caller.appId}\u0000${caller.flow}\u0000${toolName}`;

/**
 * A call record as one object literal of a fixed shape: spreading the context
 * (`{ ...context, … }`) cost several microseconds per call on a warm host,
 * more than the rest of the bookkeeping together.
 */
function callRecord(context: CallContext, decision: CallDecision, started: number, ended: number, outcome: CallRecord['outcome'], error: string | undefined, result?: CallToolResult): CallRecord {
  return { caller: context.caller, tool: context.tool, server: context.server, args: context.args, decision, durationMs: ended - started, endedAt: ended, outcome, error, result };
}

export class ToolGateway {
  private readonly catalogMemo = new Map<string, { inputs: CatalogInput[]; catalog: CatalogResult }>();
  private readonly knowledge: KnowledgeHostTool | undefined;

  constructor(private readonly deps: ToolGatewayDeps) {
    this.knowledge = deps.knowledge && new KnowledgeHostTool(deps.knowledge);
  }

  /** The servers this caller may use now, in id order. */
  visibleServers(caller: Caller): ServerDefinition[] {
    return this.grantedServers(caller).filter((def) => this.runnable(def).ok);
  }

  /** The servers the access rule allows this caller, but for the run gate (asked apart: a listing says why a plugin's server is left out). */
  private grantedServers(caller: Caller): ServerDefinition[] {
    const { runtime, registry } = this.deps;
    const allowed = new Set(registry.getMcpServersForApp(caller.appId).map((s) => s.id));
    return runtime
      .allDefinitions()
      .filter((def) => accessTo(caller, def, this.accessFacts(def, { granted: () => allowed.has(def.id), gate: () => RUN_ALLOWED })).ok)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** What the access rule reads about one server for this gateway: the user's switch, the grant (asked of the registry now), the run gate's cached answer. */
  private accessFacts(def: ServerDefinition, overrides: Partial<Pick<AccessFacts, 'granted' | 'gate'>> & { caller?: Caller } = {}): AccessFacts {
    const { caller } = overrides;
    return {
      switchedOff: () => this.switchedOff(def),
      granted: overrides.granted ?? (() => caller !== undefined && this.deps.registry.hasMcpServerAccess(caller.appId, def.id)),
      gate: overrides.gate ?? (() => this.runnable(def)),
      mcpConfigFile: this.deps.mcpConfigFile,
    };
  }

  /** The access rule's answer for this caller and server now (a call names `toolName`, said in a refusal). */
  private access(caller: Caller, def: ServerDefinition, toolName?: string): AccessAnswer {
    return accessTo(caller, def, this.accessFacts(def, { caller }), toolName);
  }

  /** The run gate's cached answer for a plugin's server; other servers always may. */
  private runnable(def: ServerDefinition): RunGateAnswer {
    return def.plugin ? this.deps.runGate.checkCached(def.plugin, 'server') : RUN_ALLOWED;
  }

  /** Lists every visible server's tools, starting the servers not yet listed (first use). A server whose plugin may not run is left out, saying why. */
  async listTools(caller: Caller): Promise<{ tools: OfferedTool[]; problems: Problem[]; reminders: string[] }> {
    const problems: Problem[] = [];
    const servers = this.grantedServers(caller).filter((server) => {
      const gate = this.runnable(server);
      if (!gate.ok) problems.push({ severity: 'warning', code: gate.code, file: server.id, path: '', message: `${gate.message}: its tools are not offered`, hint: gate.fix });
      return gate.ok;
    });
    const reminders: string[] = [];
    await Promise.all(
      servers.map(async (server) => {
        try {
          await this.toolsOf(server, caller, reminders);
        } catch (error) {
          const fix = error instanceof McpRuntimeError ? error.fix : undefined;
          problems.push({
            severity: 'error',
            code: 'SERVER_START_FAILED',
            file: server.id,
            path: '',
            message: (error as Error).message,
            hint: fix ?? 'see the server log; fix its command or configuration',
          });
        }
      }),
    );
    const catalog = this.catalogOf(servers);
    // A caller of a server with per-conversation instances may hold one: it gets the tool that lets it go.
    let tools = servers.some((server) => !server.trulyStateless) ? [...catalog.tools, RELEASE_OFFERED] : catalog.tools;
    const knowledge = this.knowledge ? await this.knowledge.offer(caller) : undefined;
    if (knowledge?.tool) {
      // The name is the host's for this caller (a call of it never reaches a server): a server's tool of that name is left out.
      const clash = tools.find((t) => t.name === KNOWLEDGE_TOOL_NAME);
      if (clash)
        problems.push({
          severity: 'warning',
          code: 'TOOL_NAME_RESERVED',
          file: clash.serverId,
          path: clash.rawName,
          message: `${KNOWLEDGE_TOOL_NAME} is the host's knowledge search for this agent: this server's tool of that name is not offered`,
          hint: 'rename it with a transform',
        });
      tools = [...tools.filter((t) => t.name !== KNOWLEDGE_TOOL_NAME), knowledge.tool];
    }
    return { tools, problems: [...problems, ...(knowledge?.problems ?? []), ...catalog.problems], reminders };
  }

  private async toolsOf(server: ServerDefinition, caller: Caller, reminders: string[]): Promise<ToolList> {
    const cached = this.deps.runtime.cachedTools(server.id);
    if (cached) return cached;
    const { lease, first } = await this.deps.runtime.connections.acquire(server, caller.conversationId);
    if (first && !server.trulyStateless) reminders.push(leaseReminder(server.id));
    const tools = [...lease.connection.tools];
    this.deps.runtime.rememberTools(server, tools);
    return tools;
  }

  private catalogOf(servers: ServerDefinition[]): { tools: OfferedTool[]; problems: Problem[] } {
    const { catalog, settingsOf } = this.builtCatalog(servers);
    const byId = new Map(servers.map((s) => [s.id, s]));
    const tools = catalog.tools.map((tool) => this.offered(byId.get(tool.serverId)!, tool, settingsOf.get(tool.serverId)));
    return { tools, problems: catalog.problems };
  }

  /** Offered tools per catalog tool object, for the override they were resolved with (catalog tools are replaced, never mutated). */
  private readonly offeredMemo = new WeakMap<CatalogTool, { server: ServerDefinition; override: PermissionLevel | undefined; offered: OfferedTool }>();

  /** A catalog tool with its permission, resolved now: the user's override, the hook's, else the declared level. */
  private offered(server: ServerDefinition, tool: CatalogTool, settings: ServerSettingsRow | undefined): OfferedTool {
    const override = ownValue(settings?.permissionOverrides, tool.rawName) ?? this.deps.hooks?.permissionOverride?.(server.id, tool.rawName);
    const memo = this.offeredMemo.get(tool);
    if (memo && memo.server === server && memo.override === override) return memo.offered;
    const { level, source } = resolvePermission(server, { name: tool.rawName, annotations: tool.annotations }, override);
    const offered = { ...tool, permission: level, permissionSource: source };
    this.offeredMemo.set(tool, { server, override, offered });
    return offered;
  }

  /**
   * buildCatalog over these servers' cached tool lists, memoized. Its output
   * depends only on the definitions, the tool lists and the tools the user
   * switched off; definitions and tool lists are replaced, never mutated,
   * when they change (the types are read-only and the runtime freezes what
   * it publishes: mcp/frozen.ts), so the same objects (and the same switched-off list)
   * mean the same catalog. Rebuilding it on every call cost more than the
   * call itself. The user's settings are read once per server, now.
   */
  private builtCatalog(servers: readonly ServerDefinition[]): { catalog: CatalogResult; settingsOf: Map<string, ServerSettingsRow | undefined> } {
    const settingsOf = new Map<string, ServerSettingsRow | undefined>();
    const inputs: CatalogInput[] = [];
    for (const server of servers) {
      const tools = this.deps.runtime.cachedTools(server.id);
      if (!tools) continue;
      const settings = this.deps.settings?.of(server.id);
      settingsOf.set(server.id, settings);
      inputs.push({ server, tools, switchedOff: settings?.disabledTools ?? [] });
    }
    const key = inputs.map((input) => input.server.id).join('\u0000');
    const hit = this.catalogMemo.get(key);
    if (hit && hit.inputs.every((input, i) => sameCatalogInput(input, inputs[i]!))) return { catalog: hit.catalog, settingsOf };
    // Tools the user switched off are dropped by the catalog like configured ones, with a problem saying so.
    const entries = inputs.map(({ server, tools, switchedOff }) => ({ server: switchedOff.length ? { ...server, disabledTools: [...server.disabledTools, ...switchedOff] } : server, tools }));
    // On a name two servers' tools would both take, the server that listed first keeps it (docs/rules/mcp-yaml.md#tool-names-and-transforms).
    const catalog = buildCatalog(entries, [RELEASE_TOOL.name], { fileOf: fileOfServer(this.deps.mcpConfigFile), priority: (server) => this.deps.runtime.listedOrder(server.id) });
    if (this.catalogMemo.size >= CATALOG_MEMO_SIZE) this.catalogMemo.clear();
    this.catalogMemo.set(key, { inputs, catalog });
    return { catalog, settingsOf };
  }

  /** Whether the user switched the server off on the MCP servers page (one cached settings lookup). */
  private switchedOff(def: ServerDefinition): boolean {
    return this.deps.settings?.of(def.id).disabled === true;
  }

  /** Whether the caller may use this server now (the access rule, its grant asked of the registry now). */
  private mayUse(caller: Caller, def: ServerDefinition): boolean {
    return this.access(caller, def).ok;
  }

  /** Default tool-name prefix of each definition, computed once per definition object. */
  private readonly prefixes = new WeakMap<ServerDefinition, string>();

  /** Owners per tool name, for one version of the definitions (they change only on reload, which bumps the version). */
  private ownersMemo = { version: -1, byName: new Map<string, ServerDefinition[]>() };

  /**
   * Which servers a tool name can belong to, judged by its name alone: the
   * default prefix of a server without transforms, or a transform chain that
   * could make the name. Runs on every call, so the answer is kept until the
   * definitions change; never mutate what it returns.
   */
  private ownersByName(toolName: string): readonly ServerDefinition[] {
    const version = this.deps.runtime.version;
    if (this.ownersMemo.version !== version) this.ownersMemo = { version, byName: new Map() };
    const known = this.ownersMemo.byName.get(toolName);
    if (known) return known;
    const owners = this.deps.runtime.allDefinitions().filter((def) => {
      if (def.transform.length > 0) return mayProduceName(toolName, def.transform);
      let prefix = this.prefixes.get(def);
      if (prefix === undefined) this.prefixes.set(def, (prefix = defaultToolPrefix(def.name)));
      return toolName.startsWith(prefix);
    });
    // Plain code-unit order: stable, and far cheaper than localeCompare.
    if (owners.length > 1) owners.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // Bounded: a caller sending endless made-up names must not grow it without limit.
    if (this.ownersMemo.byName.size < OWNERS_MEMO_SIZE) this.ownersMemo.byName.set(toolName, owners);
    return owners;
  }

  /**
   * Runs one tool call through every check. A repeated call (its resolution
   * remembered, its decision given at once, its instance running) goes
   * through without a promise of its own until the server answers: this is
   * every call's path, and each async step costs a promise and a saved frame.
   * Errors always arrive as a rejected promise, never thrown.
   */
  callTool(caller: Caller, toolName: string, args: Record<string, unknown>, options?: GatewayCallOptions): Promise<GatewayCallResult> {
    try {
      const started = this.deps.now();
      if (toolName === RELEASE_TOOL.name) return this.release(caller, args, started);
      if (toolName === KNOWLEDGE_TOOL_NAME && this.knowledge?.claims(caller)) return this.searchKnowledge(this.knowledge, caller, args, options, started);
      // An identical earlier call's resolution, while nothing it depended on changed; else resolve in full.
      const known = this.resolvedBefore(caller, toolName);
      if (!known) return this.resolveAndCall(caller, toolName, args, options, started);
      return this.decideAndCall({ caller, tool: known.tool, server: known.server, args }, started, NO_REMINDERS, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private async resolveAndCall(caller: Caller, toolName: string, args: Record<string, unknown>, options: GatewayCallOptions | undefined, started: number): Promise<GatewayCallResult> {
    const reminders: string[] = [];
    let resolved: { server: ServerDefinition; tool: OfferedTool };
    try {
      resolved = await this.resolve(caller, toolName, reminders);
    } catch (error) {
      if (error instanceof GatewayError) this.recordRefusal(caller, toolName, error.serverId, error.code, error.message, started);
      throw error;
    }
    return this.decideAndCall({ caller, tool: resolved.tool, server: resolved.server, args }, started, reminders, options);
  }

  /** A refused call leaves a trace like any other (off the hot path: only a refusal gets here). */
  private recordRefusal(caller: Caller, toolName: string, serverId: string | undefined, code: string, message: string, started: number): void {
    const ended = this.deps.now();
    this.deps.hooks?.afterRefusal?.({ caller, toolName, serverId, code, message, durationMs: ended - started, endedAt: ended });
  }

  /** The hooks decide (a confirm-level tool waits for the user); a decision given at once is not awaited. */
  private decideAndCall(context: CallContext, started: number, reminders: readonly string[], options: GatewayCallOptions | undefined): Promise<GatewayCallResult> {
    const decision = this.deps.hooks?.beforeCall?.(context, options?.signal, options?.onAsked) ?? 'auto';
    if (typeof decision !== 'string')
      return Promise.resolve(decision).then((answer) => {
        if (answer === 'approved') options?.onApproved?.();
        return this.callDecided(context, answer, started, reminders, options);
      });
    return this.callDecided(context, decision, started, reminders, options);
  }

  private callDecided(context: CallContext, decision: CallDecision, started: number, reminders: readonly string[], options: GatewayCallOptions | undefined): Promise<GatewayCallResult> {
    if (notRun(decision)) return Promise.resolve(this.declined(context, decision, started, reminders));
    // A conversation's running instance is taken without waiting; starting (or restarting) one is awaited.
    const lease = this.deps.runtime.connections.ready(context.server, context.caller.conversationId, started);
    if (lease) return this.callOn(lease, context, decision, started, reminders, options);
    return this.startAndCall(context, decision, started, reminders, options);
  }

  private async startAndCall(context: CallContext, decision: CallDecision, started: number, reminders: readonly string[], options: GatewayCallOptions | undefined): Promise<GatewayCallResult> {
    const { server, caller } = context;
    let acquired: { lease: Lease; first: boolean };
    try {
      acquired = await this.deps.runtime.connections.acquire(server, caller.conversationId);
    } catch (error) {
      // Not started: refused when its plugin may not run now, else a failed call; either way on the record.
      if (error instanceof McpRuntimeError && error.code === 'SERVER_NOT_RUNNABLE') this.recordRefusal(caller, context.tool.name, server.id, 'NOT_RUNNABLE', error.message, started);
      else this.deps.hooks?.afterCall?.(callRecord(context, decision, started, this.deps.now(), 'failed', (error as Error).message));
      throw error;
    }
    const { lease, first } = acquired;
    const remind = first && !server.trulyStateless && !reminders.some((r) => r.includes(`"${server.id}"`));
    return this.callOn(lease, context, decision, started, remind ? [...reminders, leaseReminder(server.id)] : reminders, options);
  }

  private declined(context: CallContext, decision: NotRun, started: number, reminders: readonly string[]): GatewayCallResult {
    const toolName = context.tool.name;
    const said = {
      declined: `The user declined to run ${toolName}.`,
      expired: `No one confirmed ${toolName} in time, so it was not run.`,
      withdrawn: `The call of ${toolName} was cancelled before anyone confirmed it, so it was not run.`,
    }[decision];
    const result: CallToolResult = { content: [{ type: 'text', text: said }], isError: true };
    const ended = this.deps.now();
    this.deps.hooks?.afterCall?.(callRecord(context, decision, started, ended, decision === 'withdrawn' ? 'cancelled' : 'declined', undefined));
    return { result, tool: context.tool, decision, artifacts: NO_ARTIFACTS, reminders, durationMs: ended - started };
  }

  /** The call itself, then artifacts and the record. Kept small: its frame is saved while the server works. */
  private async callOn(lease: Lease, context: CallContext, decision: CallDecision, started: number, reminders: readonly string[], options: GatewayCallOptions | undefined): Promise<GatewayCallResult> {
    try {
      const raw = await lease.connection.callTool(context.tool.rawName, context.args, this.metaFor(context.server, context.caller), options);
      const ended = this.deps.now();
      const { result, artifacts } = storeImageArtifacts(raw, options?.artifactsDir ?? this.deps.artifactsDir, context.server.id, context.tool.rawName, ended);
      this.deps.hooks?.afterCall?.(callRecord(context, decision, started, ended, result.isError ? 'tool-error' : 'ok', undefined, result));
      return { result, tool: context.tool, decision, artifacts, reminders, durationMs: ended - started };
    } catch (error) {
      // The server may have run the tool even so (saving its images failed): the audit keeps a record of it.
      const outcome = options?.signal?.aborted ? 'cancelled' : 'failed';
      this.deps.hooks?.afterCall?.(callRecord(context, decision, started, this.deps.now(), outcome, (error as Error).message));
      throw error;
    }
  }

  /** `_meta` per definition (it depends on the server alone; definitions are replaced, never mutated), and whether the server is told the caller. */
  private readonly metaMemo = new WeakMap<ServerDefinition, { meta: Record<string, unknown>; tellsCaller: boolean }>();

  /**
   * `_meta` for every call to this server, exactly docs/rules/gateway.md#_meta: an app's
   * expanded callMeta and `chatos.uiApp` (both already in `server.meta`),
   * and `workdir` (the app's own, else the session root). Nothing about the
   * caller is added for a third-party server: it learns no agent or
   * conversation ids, and each conversation has its own instance anyway. A
   * built-in plugin ships with ChatOS and is trusted as part of it, so its
   * server is told who calls (`chatos.caller`): the Canvas records it in the
   * history of every patch. Never mutated.
   */
  private metaFor(server: ServerDefinition, caller: Caller): Record<string, unknown> {
    let memo = this.metaMemo.get(server);
    if (!memo) {
      const own = server.meta as { workdir?: unknown };
      memo = { meta: typeof own.workdir === 'string' ? own : { ...own, workdir: this.deps.defaultWorkdir }, tellsCaller: this.deps.tellsCaller?.(server) === true };
      this.metaMemo.set(server, memo);
    }
    return memo.tellsCaller ? withCallerMeta(memo.meta, caller) : memo.meta;
  }

  /** Why this caller may not call this tool of this server, as the access rule says it. */
  private refusal(caller: Caller, toolName: string, server: ServerDefinition): GatewayError {
    const answer = this.access(caller, server, toolName);
    // The refusal is asked after a negative answer: a grant given in between is no reason to let the call through here.
    return answer.ok ? new GatewayError('NOT_GRANTED', `${caller.appId} may not use "${toolName}" now`, 'call it again', server.id) : gatewayRefusal(answer, server.id);
  }

  private readonly cachedToolsOf = (serverId: string) => this.deps.runtime.cachedTools(serverId);

  /**
   * Which server and tool a call names, worked out in full: the possible
   * owners, the caller's access to each (asked of the registry now), the
   * catalog, the permission. Starts the servers that have not listed their
   * tools yet. The answer is remembered for `resolvedBefore`.
   */
  private async resolve(caller: Caller, toolName: string, reminders: string[]): Promise<{ server: ServerDefinition; tool: OfferedTool }> {
    // Only the servers that could own this name matter: no other server's tool can take it in the
    // catalog, so resolving against them alone gives the same answer at a cost that does not grow
    // with the number of servers and tools. Their visibility (grants included) is checked now.
    const revision = this.deps.registry.freshRevision();
    const version = this.deps.runtime.version;
    const candidates = this.ownersByName(toolName);
    const usable = candidates.filter((def) => this.mayUse(caller, def));
    if (usable.length === 0 && candidates.length > 0) {
      // A plugin that may no longer run (untrusted, edited) serves no one: its running instances are stopped, not left idle.
      const stale = candidates.filter((def) => def.plugin && this.deps.runtime.connections.anyRunning(def.id) && !this.runnable(def).ok);
      await Promise.all(stale.map((def) => this.deps.runtime.connections.retire(def.id, 'not-runnable')));
      throw this.refusal(caller, toolName, ownerOf(candidates, toolName, this.cachedToolsOf, true)!);
    }

    // Start (first use) only the servers that could own this name.
    const starting = usable.some((server) => !this.deps.runtime.cachedTools(server.id));
    if (starting) await Promise.all(usable.map((server) => this.toolsOf(server, caller, reminders)));
    const { catalog, settingsOf } = this.builtCatalog(usable);
    const found = catalog.tools.find((t) => t.name === toolName);
    if (!found) {
      // The name may be a tool of a server this caller may not use, while one it may use (a transform) could have made it too.
      const owner = ownerOf(
        candidates.filter((def) => !usable.includes(def)),
        toolName,
        this.cachedToolsOf,
        false,
      );
      if (owner) throw this.refusal(caller, toolName, owner);
      const { tools } = this.catalogOf(this.visibleServers(caller));
      const close = suggestClosest(
        toolName,
        tools.map((t) => t.name),
      );
      throw new GatewayError(
        'UNKNOWN_TOOL',
        `no tool "${toolName}" is offered to ${caller.appId} (${caller.flow} flow)${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`,
        `see the tools it is offered: chatos tools ${caller.agentId ? `--agent ${caller.agentId}` : `--app ${caller.appId}`} --flow ${caller.flow}`,
      );
    }
    const server = usable.find((s) => s.id === found.serverId)!;
    const tool = this.offered(server, found, settingsOf.get(server.id));
    // Starting a server takes a while: its grant is checked again at the moment of the call, never cached from a listing.
    if (starting && !this.deps.registry.hasMcpServerAccess(caller.appId, server.id)) throw this.refusal(caller, toolName, server);
    if (!starting && !this.deps.hooks?.permissionOverride) {
      if (this.resolvedMemo.size >= RESOLVED_MEMO_SIZE) this.resolvedMemo.clear();
      this.resolvedMemo.set(resolvedKey(caller, toolName), { revision, version, selection: caller.serverIds, tools: this.deps.runtime.cachedTools(server.id), server, tool });
    }
    return { server, tool };
  }

  /** Resolutions per (app, flow, tool name), valid for one DB revision, one definitions version, one tool list and one selection. */
  private readonly resolvedMemo = new Map<
    string,
    { revision: number; version: number; selection: readonly string[] | undefined; tools: ToolList | undefined; server: ServerDefinition; tool: OfferedTool }
  >();

  /**
   * The resolution of an identical earlier call, if nothing it depended on
   * has changed since: grants, settings and switches live in the admin DB
   * (its revision, after looking at the file as every call does), servers
   * and their flags in the definitions (their version), the offered names in
   * the server's tool list. A conversation's repeated calls skip the whole
   * resolution; any change sends the next call through it in full.
   */
  private resolvedBefore(caller: Caller, toolName: string): { server: ServerDefinition; tool: OfferedTool } | undefined {
    const memo = this.resolvedMemo.get(resolvedKey(caller, toolName));
    if (!memo || memo.selection !== caller.serverIds || memo.version !== this.deps.runtime.version) return undefined;
    if (memo.revision !== this.deps.registry.freshRevision() || memo.tools !== this.deps.runtime.cachedTools(memo.server.id)) return undefined;
    return memo;
  }

  /** The host's knowledge search: decided and recorded by the hooks like any call, its server the host itself. */
  private async searchKnowledge(knowledge: KnowledgeHostTool, caller: Caller, args: Record<string, unknown>, options: GatewayCallOptions | undefined, started: number): Promise<GatewayCallResult> {
    const offered = (await knowledge.offer(caller)).tool;
    if (!offered) {
      const refused = new GatewayError('UNKNOWN_TOOL', `no knowledge base attached to agent "${caller.agentId}" exists now`, 'create the base, or attach an existing one to the agent', HOST_SERVER.id);
      this.recordRefusal(caller, KNOWLEDGE_TOOL_NAME, HOST_SERVER.id, refused.code, refused.message, started);
      throw refused;
    }
    const context: CallContext = { caller, tool: offered, server: HOST_SERVER, args };
    const decision = await (this.deps.hooks?.beforeCall?.(context, options?.signal, options?.onAsked) ?? 'auto');
    if (notRun(decision)) return this.declined(context, decision, started, NO_REMINDERS);
    if (decision === 'approved') options?.onApproved?.();
    const found = await knowledge.run(caller, args, options?.signal);
    const ended = this.deps.now();
    this.deps.hooks?.afterCall?.(callRecord(context, decision, started, ended, found.ok ? 'ok' : 'tool-error', found.ok ? undefined : found.text));
    return {
      result: { content: [{ type: 'text', text: found.text }], ...(found.ok ? {} : { isError: true }) },
      tool: offered,
      decision,
      artifacts: NO_ARTIFACTS,
      reminders: NO_REMINDERS,
      durationMs: ended - started,
    };
  }

  private async release(caller: Caller, args: Record<string, unknown>, started: number): Promise<GatewayCallResult> {
    const serverId = args.serverId;
    if (typeof serverId !== 'string') {
      const refused = new GatewayError('BAD_ARGUMENTS', 'mcp_release needs {"serverId": "<server id>"}', 'pass the server id the lease reminder named, e.g. {"serverId": "chatos::everything"}');
      this.recordRefusal(caller, RELEASE_TOOL.name, undefined, refused.code, refused.message, started);
      throw refused;
    }
    // The release is audited where every release is (ConnectionManager.onRelease), with who asked.
    const released = await this.deps.runtime.connections.release(serverId, caller.conversationId, { appId: caller.appId, agentId: caller.agentId, flow: caller.flow });
    const text = released ? `Released this conversation's instance of "${serverId}".` : `This conversation held no instance of "${serverId}".`;
    return {
      result: { content: [{ type: 'text', text }] },
      tool: { name: RELEASE_TOOL.name, serverId: 'chatos', permission: 'write' },
      decision: 'auto',
      artifacts: NO_ARTIFACTS,
      reminders: NO_REMINDERS,
      durationMs: this.deps.now() - started,
    };
  }
}
