import * as fs from 'node:fs';
import type { ServerProtocol } from '../../shared/mcp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { LogLevel, PermissionLevel, ServerDefinition } from '../../shared/mcp.js';
import type { Problem } from '../../shared/problems.js';
import { formatJsonPath } from '../../shared/problemText.js';
import type { RegistryMcpServer, RegistrySource } from '../../shared/registry.js';
import { formatCmdUrl } from '../naming/cmdUrl.js';
import type { RegistryCenter } from '../registry/registryCenter.js';
import { registryId } from '../registry/registryTables.js';
import { definitionFromRegistry, definitionsEqual, isRejectedServer, loadMcpConfig, type McpConfigLoad } from './config/mcpConfigLoader.js';
import { buildCatalog, fileOfServer } from './catalog/toolCatalog.js';
import { ToolNameHolders, type NameHolding } from './catalog/toolNameHolders.js';
import { ConnectionManager } from './connection/connectionManager.js';
import { DEFAULT_LEASE_IDLE_MS, type LeaseSettings } from './config/leaseSettings.js';
import { ServerConnection, type ConnectionDeps, type InProcessServerFactory } from './connection/serverConnection.js';
import { McpRuntimeError, type McpErrorCode, type StartFailureReason } from './mcpRuntimeError.js';
import type { ReadStoredValue } from './config/envValues.js';
import { ServerLog } from '../process/serverLog.js';
import { PidRegistry } from '../process/pidRegistry.js';
import { HOST_APP_ID } from '../dataHome.js';
import { RUN_ALLOWED, type RunGate, type RunGateAnswer } from '../policy/runGate.js';
import type { HostModules } from '../runtime/hostModules.js';
import { deepFreeze, frozenTools, type ToolList } from './frozen.js';
import { withNodeRuntime, type NodeRuntimeSettings } from '../runtime/nodeRuntimeSettings.js';
import type { ClientFeatures } from './client/clientFeatures.js';
import type { RejectedTool } from './client/checkedTools.js';
import type { ToolListing } from './client/toolsClient.js';
import type { BuiltinSettings } from './config/builtinSettings.js';
import { boundedInstructions } from './instructions/serverInstructions.js';
import type { Scheduler } from '../ports.js';

export interface McpRuntimeOptions {
  configFile: string;
  runDir: string;
  /** The host's pid registry in runDir, shared with its plugin backends; default one of its own. */
  pids?: PidRegistry;
  hostEnv: NodeJS.ProcessEnv;
  registry: RegistryCenter;
  now: () => number;
  /** The host's scheduler, where calls' own timeouts run: a test moves its time; default the system's. */
  scheduler?: Scheduler;
  /** Whether a plugin's server may run (trusted, or built-in): per call (cached) and at spawn (in full). */
  runGate: Pick<RunGate, 'check' | 'checkCached'>;
  idleMs?: number;
  closeGraceMs?: number;
  /** Servers built into the host (category builtin/assistant), with the factories that make them. */
  builtinServers?: ServerDefinition[];
  /** The built-in tools switched on in mcp.yaml's `builtins:` block, as definitions (their factories are among `inProcessServers`). */
  builtinTools?: (settings: BuiltinSettings) => ServerDefinition[];
  /** What the registry rows of built-in servers say they do, by id (shown on their cards and in the agent editor). */
  builtinDescriptions?: ReadonlyMap<string, string>;
  inProcessServers?: ReadonlyMap<string, InProcessServerFactory>;
  /** What each MCP client declares and answers beyond tools (mcp/client/clientFeatures.ts); default: tools alone. */
  clientFeatures?: ClientFeatures;
  /** The hook a plugin's Node server is started with, so it may import the host's SDK and zod (the run plan shows it). */
  hostModules?: HostModules;
  /** Reads `{ secret: NAME }` values (the host's key store) when a server starts. */
  readStoredValue?: ReadStoredValue;
  /** Sign-in to remote servers: their stored tokens, refreshed once when refused, else SIGN_IN_NEEDED. */
  oauth?: ConnectionDeps['oauth'];
  /** The log level the user set for a server, sent to each of its instances as it starts. */
  logLevel?: (serverId: string) => LogLevel | undefined;
  /** An instance started, speaking this protocol era and revision (docs/using/mcp-servers.md#protocol-eras). */
  onProtocol?: ConnectionDeps['onProtocol'];
}

/** What starting a definition once found: its tools, or the coded reason it did not start. */
export type TrialStart =
  | { ok: true; tools: Tool[]; ms: number; stderr: string[]; protocol?: ServerProtocol }
  | { ok: false; code: McpErrorCode | 'TEST_TIMEOUT'; reason?: StartFailureReason; message: string; fix?: string; ms: number; stderr: string[] };

export interface ReloadReport {
  version: number;
  added: string[];
  changed: string[];
  removed: string[];
  /** Servers whose new definition failed; they keep their last good definition. */
  keptLastGood: string[];
  problems: Problem[];
}

/** A changed server that was in use, started with its new definition: its new tools wait for the collision check. */
interface ProbedUpdate {
  id: string;
  definition: ServerDefinition;
  current: ServerDefinition;
  tools: Tool[];
  rejected: readonly RejectedTool[];
}

/**
 * Every server definition, from every source, and the connections to them.
 * Definitions are recomputed on demand (mcp.yaml reload, plugin rescan)
 * and swapped per server: an unchanged server keeps its definition object
 * and its running clients; a changed one that is running is probed with the
 * new definition first and keeps its last good state if the probe fails.
 */
export class McpRuntime {
  readonly connections: ConnectionManager;
  private definitions = new Map<string, ServerDefinition>();
  private readonly toolCache = new Map<string, { definition: ServerDefinition; tools: ToolList; rejected: readonly RejectedTool[] }>();
  /** mcp.yaml servers as last loaded well, so a bad edit keeps the previous good one. */
  private lastGoodYaml = new Map<string, ServerDefinition>();
  private configProblems: Problem[] = [];
  /** mcp.yaml servers whose new entry was rejected in the last load, so they kept their last good definition. */
  private yamlKeptLastGood: string[] = [];
  private definitionProblems: Problem[] = [];
  /** mcp.yaml's `leases:` block as last loaded (a rejected file keeps the last one). */
  private leases: LeaseSettings = {};
  /** mcp.yaml's `nodeRuntime:` block as last loaded (a rejected file keeps the last one). */
  private nodeRuntime: NodeRuntimeSettings = {};
  /** mcp.yaml's `builtins:` block as last loaded (a rejected file keeps the last one). */
  private builtinSettings: BuiltinSettings = {};
  private versionCounter = 0;
  private readonly pids: PidRegistry;

  constructor(private readonly options: McpRuntimeOptions) {
    this.pids = options.pids ?? new PidRegistry(options.runDir);
    this.connections = new ConnectionManager({
      pids: this.pids,
      hostEnv: options.hostEnv,
      now: options.now,
      scheduler: options.scheduler,
      clientInfo: { name: 'chatos', version: '0.1.0' },
      idleMs: options.idleMs ?? DEFAULT_LEASE_IDLE_MS,
      closeGraceMs: options.closeGraceMs ?? 10_000,
      maxBackoffMs: 8_000,
      inProcessServers: options.inProcessServers,
      clientFeatures: options.clientFeatures,
      // Asked on every call: a host-configured server always may, with one shared answer.
      mayStart: (definition) => (definition.plugin ? options.runGate.checkCached(definition.plugin, 'server') : RUN_ALLOWED),
      gate: (definition) => this.gateAtSpawn(definition),
      configFile: options.configFile,
      readStoredValue: options.readStoredValue,
      oauth: options.oauth,
      onToolsChanged: (definition, listing) => this.toolsChanged(definition, listing),
      onInstructions: (definition, text) => this.instructionsCache.set(definition.id, { definition, text: boundedInstructions(text) }),
      logLevel: options.logLevel,
      onProtocol: options.onProtocol,
    });
  }

  /** The instructions each server gave when it last started with its current definition (bounded). */
  private readonly instructionsCache = new Map<string, { definition: ServerDefinition; text: string | undefined }>();

  /** The instructions the server gave at its last start under its current definition; undefined if none (or not started since). */
  instructionsOf(serverId: string): string | undefined {
    const cached = this.instructionsCache.get(serverId);
    return cached && cached.definition === this.definitions.get(serverId) ? cached.text : undefined;
  }

  private readonly toolsListeners = new Set<(serverId: string) => void>();

  /** Hears each server whose offered tools changed without a reload (its list-changed notification); returns the unsubscribe function. */
  onToolsChanged(listener: (serverId: string) => void): () => void {
    this.toolsListeners.add(listener);
    return () => void this.toolsListeners.delete(listener);
  }

  /**
   * A running instance re-listed its tools on the server's word: the new
   * list replaces the cached one at once, so the next listing (the model's
   * next request, the Servers page) offers it without a reload
   * (docs/rules/mcp-yaml.md#tool-list-changes). An instance of a replaced
   * definition, or a list the same as the cached one, changes nothing.
   */
  private toolsChanged(definition: ServerDefinition, { tools, rejected }: ToolListing): void {
    if (this.definitions.get(definition.id) !== definition) return;
    const cached = this.cachedTools(definition.id);
    if (cached && JSON.stringify(cached) === JSON.stringify(tools) && JSON.stringify(this.rejectedTools(definition.id)) === JSON.stringify(rejected)) return;
    this.rememberTools(definition, tools, rejected);
    for (const listener of [...this.toolsListeners]) listener(definition.id);
  }

  /** The run gate in full, for the moment a server (or a reload's probe of one) is spawned. */
  private gateAtSpawn(definition: ServerDefinition): RunGateAnswer {
    return definition.plugin ? this.options.runGate.check(definition.plugin, 'server') : RUN_ALLOWED;
  }

  /** Reaps servers and plugin backends orphaned by a host that was killed, then loads mcp.yaml. Starts no server. */
  async start(): Promise<ReloadReport> {
    await PidRegistry.reapOrphans(this.options.runDir);
    return this.reload();
  }

  get version(): number {
    return this.versionCounter;
  }

  /** How long instances are kept, as mcp.yaml sets it (empty: the host's options decide). */
  get leaseSettings(): LeaseSettings {
    return this.leases;
  }

  get problems(): Problem[] {
    return [...this.configProblems, ...this.definitionProblems];
  }

  definition(serverId: string): ServerDefinition | undefined {
    return this.definitions.get(serverId);
  }

  allDefinitions(): ServerDefinition[] {
    return [...this.definitions.values()];
  }

  /** The tools a server listed when it last ran with its current definition (frozen: replaced, never mutated); undefined if never. */
  cachedTools(serverId: string): ToolList | undefined {
    const cached = this.toolCache.get(serverId);
    return cached && cached.definition === this.definitions.get(serverId) ? cached.tools : undefined;
  }

  /**
   * The tools of the server's last list that the host cannot offer (a broken schema: docs/rules/mcp-yaml.md#tools-the-host-cannot-offer),
   * listed with its current definition; none when it has not listed since.
   */
  rejectedTools(serverId: string): readonly RejectedTool[] {
    const cached = this.toolCache.get(serverId);
    return cached && cached.definition === this.definitions.get(serverId) ? cached.rejected : NO_REJECTED;
  }

  /** A list the server gave with its current definition: its tools, and those the host set apart (`rejected`). */
  rememberTools(definition: ServerDefinition, tools: readonly Tool[], rejected: readonly RejectedTool[] = NO_REJECTED): void {
    if (this.definitions.get(definition.id) !== definition) return;
    this.cacheTools(definition, tools, rejected);
  }

  /** Who holds each tool name: see `toolNameHolder`. */
  private readonly holders = new ToolNameHolders();

  /** Every list the runtime keeps goes through here, so the names it gives are claimed (or queued behind their holder) at once. */
  private cacheTools(definition: ServerDefinition, tools: readonly Tool[], rejected: readonly RejectedTool[]): void {
    const frozen = frozenTools(tools);
    this.toolCache.set(definition.id, { definition, tools: frozen, rejected: rejected.length ? deepFreeze([...rejected]) : NO_REJECTED });
    this.holders.offer(
      definition.id,
      buildCatalog([{ server: definition, tools: frozen }], []).tools.map(({ name, rawName }) => ({ name, rawName })),
    );
  }

  /**
   * The server that holds a tool name now, and which of its tools has it
   * (docs/rules/mcp-yaml.md#tool-names-and-transforms): the server whose list gave the name first and still
   * gives it, whatever another server lists since (a re-list, a reload, a
   * server added). Undefined when no server's list gives the name. Tools a
   * user switched off still hold their names.
   */
  toolNameHolder(name: string): { server: ServerDefinition; rawName: string } | undefined {
    const held = this.holders.holderOf(name);
    const server = held && this.definitions.get(held.serverId);
    return server ? { server, rawName: held.rawName } : undefined;
  }

  /** Changes whenever a tool name changes hands: a catalog built before may name the wrong holder. */
  get namesRevision(): number {
    return this.holders.revision;
  }

  /**
   * Recomputes every definition: mcp.yaml (per-server commit, last known
   * good on failure), then the registry's rows. Registers mcp.yaml servers
   * in the registry under `chatos`, so visibility and grants treat them like
   * any other server.
   */
  async reload(): Promise<ReloadReport> {
    const load = loadMcpConfig(this.options.configFile, this.options.hostEnv);
    const yaml = this.yamlDefinitions(load);
    this.registerYamlServers(yaml, load);
    this.definitionProblems = [];
    const builtins = [...(this.options.builtinServers ?? []), ...this.builtinToolDefinitions(yaml)];
    this.registerBuiltins(builtins);
    const next = new Map<string, ServerDefinition>(yaml);
    for (const def of builtins) next.set(def.id, def);
    for (const row of this.options.registry.listServers()) {
      // A missing registration is shown, never offered (its plugin or DB row is gone).
      if (row.source.kind === 'mcp-yaml' || row.source.kind === 'builtin' || row.missing) continue;
      const made = definitionFromRegistry(row, { hostModules: this.options.hostModules });
      if (made.ok) next.set(row.id, made.definition);
      else this.definitionProblems.push({ severity: 'warning', code: 'SERVER_DEFINITION_UNUSABLE', file: row.id, path: '', message: made.reason, hint: 'fix the server url where it is registered' });
    }
    for (const [id, def] of next) next.set(id, withNodeRuntime(def, this.nodeRuntime));
    const report = await this.swap(next);
    // The report says what the file's own validation rejected too, not only failed probes.
    report.keptLastGood.unshift(...this.yamlKeptLastGood);
    report.problems.unshift(...this.configProblems);
    return report;
  }

  private yamlDefinitions(load: McpConfigLoad): Map<string, ServerDefinition> {
    this.yamlKeptLastGood = [];
    if (load.kind === 'missing') {
      this.configProblems = [];
      this.lastGoodYaml = new Map();
      this.leases = {};
      this.nodeRuntime = {};
      this.builtinSettings = {};
      return new Map();
    }
    if (load.kind === 'rejected') {
      // A workspace-level error rejects the whole reload: the last good set stays.
      this.configProblems = load.problems;
      return new Map(this.lastGoodYaml);
    }
    this.configProblems = load.problems;
    this.leases = load.leases;
    this.nodeRuntime = load.nodeRuntime;
    this.builtinSettings = load.builtins;
    const good = new Map<string, ServerDefinition>();
    for (const [key, server] of load.servers) {
      const id = registryId(HOST_APP_ID, key);
      if (!isRejectedServer(server)) good.set(id, server);
      else if (this.lastGoodYaml.has(id)) {
        good.set(id, this.lastGoodYaml.get(id)!); // per-server failure: keep its last good
        this.yamlKeptLastGood.push(id);
      }
    }
    this.lastGoodYaml = good;
    return good;
  }

  /**
   * A server this process cannot read now (the file rejected whole, or its
   * entry rejected) keeps its registration as it is: another process may be
   * running its last good configuration. One gone from the file is marked
   * missing (its grants kept).
   */
  private registerYamlServers(yaml: Map<string, ServerDefinition>, load: McpConfigLoad): void {
    const { configFile, registry } = this.options;
    const source = { kind: 'mcp-yaml' as const, file: configFile };
    const rejected = new Set(load.kind === 'loaded' ? [...load.servers].filter(([, server]) => isRejectedServer(server)).map(([key]) => registryId(HOST_APP_ID, key)) : []);
    registry.reconcile(
      (s) => s.kind === 'mcp-yaml',
      { servers: [...yaml.values()].map((def) => registryRowOf(def, source)), prompts: [] },
      {
        keep: (row) => load.kind === 'rejected' || rejected.has(row.id),
        missingReason: () => `no longer in ${configFile}`,
      },
    );
  }

  /**
   * The built-in tools switched on, less any whose name a server of
   * mcp.yaml already has: the user's own server keeps `chatos::<name>`, and
   * a problem says how to have the built-in one instead.
   */
  private builtinToolDefinitions(yaml: ReadonlyMap<string, ServerDefinition>): ServerDefinition[] {
    const wanted = this.options.builtinTools?.(this.builtinSettings) ?? [];
    return wanted.filter((def) => {
      if (!yaml.has(def.id)) return true;
      this.definitionProblems.push({
        severity: 'warning',
        code: 'BUILTIN_NAME_TAKEN',
        file: this.options.configFile,
        path: formatJsonPath(['servers', def.name]),
        message: `the built-in tool "${def.name}" is switched on, but your server "${def.name}" in mcp.yaml has its name, so yours is offered instead`,
        hint: `rename or remove server "${def.name}" in mcp.yaml to use the built-in one (it needs no uv, npx or node), or switch the built-in one off`,
      });
      return false;
    });
  }

  /**
   * Built-in (in-process) servers are registered like any other, under
   * `chatos`. A built-in tool switched off is removed with its grants (it is
   * gone, not missing: switching it on again registers it afresh).
   */
  private registerBuiltins(builtins: readonly ServerDefinition[]): void {
    const { registry } = this.options;
    registry.reconcile(
      (s) => s.kind === 'builtin',
      { servers: builtins.map((def) => registryRowOf(def, { kind: 'builtin' }, this.options.builtinDescriptions?.get(def.id))), prompts: [] },
      { missingReason: () => 'no longer built into this ChatOS' },
    );
    const on = new Set(builtins.map((def) => def.id));
    const switchedOff = new Set((this.options.builtinTools?.(ALL_ON) ?? []).map((def) => def.id).filter((id) => !on.has(id)));
    if (switchedOff.size) registry.removeRegistrations((row) => row.source.kind === 'builtin' && switchedOff.has(row.id) && row.missing !== undefined);
  }

  private async swap(next: Map<string, ServerDefinition>): Promise<ReloadReport> {
    const report: ReloadReport = { version: this.versionCounter, added: [], changed: [], removed: [], keptLastGood: [], problems: [] };
    const committed = new Map<string, ServerDefinition>();
    /** Changed servers whose new tools are known: committed only after the collision check below. */
    const listed: ProbedUpdate[] = [];
    await Promise.all(
      [...next].map(async ([id, definition]) => {
        const current = this.definitions.get(id);
        if (!current) {
          committed.set(id, definition);
          report.added.push(id);
          return;
        }
        if (definitionsEqual(current, definition)) {
          committed.set(id, current); // same object: its clients stay
          return;
        }
        const probed = await this.probe(definition, current);
        if (probed.ok && probed.tools) {
          listed.push({ id, definition, current, tools: probed.tools, rejected: probed.rejected ?? NO_REJECTED });
        } else if (probed.ok) {
          committed.set(id, definition);
          report.changed.push(id);
          if (probed.refused) report.problems.push(probed.refused);
        } else {
          committed.set(id, current);
          report.keptLastGood.push(id);
          report.problems.push({
            severity: 'error',
            code: 'SERVER_RELOAD_FAILED',
            file: id,
            path: '',
            message: `${probed.message}; the previous configuration keeps running`,
            hint: 'fix the server configuration; it is retried on the next change',
          });
        }
      }),
    );
    for (const id of this.definitions.keys()) if (!next.has(id)) report.removed.push(id);
    // A server removed lets go of its names first, so a changed server may take them in this same reload.
    for (const id of report.removed) this.holders.release(id);
    this.commitUnlessColliding(listed, committed, report);
    // Published definitions are never changed in place (the gateway's memos key on them): a slip throws.
    for (const definition of committed.values()) deepFreeze(definition);
    this.definitions = committed;
    for (const id of [...report.changed, ...report.removed]) void this.connections.retire(id);
    for (const id of report.removed) {
      this.toolCache.delete(id);
      this.instructionsCache.delete(id);
    }
    if (report.added.length || report.changed.length || report.removed.length) this.versionCounter++;
    report.version = this.versionCounter;
    this.definitionProblems.push(...report.problems);
    return report;
  }

  /**
   * docs/rules/mcp-yaml.md#tool-names-and-transforms: a server whose new tool names collide (with a name
   * another server holds, or two of its own) has that update rejected,
   * keeping its last known good definition and tools, with a problem naming
   * both servers. Checked for every changed server whose new tools are known
   * (it was in use, so it was probed), in id order, against the names held
   * once the ones before it are settled; one that collides with a name
   * another changed server lets go in this reload is checked again after it.
   * A server whose tools are not known yet (new, or never used) is not
   * checked here: when it lists, its colliding tool is refused and the holder
   * keeps the name.
   */
  private commitUnlessColliding(listed: readonly ProbedUpdate[], committed: Map<string, ServerDefinition>, report: ReloadReport): void {
    let pending = [...listed].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (;;) {
      const waiting = pending.filter((update) => {
        if (this.collisionOf(update)) return true;
        committed.set(update.id, update.definition);
        report.changed.push(update.id);
        this.cacheTools(update.definition, update.tools, update.rejected);
        return false;
      });
      if (waiting.length === pending.length) break;
      pending = waiting;
    }
    const fileOf = fileOfServer(this.options.configFile);
    for (const update of pending) {
      const { id, definition, current } = update;
      committed.set(id, current);
      report.keptLastGood.push(id);
      const collision = this.collisionOf(update)!;
      const { clash, holding, inner } = collision;
      const holder = holding && (committed.get(holding.serverId) ?? this.definitions.get(holding.serverId));
      const holderName = holder ? holder.name : holding?.serverId;
      const why =
        clash && holding
          ? `its tool "${clash.rawName}" would be offered as "${clash.name}", the name of tool "${holding.rawName}" of server "${holderName}" (${holding.serverId})`
          : `two of its own tools would get one name: ${inner}`;
      report.problems.push({
        severity: 'error',
        code: 'TOOL_NAME_COLLISION',
        file: fileOf(definition),
        path: definition.origin === 'mcp.yaml' ? formatJsonPath(['servers', definition.name, ...(definition.transform.length ? ['transform'] : [])]) : '',
        message: `the new configuration of server "${definition.name}" (${id}) was not applied: ${why}; it keeps its last good configuration and tools`,
        hint: holding
          ? `change its transform (or tools filter) so its names differ from those of server "${holderName}", or blacklist one of the two tools; it is checked again on the next change`
          : 'change its transform so each tool keeps a name of its own, or blacklist one of the two tools',
      });
    }
  }

  /** Why a changed server's new tools may not be offered: a name another server holds, or two of its own tools with one name. */
  private collisionOf({ id, definition, tools }: ProbedUpdate): { clash?: { name: string; rawName: string }; holding?: NameHolding; inner?: string } | undefined {
    const own = buildCatalog([{ server: definition, tools }], []);
    for (const tool of own.tools) {
      const holding = this.holders.holderOf(tool.name);
      if (holding && holding.serverId !== id) return { clash: tool, holding };
    }
    const inner = own.problems.find((problem) => problem.code === 'TOOL_NAME_COLLISION');
    return inner ? { inner: inner.message } : undefined;
  }

  /**
   * A changed server that is in use is started with its new definition
   * before the old one is let go. A probe is a start: the run gate is asked
   * first, and a plugin it refuses (edited since it was trusted) gets its
   * new definition committed without tools, refused at use, while its
   * running instances are retired with the old definition.
   */
  private async probe(
    definition: ServerDefinition,
    current: ServerDefinition,
  ): Promise<{ ok: true; tools?: Tool[]; rejected?: readonly RejectedTool[]; refused?: Problem } | { ok: false; message: string }> {
    const inUse = this.connections.anyRunning(current.id) !== undefined || this.toolCache.has(current.id);
    if (!inUse || definition.disabled) return { ok: true };
    const gate = this.gateAtSpawn(definition);
    if (!gate.ok) {
      return {
        ok: true,
        refused: {
          severity: 'warning',
          code: gate.code,
          file: definition.id,
          path: '',
          message: `${gate.message}: its new configuration was not started, and the running one was stopped`,
          hint: gate.fix,
        },
      };
    }
    const connection = this.oneOffConnection(definition, this.connections.logOf(definition.id));
    try {
      await connection.start();
      return { ok: true, tools: [...connection.tools], rejected: connection.rejectedTools };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    } finally {
      // Off the reload's path: the new tools are known, and ending a process walks /proc on this thread, which
      // held the swap and its event back by tens of ms on a busy machine. It starts once this turn's work is done.
      setImmediate(() => void connection.close(0));
    }
  }

  /** A connection outside the leases (a reload's probe, a test), started through the same gate, environment and pid registry. */
  private oneOffConnection(definition: ServerDefinition, log: ServerLog): ServerConnection {
    return new ServerConnection(definition, {
      log,
      pids: this.pids,
      hostEnv: this.options.hostEnv,
      clientInfo: { name: 'chatos', version: '0.1.0' },
      now: this.options.now,
      scheduler: this.options.scheduler,
      inProcessServers: this.options.inProcessServers,
      gate: (def) => this.gateAtSpawn(def),
      configFile: this.options.configFile,
      readStoredValue: this.options.readStoredValue,
      features: this.options.clientFeatures,
      oauth: this.options.oauth,
    });
  }

  /**
   * Starts `definition` once, lists its tools and ends it ("test
   * connection"): the path every start takes (the run gate at spawn, the
   * server environment, stored values, the transport rules), with a log of
   * its own so the stderr returned is this start's. Nothing is cached or
   * leased; a start that outlasts `timeoutMs` is ended and says so.
   */
  async tryStart(definition: ServerDefinition, timeoutMs: number): Promise<TrialStart> {
    const log = new ServerLog({ maxLines: 200, maxBytes: 64 * 1024 });
    const connection = this.oneOffConnection(definition, log);
    const started = this.options.now();
    const stderr = () =>
      log
        .entries()
        .filter((e) => e.stream === 'stderr')
        .map((e) => e.text.trimEnd())
        .slice(-20);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    try {
      const outcome = await Promise.race([connection.start().then(() => 'started' as const), timeout]);
      const ms = this.options.now() - started;
      if (outcome === 'timeout') {
        return { ok: false, code: 'TEST_TIMEOUT', message: `server "${definition.id}" did not finish starting (initialize and tools/list) within ${timeoutMs} ms`, ms, stderr: stderr() };
      }
      const { protocol } = connection;
      return { ok: true, tools: [...connection.tools], ms, stderr: stderr(), ...(protocol ? { protocol } : {}) };
    } catch (error) {
      const ms = this.options.now() - started;
      if (error instanceof McpRuntimeError)
        return { ok: false, code: error.code, ...(error.reason ? { reason: error.reason } : {}), message: error.message, ...(error.fix ? { fix: error.fix } : {}), ms, stderr: stderr() };
      return { ok: false, code: 'SERVER_START_FAILED', message: (error as Error).message, ms, stderr: stderr() };
    } finally {
      clearTimeout(timer);
      await connection.close(0);
    }
  }

  async dispose(): Promise<void> {
    await this.connections.closeAll();
  }
}

/** A list with no tool set apart (nearly all): one shared, frozen list. */
const NO_REJECTED: readonly RejectedTool[] = Object.freeze([]);

/** Every built-in tool on: what the built-in tools could register, so one that is off can be told apart. */
const ALL_ON: BuiltinSettings = { time: { enabled: true }, calculator: { enabled: true }, fetch: { enabled: true, allowPrivateAddresses: false } };

/** How a definition is shown in the registry: `cmd://…`, its http url, or `inproc://<name>`. */
function urlOf(def: ServerDefinition): string {
  switch (def.transport.kind) {
    case 'stdio':
      return formatCmdUrl(def.transport.command, def.transport.args);
    case 'streamable_http':
      return def.transport.url;
    case 'in-process':
      return `inproc://${def.transport.server}`;
  }
}

/** A host-owned server as a registry row under `chatos`. Only literal env values: `{ env: NAME }` secrets are resolved at spawn time and never stored. */
function registryRowOf(def: ServerDefinition, source: RegistrySource, description?: string): RegistryMcpServer {
  return {
    id: def.id,
    providerAppId: HOST_APP_ID,
    name: def.name,
    url: urlOf(def),
    ...(description === undefined ? {} : { description }),
    env: {},
    tags: [],
    allowMain: def.allowMain,
    allowSub: def.allowSub,
    enabled: !def.disabled,
    source,
  };
}
