import { randomUUID } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { LogLevel, PermissionLevel, ServerDefinition } from '../../shared/mcp.js';
import type { Problem } from '../../shared/problems.js';
import type { ServerTool, ServerView } from '../../shared/hostApi.js';
import type { ServerProtocol } from '../../shared/mcp.js';
import { ownValue } from '../../shared/ownKeys.js';
import { buildCatalog } from '../mcp/catalog/toolCatalog.js';
import { stateOfLeases, type ConnectionManager, type ServerSnapshot } from '../mcp/connection/connectionManager.js';
import type { ConnectionState, ServerConnection } from '../mcp/connection/serverConnection.js';
import { resolvePermission } from '../tools/permissions.js';
import type { McpRuntime } from '../mcp/mcpRuntime.js';
import type { ServerSettings } from '../mcp/settings/serverSettings.js';
import { troubleProblem, type ServerTrouble } from '../mcp/serverTrouble.js';
import type { RegistryCenter } from '../registry/registryCenter.js';
import { treeRssBytes } from '../process/processMemory.js';
import type { ServerLogEntry } from '../process/serverLog.js';
import { OperationError } from './operationError.js';

export interface ServerAdministrationDeps {
  runtime: Pick<McpRuntime, 'definition' | 'allDefinitions' | 'cachedTools' | 'rejectedTools' | 'rememberTools' | 'problems'> & {
    connections: Pick<ConnectionManager, 'acquire' | 'endConversation' | 'anyRunning' | 'runningOf' | 'snapshot' | 'retire' | 'logOf' | 'onStateChange'>;
  };
  registry: Pick<RegistryCenter, 'getServer'>;
  settings: ServerSettings;
  trouble(serverId: string): ServerTrouble | undefined;
}

/** A log line's source: its stream, and for a server's own message its level and logger (`log:warning db`). */
function streamLabel(entry: ServerLogEntry): string {
  if (entry.stream !== 'message') return entry.stream;
  return `log:${entry.level ?? 'info'}${entry.logger ? ` ${entry.logger}` : ''}`;
}

const logLevelOf = (level: LogLevel | undefined) => (level === undefined ? {} : { logLevel: level });

/**
 * The group a server declares a tool in, `_meta.chatos.domain` as the tool
 * is listed (the settings server puts its module's domain there,
 * docs/rules/settings-server.md#the-management-ui): a short label, read by own keys only; never guessed from the name.
 */
function declaredDomain(tool: Tool): string | undefined {
  const chatos = tool._meta && Object.hasOwn(tool._meta, 'chatos') ? tool._meta.chatos : undefined;
  if (typeof chatos !== 'object' || chatos === null || !Object.hasOwn(chatos, 'domain')) return undefined;
  const domain = (chatos as { domain?: unknown }).domain;
  return typeof domain === 'string' && /^[\p{L}\p{N}_.-]{1,64}$/u.test(domain) ? domain : undefined;
}

/** A problem of a running instance, as the Problems page lists it. */
export type InstanceProblem = Problem & { source: 'servers' };

function launchOf(definition: ServerDefinition): string {
  const { transport } = definition;
  if (transport.kind === 'stdio') return [transport.command, ...transport.args].map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ');
  if (transport.kind === 'streamable_http') return transport.url;
  return 'in-process';
}

/** Problems that name this server: its registry id as the file, or its entry in mcp.yaml. */
export function problemsOfServer(problems: readonly Problem[], definition: ServerDefinition): Problem[] {
  return problems.filter((p) => p.file === definition.id || p.path === `servers.${definition.name}` || p.path.startsWith(`servers.${definition.name}.`));
}

/**
 * The servers as a person administers them (the MCP servers page, the
 * settings tools): list, tools, restart, log and the switches. Nothing
 * outside the core reaches into the connections: an instance this
 * administration starts (to list tools, or to check a restart) is leased by
 * the operation itself and released, audited, when it is done.
 */
export class ServerAdministration {
  constructor(private readonly deps: ServerAdministrationDeps) {}

  private get connections() {
    return this.deps.runtime.connections;
  }

  /** The definition, or NOT_FOUND naming where to look. */
  require(serverId: string): ServerDefinition {
    const definition = this.deps.runtime.definition(serverId);
    if (!definition) throw new OperationError('NOT_FOUND', `no server "${serverId}"`, 'see the MCP servers page for the servers the host knows');
    return definition;
  }

  /** Runs `use` on an instance leased by this operation alone, released (and audited) when it is done, whatever happens. */
  private async withOwnInstance<T>(definition: ServerDefinition, operation: string, use: (connection: ServerConnection) => T): Promise<T> {
    const owner = `operation:${operation}:${randomUUID()}`;
    try {
      return use((await this.connections.acquire(definition, owner)).lease.connection);
    } finally {
      await this.connections.endConversation(owner);
    }
  }

  /** Each server with its state, leases, switch and problems, sorted by id. */
  list(): ServerView[] {
    const snapshots = new Map(this.connections.snapshot().map((s) => [s.serverId, s]));
    // One look at /proc for every running instance (docs/using/mcp-servers.md#what-each-process-costs).
    const memory = treeRssBytes([...snapshots.values()].flatMap((s) => s.leases.flatMap((lease) => (lease.pid === undefined ? [] : [lease.pid]))));
    const problems = this.deps.runtime.problems;
    return this.deps.runtime
      .allDefinitions()
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((definition): ServerView => {
        const snapshot = snapshots.get(definition.id);
        const description = this.deps.registry.getServer(definition.id)?.description;
        const trouble = this.deps.trouble(definition.id);
        const leased = stateOfLeases(snapshot);
        return {
          id: definition.id,
          name: definition.name,
          category: definition.category,
          origin: definition.origin,
          ...(description ? { description } : {}),
          launch: launchOf(definition),
          disabled: definition.disabled,
          switchedOff: this.deps.settings.of(definition.id).disabled,
          ...logLevelOf(this.deps.settings.of(definition.id).logLevel),
          ...(this.deps.settings.of(definition.id).samplingAlways ? { samplingAlways: true } : {}),
          // A server that cannot start is shown broken, not stopped, even with no instance left to say so.
          state: leased.kind === 'stopped' && trouble ? { kind: 'error', message: trouble.message, at: trouble.at } : leased,
          leases:
            snapshot?.leases.map(({ pid, ...lease }) => ({ ...lease, ...(pid === undefined ? {} : { pid }), ...(pid !== undefined && memory.has(pid) ? { rssBytes: memory.get(pid)! } : {}) })) ?? [],
          ...protocolOf(snapshot, this.deps.settings.of(definition.id).lastProtocol),
          problems: [...problemsOfServer(problems, definition), ...(trouble ? [troubleProblem(definition.id, trouble)] : [])],
        };
      });
  }

  /** What runs now, per server (the settings tools' view of the state). */
  snapshots(): ServerSnapshot[] {
    return this.connections.snapshot();
  }

  /** A server's raw tool list: cached, or from a running instance, or by starting one (the user asked to see them). */
  private async rawToolsOf(definition: ServerDefinition): Promise<readonly Tool[]> {
    const cached = this.deps.runtime.cachedTools(definition.id);
    if (cached) return cached;
    const running = this.connections.anyRunning(definition.id);
    const listing = (connection: ServerConnection) => ({ tools: [...connection.tools], rejected: connection.rejectedTools });
    const { tools, rejected } = running ? listing(running) : await this.withOwnInstance(definition, 'tools', listing);
    this.deps.runtime.rememberTools(definition, tools, rejected);
    return tools;
  }

  /** Every tool of a server as it lists them, with its final name, switch and permission (and why a tool is rejected). */
  async tools(serverId: string): Promise<{ tools: ServerTool[]; problems: Problem[] }> {
    const definition = this.require(serverId);
    if (definition.disabled) throw new OperationError('NOT_ALLOWED', `server ${serverId} is disabled, so it does not start`, 'enable it in its configuration first');
    if (this.deps.settings.of(serverId).disabled)
      throw new OperationError('NOT_ALLOWED', `server ${serverId} is switched off, so it does not start`, 'switch it on with its switch on the MCP servers page first');
    const tools = await this.rawToolsOf(definition);
    const settings = this.deps.settings.of(serverId);
    const off = new Set([...definition.disabledTools, ...settings.disabledTools]);
    // The catalog of this server alone: which final name each tool gets, and why a tool is rejected.
    const catalog = buildCatalog([{ server: definition, tools, rejected: this.deps.runtime.rejectedTools(serverId) }], []);
    const finalName = new Map(catalog.tools.map((t) => [t.rawName, t.name]));
    return {
      tools: tools.map((tool) => {
        const { level, source } = resolvePermission(definition, tool, ownValue(settings.permissionOverrides, tool.name));
        const name = finalName.get(tool.name);
        const domain = declaredDomain(tool);
        return {
          rawName: tool.name,
          ...(name ? { name } : {}),
          description: tool.description ?? '',
          enabled: !off.has(tool.name),
          permission: level,
          permissionSource: source,
          inputSchema: tool.inputSchema as Record<string, unknown>,
          ...(domain ? { domain } : {}),
        };
      }),
      problems: catalog.problems,
    };
  }

  /** Ends every instance, then starts one to check it starts (a failure is the answer, and stays on its card); returns how many were ended. */
  async restart(serverId: string): Promise<number> {
    const definition = this.require(serverId);
    const before = this.connections.snapshot().find((s) => s.serverId === serverId)?.leases.length ?? 0;
    await this.connections.retire(serverId);
    // Conversations start their own instances when they next call.
    if (!definition.disabled && !this.deps.settings.of(serverId).disabled) {
      await this.withOwnInstance(definition, 'restart', (connection) => this.deps.runtime.rememberTools(definition, [...connection.tools], connection.rejectedTools));
    }
    return before;
  }

  /** The server's recent output, one line per entry; first, when the log's bounds dropped older lines, how many. */
  log(serverId: string): string[] {
    this.require(serverId);
    const log = this.connections.logOf(serverId);
    const lines = log.entries().map((e) => `${new Date(e.at).toISOString()} [${streamLabel(e)}] ${e.text}${e.count ? ` (×${e.count})` : ''}`);
    return log.dropped > 0 ? [`(${log.dropped} older line(s) not kept: the log keeps the newest lines only)`, ...lines] : lines;
  }

  /**
   * Sets the level the server sends its log messages from
   * (docs/rules/mcp-yaml.md#server-log-messages): kept in its settings, sent
   * now to each running instance that logs over MCP, and to each that
   * starts later. `undefined` goes back to the server's default from its next start.
   */
  async setLogLevel(serverId: string, level: LogLevel | undefined): Promise<{ applied: number; notLogging: number }> {
    this.require(serverId);
    this.deps.settings.setLogLevel(serverId, level);
    if (level === undefined) return { applied: 0, notLogging: 0 };
    const sent = await Promise.all(this.connections.runningOf(serverId).map((connection) => connection.setLogLevel(level)));
    return { applied: sent.filter(Boolean).length, notLogging: sent.filter((ok) => !ok).length };
  }

  /** Switches a server on or off; off means no instance keeps running either: every conversation's lease ends now. */
  async setEnabled(serverId: string, enabled: boolean): Promise<void> {
    this.require(serverId);
    this.deps.settings.setServerEnabled(serverId, enabled);
    if (!enabled) await this.connections.retire(serverId);
  }

  setToolEnabled(serverId: string, rawToolName: string, enabled: boolean): void {
    this.require(serverId);
    this.deps.settings.setToolEnabled(serverId, rawToolName, enabled);
  }

  setPermission(serverId: string, rawToolName: string, level: PermissionLevel | undefined): void {
    this.require(serverId);
    this.deps.settings.setPermission(serverId, rawToolName, level);
  }

  /** Instances in error now: each a problem until the next call restarts it. */
  instanceProblems(): InstanceProblem[] {
    return this.connections.snapshot().flatMap((snapshot) =>
      snapshot.leases.flatMap((lease) =>
        lease.state.kind === 'error'
          ? [
              {
                severity: 'error' as const,
                code: 'SERVER_ERROR',
                file: snapshot.serverId,
                path: '',
                message: lease.state.message,
                hint: 'open its log on the MCP servers page; the next call restarts it',
                source: 'servers' as const,
              },
            ]
          : [],
      ),
    );
  }

  /** Every instance's state change (the servers page shows them live). Returns an unsubscribe function. */
  onStateChange(listener: (serverId: string, conversationId: string, state: ConnectionState) => void): () => void {
    return this.connections.onStateChange(listener);
  }
}

/** The protocol of the server's first running instance, else the one it spoke at its last start (docs/using/mcp-servers.md#protocol-eras); nothing before it ever started. */
function protocolOf(snapshot: ServerSnapshot | undefined, last: ServerProtocol | undefined): { protocol?: ServerProtocol } {
  const protocol = snapshot?.leases.find((lease) => lease.protocol)?.protocol ?? last;
  return protocol ? { protocol } : {};
}
