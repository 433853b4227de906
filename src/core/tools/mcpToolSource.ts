import type { PermissionLevel, ServerDefinition } from '../../shared/mcp.js';
import type { Problem } from '../../shared/problems.js';
import { buildCatalog, fileOfServer, type CatalogResult, type CatalogTool } from '../mcp/catalog/toolCatalog.js';
import type { Lease } from '../mcp/connection/connectionManager.js';
import type { ToolList } from '../mcp/frozen.js';
import type { RejectedTool } from '../mcp/client/checkedTools.js';
import type { McpRuntime } from '../mcp/mcpRuntime.js';
import { failedResultWithoutStacks } from '../mcp/stackTrace.js';
import { McpRuntimeError } from '../mcp/mcpRuntimeError.js';
import type { ServerSettings, ServerSettingsRow } from '../mcp/settings/serverSettings.js';
import { defaultToolPrefix } from '../naming/names.js';
import { mayProduceName } from '../naming/toolNaming.js';
import { accessTo, type AccessAnswer, type AccessFacts } from '../policy/accessRule.js';
import { RUN_ALLOWED, type RunGate, type RunGateAnswer } from '../policy/runGate.js';
import type { RegistryCenter } from '../registry/registryCenter.js';
import { ownValue } from '../../shared/ownKeys.js';
import { storeImageArtifacts } from './artifacts.js';
import { resolvePermission } from './permissions.js';
import { GatewayError, gatewayRefusal, ownerOf } from './refusals.js';
import { leaseReminder, RELEASE_TOOL } from './releaseTool.js';
import type { ServerCallers } from './serverCallers.js';
import type { Caller, GatewayCallOptions, GatewayRefusal, OfferedTool, ResolvedTool, SourceCall, SourceListing, SourceResult, ToolSource } from './toolSource.js';

export interface McpToolSourceDeps {
  runtime: McpRuntime;
  registry: RegistryCenter;
  artifactsDir: string;
  mcpConfigFile: string;
  /** `_meta.workdir` for servers that name none (plugin apps name their data folder). */
  defaultWorkdir: string;
  /** The user's per-server settings: tools switched off, permission overrides. */
  settings?: ServerSettings;
  /** Whether a plugin's server may run now (cached per call): an untrusted or changed plugin's servers are offered to no one. */
  runGate: Pick<RunGate, 'checkCached'>;
  /** Servers that are told who calls (`_meta.chatos.caller`): those of built-in plugins only, asked once per definition. */
  tellsCaller?: (server: ServerDefinition) => boolean;
  now: () => number;
  /** Who calls each server instance now: what a server asks during a call is put to its callers (elicitation). */
  callers?: Pick<ServerCallers, 'begin'>;
  /** A level that replaces a tool's own (the gateway hooks' override, tests); while given, no resolution is remembered. */
  permissionOverride?: (serverId: string, rawName: string) => PermissionLevel | undefined;
}

/** One server's share of a catalog: what buildCatalog's output depends on (besides who holds each name: the runtime's `namesRevision`). */
interface CatalogInput {
  server: ServerDefinition;
  tools: ToolList;
  rejected: readonly RejectedTool[];
  switchedOff: readonly string[];
}

const sameCatalogInput = (a: CatalogInput, b: CatalogInput) =>
  a.server === b.server && a.tools === b.tools && a.rejected === b.rejected && a.switchedOff.length === b.switchedOff.length && a.switchedOff.every((name, i) => name === b.switchedOff[i]);

/** Distinct server sets whose catalogs are kept (a caller's visible set, a tool name's possible owners). */
const CATALOG_MEMO_SIZE = 64;
const OWNERS_MEMO_SIZE = 10_000;
const RESOLVED_MEMO_SIZE = 1_000;

/** A call that adds no reminder (nearly all): one shared, frozen list. */
const NO_REMINDERS: readonly string[] = Object.freeze([]);

/** `_meta` with `chatos.caller`: what kind of caller (an agent, an app's page, a script acting as an app), its app, agent, conversation and flow. */
function withCallerMeta(meta: Record<string, unknown>, caller: Caller): Record<string, unknown> {
  const kind = caller.agentId !== undefined ? 'agent' : caller.fromPage ? 'page' : 'app';
  const told = { kind, appId: caller.appId, ...(caller.agentId === undefined ? {} : { agentId: caller.agentId }), conversationId: caller.conversationId, flow: caller.flow };
  return { ...meta, chatos: { ...(meta.chatos as Record<string, unknown> | undefined), caller: told } };
}

const resolvedKey = (caller: Caller, toolName: string) => `${caller.appId}\u0000${caller.asPlugin ?? ''}\u0000${caller.flow}\u0000${toolName}`;

/** Whether running the tool twice changes nothing, as its annotations say (a server that does not say is not retried). */
function safeToRetry(tool: OfferedTool): boolean {
  const hints = tool.annotations;
  return hints?.readOnlyHint === true || (hints?.idempotentHint === true && hints.destructiveHint === false);
}

/**
 * MCP servers as a tool source: the caller may see a server (registry
 * grants, checked now) and the flow allows it → its tools, named by the
 * catalog, each with its permission level → a call injects `_meta`, runs
 * with the server's timeout, cancellation and progress, and saves images as
 * artifacts. Everything on the call path is remembered while nothing it
 * depended on changed: this is every MCP call's path.
 */
export class McpToolSource implements ToolSource {
  readonly kind = 'mcp';
  readonly reservesNames = false;
  private readonly catalogMemo = new Map<string, { inputs: CatalogInput[]; namesRevision: number; catalog: CatalogResult }>();

  constructor(private readonly deps: McpToolSourceDeps) {}

  /** The servers this caller may use now, in id order. */
  visibleServers(caller: Caller): ServerDefinition[] {
    return this.grantedServers(caller).filter((def) => this.runnable(def).ok);
  }

  /**
   * The server `serverId` if this caller may use it now (the access rule: switch, grant asked of the registry now,
   * selection, flow, run gate); else the rule's refusal, thrown. What a caller reaches of a server besides its tools
   * (its prompts) passes here.
   */
  usableServer(caller: Caller, serverId: string): ServerDefinition {
    const server = this.deps.runtime.definition(serverId);
    if (!server) throw new GatewayError('UNKNOWN_TOOL', `no MCP server "${serverId}"`, 'pick one of the servers listed for this conversation');
    const answer = this.access(caller, server);
    if (!answer.ok) throw gatewayRefusal(answer, server.id);
    return server;
  }

  /** This conversation's instance of the server, started when it is not running (as a call starts it). */
  async instanceOf(server: ServerDefinition, caller: Caller): Promise<Lease> {
    return this.deps.runtime.connections.ready(server, caller.conversationId) ?? (await this.deps.runtime.connections.acquire(server, caller.conversationId)).lease;
  }

  /** The servers the access rule allows this caller, but for the run gate (asked apart: a listing says why a plugin's server is left out). */
  private grantedServers(caller: Caller): ServerDefinition[] {
    const { runtime, registry } = this.deps;
    const allowed = new Set(registry.getMcpServersForApp(caller.appId, caller.asPlugin).map((s) => s.id));
    return runtime
      .allDefinitions()
      .filter((def) => accessTo(caller, def, this.accessFacts(def, { granted: () => allowed.has(def.id), gate: () => RUN_ALLOWED })).ok)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** What the access rule reads about one server: the user's switch, the grant (asked of the registry now), the run gate's cached answer. */
  private accessFacts(def: ServerDefinition, overrides: Partial<Pick<AccessFacts, 'granted' | 'gate'>> & { caller?: Caller } = {}): AccessFacts {
    const { caller } = overrides;
    return {
      switchedOff: () => this.switchedOff(def),
      granted: overrides.granted ?? (() => caller !== undefined && this.deps.registry.hasMcpServerAccess(caller.appId, def.id, caller.asPlugin)),
      gate: overrides.gate ?? (() => this.runnable(def)),
      mcpConfigFile: this.deps.mcpConfigFile,
    };
  }

  /** The access rule's answer for this caller and server now (a call names `toolName`, said in a refusal). */
  access(caller: Caller, def: ServerDefinition, toolName?: string): AccessAnswer {
    return accessTo(caller, def, this.accessFacts(def, { caller }), toolName);
  }

  /** The run gate's cached answer for a plugin's server; other servers always may. */
  private runnable(def: ServerDefinition): RunGateAnswer {
    return def.plugin ? this.deps.runGate.checkCached(def.plugin, 'server') : RUN_ALLOWED;
  }

  /** Lists every visible server's tools, starting the servers not yet listed (first use). A server whose plugin may not run is left out, saying why. */
  async list(caller: Caller): Promise<SourceListing> {
    const problems: Problem[] = [];
    const servers = this.grantedServers(caller).filter((server) => {
      const gate = this.runnable(server);
      if (!gate.ok) problems.push({ severity: 'warning', code: gate.code, file: server.id, path: '', message: `${gate.message}: its tools are not offered`, hint: gate.fix });
      return gate.ok;
    });
    const reminders: string[] = [];
    for (const [server, error] of await this.listTools(servers, caller, reminders)) {
      const fix = error instanceof McpRuntimeError ? error.fix : undefined;
      problems.push({
        severity: 'error',
        code: 'SERVER_START_FAILED',
        file: server.id,
        path: '',
        message: error.message,
        hint: fix ?? 'see the server log; fix its command or configuration',
      });
    }
    const catalog = this.catalogOf(servers);
    return { tools: catalog.tools, problems: [...problems, ...catalog.problems], reminders };
  }

  names(caller: Caller): readonly string[] {
    return this.catalogOf(this.visibleServers(caller)).tools.map((t) => t.name);
  }

  /**
   * Starts those of `servers` that have not listed their tools (first use),
   * all at once, then keeps their lists in id order: of two servers first
   * listed together that give one name, the lower id holds it, however fast
   * each started. Returns the servers that failed to start, with why.
   */
  private async listTools(servers: readonly ServerDefinition[], caller: Caller, reminders: string[]): Promise<Map<ServerDefinition, Error>> {
    const started = await Promise.all(
      servers.map(async (server) => {
        if (this.deps.runtime.cachedTools(server.id)) return undefined;
        try {
          const { lease, first } = await this.deps.runtime.connections.acquire(server, caller.conversationId);
          if (first && !server.trulyStateless) reminders.push(leaseReminder(server.id));
          return { server, tools: [...lease.connection.tools], rejected: lease.connection.rejectedTools };
        } catch (error) {
          return { server, error: error as Error };
        }
      }),
    );
    const failed = new Map<ServerDefinition, Error>();
    for (const entry of started.filter((e) => e !== undefined).sort((a, b) => (a.server.id < b.server.id ? -1 : a.server.id > b.server.id ? 1 : 0))) {
      if (entry.error) failed.set(entry.server, entry.error);
      else if (entry.tools) this.deps.runtime.rememberTools(entry.server, entry.tools, entry.rejected);
    }
    return failed;
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
    const override = ownValue(settings?.permissionOverrides, tool.rawName) ?? this.deps.permissionOverride?.(server.id, tool.rawName);
    const memo = this.offeredMemo.get(tool);
    if (memo && memo.server === server && memo.override === override) return memo.offered;
    const { level, source } = resolvePermission(server, { name: tool.rawName, annotations: tool.annotations }, override);
    const offered: OfferedTool = { ...tool, permission: level, permissionSource: source, source: 'mcp' };
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
      inputs.push({ server, tools, rejected: this.deps.runtime.rejectedTools(server.id), switchedOff: settings?.disabledTools ?? [] });
    }
    const key = inputs.map((input) => input.server.id).join('\u0000');
    const namesRevision = this.deps.runtime.namesRevision;
    const hit = this.catalogMemo.get(key);
    if (hit && hit.namesRevision === namesRevision && hit.inputs.every((input, i) => sameCatalogInput(input, inputs[i]!))) return { catalog: hit.catalog, settingsOf };
    // Tools the user switched off are dropped by the catalog like configured ones, with a problem saying so.
    const entries = inputs.map(({ server, tools, rejected, switchedOff }) => ({
      server: switchedOff.length ? { ...server, disabledTools: [...server.disabledTools, ...switchedOff] } : server,
      tools,
      rejected,
    }));
    // A name belongs to the server that holds it, whoever else lists it since (docs/rules/mcp-yaml.md#tool-names-and-transforms).
    const catalog = buildCatalog(entries, [RELEASE_TOOL.name], { fileOf: fileOfServer(this.deps.mcpConfigFile), holderOf: this.holderOf });
    if (this.catalogMemo.size >= CATALOG_MEMO_SIZE) this.catalogMemo.clear();
    this.catalogMemo.set(key, { inputs, namesRevision, catalog });
    return { catalog, settingsOf };
  }

  private readonly holderOf = (name: string) => this.deps.runtime.toolNameHolder(name);

  /** A catalog's tools by the name a caller calls, built once per catalog (catalogs are replaced, never mutated). */
  private readonly byNameMemo = new WeakMap<CatalogResult, ReadonlyMap<string, CatalogTool>>();

  private toolsByName(catalog: CatalogResult): ReadonlyMap<string, CatalogTool> {
    let byName = this.byNameMemo.get(catalog);
    if (!byName) this.byNameMemo.set(catalog, (byName = new Map(catalog.tools.map((tool) => [tool.name, tool]))));
    return byName;
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
   * Which servers that have not listed their tools could give a name, judged
   * by the name alone: the default prefix of a server without transforms,
   * or a transform chain that could make it. Only these are started to find
   * a name no listed server gives; a listed server's names are known, and
   * one is routed by who holds it, never by its spelling. Runs for names no
   * listed server holds, so the answer is kept until the definitions change;
   * never mutate what it returns.
   */
  private namableBy(toolName: string): readonly ServerDefinition[] {
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

  /** The server holding `toolName` (docs/rules/mcp-yaml.md#tool-names-and-transforms), when its tools are listed under its current definition. */
  private listedHolder(toolName: string): ServerDefinition | undefined {
    const held = this.deps.runtime.toolNameHolder(toolName);
    return held && this.deps.runtime.cachedTools(held.server.id) ? held.server : undefined;
  }

  /**
   * The servers that may give a name no listed server holds: its holder when
   * that has not listed since its definition changed, then every unlisted
   * server whose name rule could make it.
   */
  private unlistedCandidates(toolName: string): ServerDefinition[] {
    const held = this.deps.runtime.toolNameHolder(toolName)?.server;
    const unlisted = this.namableBy(toolName).filter((def) => def !== held && !this.deps.runtime.cachedTools(def.id));
    return held ? [held, ...unlisted] : unlisted;
  }

  /**
   * The server and tool a call names. An identical earlier call's resolution
   * is reused, without a promise, while nothing it depended on changed; a
   * name no server gives (or could give) is not this source's.
   */
  resolve(caller: Caller, toolName: string, reminders: string[]): ResolvedTool | undefined | Promise<ResolvedTool | undefined> {
    const known = this.resolvedBefore(caller, toolName);
    if (known) return known;
    return this.resolveInFull(caller, toolName, reminders);
  }

  /** Why this caller may not call this tool of this server, as the access rule says it. */
  private refusal(caller: Caller, toolName: string, server: ServerDefinition): GatewayError {
    const answer = this.access(caller, server, toolName);
    // The refusal is asked after a negative answer: a grant given in between is no reason to let the call through here.
    return answer.ok ? new GatewayError('NOT_GRANTED', `${caller.appId} may not use "${toolName}" now`, 'call it again', server.id) : gatewayRefusal(answer, server.id);
  }

  private readonly cachedToolsOf = (serverId: string) => this.deps.runtime.cachedTools(serverId);

  /** A plugin that may no longer run (untrusted, edited) serves no one: its running instances are stopped, not left idle. */
  private async retireStale(servers: readonly ServerDefinition[]): Promise<void> {
    const stale = servers.filter((def) => def.plugin && this.deps.runtime.connections.anyRunning(def.id) && !this.runnable(def).ok);
    await Promise.all(stale.map((def) => this.deps.runtime.connections.retire(def.id, 'not-runnable')));
  }

  /**
   * Which server and tool a call names, worked out in full. A name is routed
   * to the server that holds it (docs/rules/mcp-yaml.md#tool-names-and-transforms), looked up in its catalog
   * by name: the one server it may run on, never the one its spelling
   * suggests. A name no listed server holds may belong to a server that has
   * not listed yet: those this caller may use are started to find out. The
   * caller's access to the holder is asked of the registry now; the answer
   * is remembered for `resolvedBefore`.
   */
  private async resolveInFull(caller: Caller, toolName: string, reminders: string[]): Promise<ResolvedTool | undefined> {
    const revision = this.deps.registry.freshRevision();
    const version = this.deps.runtime.version;
    let holder = this.listedHolder(toolName);
    let starting = false;
    if (!holder) {
      const candidates = this.unlistedCandidates(toolName);
      if (candidates.length === 0) return undefined;
      const usable = candidates.filter((def) => this.mayUse(caller, def));
      if (usable.length === 0) {
        await this.retireStale(candidates);
        throw this.refusal(caller, toolName, ownerOf(candidates, toolName, this.cachedToolsOf, true)!);
      }
      starting = true;
      const failed = await this.listTools(usable, caller, reminders);
      if (failed.size) throw failed.values().next().value!;
      holder = this.listedHolder(toolName);
      if (!holder) {
        // The name may be a tool of a server this caller may not use, while one it may use (a transform) could have made it too.
        const owner = ownerOf(
          candidates.filter((def) => !usable.includes(def)),
          toolName,
          this.cachedToolsOf,
          false,
        );
        if (owner) throw this.refusal(caller, toolName, owner);
        return undefined;
      }
    }
    if (!this.mayUse(caller, holder)) {
      await this.retireStale([holder]);
      throw this.refusal(caller, toolName, holder);
    }
    const { catalog, settingsOf } = this.builtCatalog([holder]);
    const found = this.toolsByName(catalog).get(toolName);
    // Held, but switched off by the user: no tool of that name is offered.
    if (!found) return undefined;
    const server = holder;
    const tool = this.offered(server, found, settingsOf.get(server.id));
    // Starting a server takes a while: its grant is checked again at the moment of the call, never cached from a listing.
    if (starting && !this.deps.registry.hasMcpServerAccess(caller.appId, server.id, caller.asPlugin)) throw this.refusal(caller, toolName, server);
    if (!starting && !this.deps.permissionOverride) {
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
  private resolvedBefore(caller: Caller, toolName: string): ResolvedTool | undefined {
    const memo = this.resolvedMemo.get(resolvedKey(caller, toolName));
    if (!memo || memo.selection !== caller.serverIds || memo.version !== this.deps.runtime.version) return undefined;
    if (memo.revision !== this.deps.registry.freshRevision() || memo.tools !== this.deps.runtime.cachedTools(memo.server.id)) return undefined;
    return memo;
  }

  /** A conversation's running instance is taken without waiting; starting (or restarting) one is awaited. */
  call(call: SourceCall, options: GatewayCallOptions | undefined): Promise<SourceResult> {
    const server = call.server!;
    const lease = this.deps.runtime.connections.ready(server, call.caller.conversationId, call.started);
    const retry = safeToRetry(call.tool);
    // A running instance's call handles its own crash (no promise more per call); a start and call, here.
    if (lease) return this.callOn(lease, call, NO_REMINDERS, options, retry);
    const first = this.startAndCall(call, options);
    return retry ? first.catch((error: unknown) => this.retryAfterCrash(error, call, options)) : first;
  }

  /**
   * docs/rules/gateway.md#a-crashed-call (confirmation → execute, with retry): a call whose server
   * crashed under it runs once more on a fresh instance, but only a tool
   * that says running it twice changes nothing (read-only, or idempotent and
   * not destructive). A write is never run again without asking the user
   * again: its failure is the answer (docs/rules/gateway.md#a-crashed-call).
   */
  private async retryAfterCrash(error: unknown, call: SourceCall, options: GatewayCallOptions | undefined): Promise<SourceResult> {
    if (!(error instanceof McpRuntimeError && error.code === 'SERVER_CRASHED') || options?.signal?.aborted) throw error;
    const { lease } = await this.deps.runtime.connections.acquire(call.server!, call.caller.conversationId);
    return this.callOn(lease, call, NO_REMINDERS, options);
  }

  /** A start refused because the server's plugin may not run now is a refusal, not a failed call. */
  refusalOf(error: unknown): GatewayRefusal | undefined {
    if (error instanceof McpRuntimeError && error.code === 'SERVER_NOT_RUNNABLE') return { code: 'NOT_RUNNABLE', message: error.message, serverId: error.serverId };
    return undefined;
  }

  private async startAndCall(call: SourceCall, options: GatewayCallOptions | undefined): Promise<SourceResult> {
    const server = call.server!;
    const { lease, first } = await this.deps.runtime.connections.acquire(server, call.caller.conversationId);
    const remind = first && !server.trulyStateless && !call.reminders.some((r) => r.includes(`"${server.id}"`));
    return this.callOn(lease, call, remind ? [leaseReminder(server.id)] : NO_REMINDERS, options);
  }

  /**
   * The call itself, then its images saved as artifacts; `retryOnCrash`: a crash under it runs it once more (retryAfterCrash).
   * Kept small: its frame is saved while the server works.
   */
  private async callOn(lease: Lease, call: SourceCall, reminders: readonly string[], options: GatewayCallOptions | undefined, retryOnCrash = false): Promise<SourceResult> {
    const server = call.server!;
    const answer = lease.connection.callTool(call.tool.rawName, call.args, this.metaFor(server, call.caller), options);
    // Once the request is sent (the connection sends it as it is made), while the server works: what the server asks
    // during the call is read in a later turn, by when its caller is known here.
    const end = this.deps.callers?.begin(server.id, lease.conversationId, call.caller, options?.callId);
    let raw;
    try {
      raw = await answer;
    } catch (error) {
      if (!retryOnCrash) throw error;
      return this.retryAfterCrash(error, call, options);
    } finally {
      end?.();
    }
    // A failed result's text reaches every face without the server's stack trace (docs/rules/gateway.md#no-stack-traces).
    const { result, artifacts } = storeImageArtifacts(failedResultWithoutStacks(raw), options?.artifactsDir ?? this.deps.artifactsDir, server.id, call.tool.rawName, this.deps.now());
    const out: SourceResult = reminders.length ? { result, artifacts, reminders } : { result, artifacts };
    if (server.maxResultChars !== undefined) out.maxResultChars = server.maxResultChars;
    return out;
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
}
