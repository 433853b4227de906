import type { LogLevel, ServerDefinition } from '../../../shared/mcp.js';
import type { ServerProtocol } from '../../../shared/mcp.js';
import { refusalText, type RunGateAnswer } from '../../policy/runGate.js';
import type { ReadStoredValue } from '../config/envValues.js';
import type { PidRegistry } from '../../process/pidRegistry.js';
import { PendingByKey } from '../../pendingByKey.js';
import { ServerLog } from '../../process/serverLog.js';
import { ServerConnection, type ConnectionDeps, type ConnectionState, type InProcessServerFactory } from './serverConnection.js';
import { McpRuntimeError } from '../mcpRuntimeError.js';
import type { StartFailure } from '../serverTrouble.js';
import type { ClientFeatures } from '../client/clientFeatures.js';
import type { Scheduler } from '../../ports.js';

/** Conversation id under which a `truely-stateless` server's one shared client is kept. */
export const SHARED_LEASE = '*';

export interface Lease {
  serverId: string;
  conversationId: string;
  connection: ServerConnection;
  lastUsed: number;
}

export interface ConnectionManagerOptions {
  pids?: PidRegistry;
  hostEnv: NodeJS.ProcessEnv;
  now: () => number;
  /** Where calls' own timeouts run (ConnectionDeps.scheduler). */
  scheduler?: Scheduler;
  clientInfo: { name: string; version: string };
  /** A lease unused this long is released (and its server closed). */
  idleMs: number;
  /** How long a replaced or released server may take to finish in-flight calls. */
  closeGraceMs: number;
  /** Longest wait before restarting a server that keeps crashing. */
  maxBackoffMs: number;
  inProcessServers?: ReadonlyMap<string, InProcessServerFactory>;
  /** Whether a definition may be used now (untrusted plugins may not): asked on every call, so cached. */
  mayStart: (definition: ServerDefinition) => RunGateAnswer;
  /** The same question in full, asked at the moment of spawning (see ConnectionDeps.gate). */
  gate: (definition: ServerDefinition) => RunGateAnswer;
  /** Reads `{ secret: NAME }` values from the host's key store when a server starts. */
  readStoredValue?: ReadStoredValue;
  /** Sign-in to remote servers (see ConnectionDeps.oauth). */
  oauth?: ConnectionDeps['oauth'];
  /** mcp.yaml's path, for fixes that name where a server's command is written. */
  configFile?: string;
  /** What each client declares and answers beyond tools (mcp/client/clientFeatures.ts). */
  clientFeatures?: ClientFeatures;
  /** The log level the user set for a server (docs/rules/mcp-yaml.md#server-log-messages), sent to each instance as it starts. */
  logLevel?: (serverId: string) => LogLevel | undefined;
  /** A running instance's server said its tool list changed, and this is the new list. */
  onToolsChanged?: ConnectionDeps['onToolsChanged'];
  /** An instance started, and these are the instructions its server gave at initialize. */
  onInstructions?: ConnectionDeps['onInstructions'];
  onProtocol?: ConnectionDeps['onProtocol'];
}

/**
 * Why a lease ended: its caller released it, its conversation ended, it sat
 * idle, its holder (a page, a socket) went away, or its plugin may no longer
 * run (untrusted, changed or uninstalled, here or by another process).
 */
export type ReleaseReason = 'mcp_release' | 'conversation-ended' | 'idle' | 'holder-gone' | 'not-runnable';

/** A lease that was released (or, for mcp_release, asked to be): what the audit keeps of it. */
export interface LeaseRelease {
  serverId: string;
  conversationId: string;
  reason: ReleaseReason;
  /** The caller whose mcp_release it was; releases the host makes itself have none. */
  by?: { appId: string; agentId?: string; flow: 'main' | 'sub' };
  /** False when mcp_release named a server this conversation held no instance of. */
  held: boolean;
  /** When the release was asked, and how long ending the instance took. */
  at: number;
  durationMs: number;
}

export interface ServerSnapshot {
  serverId: string;
  leases: { conversationId: string; state: ConnectionState; pid?: number; inFlight: number; lastUsed: number; protocol?: ServerProtocol }[];
}

/** One state for a server from its leases: any running instance makes it running, then starting, then a failed one's error. */
export function stateOfLeases(snapshot: ServerSnapshot | undefined): ConnectionState {
  const states = snapshot?.leases.map((lease) => lease.state) ?? [];
  return states.find((s) => s.kind === 'running') ?? states.find((s) => s.kind === 'starting') ?? states.find((s) => s.kind === 'error') ?? { kind: 'stopped' };
}

/**
 * Owns every client instance (docs/rules/mcp-yaml.md#leases): by default one per
 * (server, conversation), kept until released, the conversation ends or it
 * sits idle; `truely-stateless` servers share one. A server starts on first
 * use, never at boot, and restarts on the next use after a crash, waiting
 * longer each time it keeps crashing.
 */
export class ConnectionManager {
  private readonly leases = new Map<string, Lease>();
  private readonly starting = new Map<string, Promise<Lease>>();
  private readonly logs = new Map<string, ServerLog>();
  private readonly crashes = new Map<string, { count: number; last: number }>();
  private readonly startFailures = new Map<string, StartFailure>();
  private readonly stateListeners = new Set<(serverId: string, conversationId: string, state: ConnectionState) => void>();
  private readonly releaseListeners = new Set<(release: LeaseRelease) => void>();
  private readonly retiring = new PendingByKey<string>();

  /** Set by closeAll (the host is shutting down): a call arriving after it must not start a server nobody will close. */
  private closed = false;

  constructor(private readonly options: ConnectionManagerOptions) {}

  /** Every lease's state changes (starting, running, error, stopped), for the faces' live server view. */
  onStateChange(listener: (serverId: string, conversationId: string, state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Every release (mcp_release, a conversation ended, idle, a holder gone), after its instance ended: the audit records each. */
  onRelease(listener: (release: LeaseRelease) => void): () => void {
    this.releaseListeners.add(listener);
    return () => this.releaseListeners.delete(listener);
  }

  /** Ends these leases (already taken out of the map) and tells the listeners, each once its instance has ended. */
  private async endLeases(ended: readonly Lease[], reason: ReleaseReason, at: number): Promise<void> {
    await Promise.all(
      ended.map(async (lease) => {
        await lease.connection.close(this.options.closeGraceMs);
        this.told({ serverId: lease.serverId, conversationId: lease.conversationId, reason, held: true, at, durationMs: this.options.now() - at });
      }),
    );
  }

  private told(release: LeaseRelease): void {
    for (const listener of this.releaseListeners) {
      try {
        listener(release);
      } catch {
        // A broken listener must not fail the release.
      }
    }
  }

  logOf(serverId: string): ServerLog {
    let log = this.logs.get(serverId);
    if (!log) this.logs.set(serverId, (log = new ServerLog({ maxLines: 2_000, maxBytes: 512 * 1024 })));
    return log;
  }

  private key(definition: ServerDefinition, conversationId: string): string {
    return `${definition.id}\u0000${definition.trulyStateless ? SHARED_LEASE : conversationId}`;
  }

  /**
   * This conversation's running instance, when it has one it may still use,
   * marked as used; otherwise undefined, and `acquire` starts, restarts or
   * refuses it (saying why). The gateway's path for every call after the first;
   * `now` is the call's own start time (one clock read less per call).
   */
  ready(definition: ServerDefinition, conversationId: string, now = this.options.now()): Lease | undefined {
    const existing = this.leases.get(this.key(definition, conversationId));
    if (!existing || existing.connection.state.kind !== 'running' || existing.connection.definition !== definition) return undefined;
    // Checked at every use, as in acquire: a plugin untrusted (or changed) since its server started serves no more calls.
    if (!this.options.mayStart(definition).ok) return undefined;
    existing.lastUsed = now;
    return existing;
  }

  /** The connection for this conversation, started if needed. `first` is true when this call created the lease. */
  async acquire(definition: ServerDefinition, conversationId: string): Promise<{ lease: Lease; first: boolean }> {
    const key = this.key(definition, conversationId);
    const existing = this.leases.get(key);
    if (existing && existing.connection.state.kind === 'running' && existing.connection.definition === definition) {
      // Checked at every use, not only at start: a plugin untrusted (or changed) since its server started serves no more calls.
      const allowed = this.options.mayStart(definition);
      if (!allowed.ok) {
        this.leases.delete(key);
        await existing.connection.close(this.options.closeGraceMs);
        throw new McpRuntimeError('SERVER_NOT_RUNNABLE', refusalText(allowed), definition.id);
      }
      existing.lastUsed = this.options.now();
      return { lease: existing, first: false };
    }
    const pending = this.starting.get(key);
    if (pending) return { lease: await pending, first: false };
    const start = this.startLease(definition, conversationId, key, existing);
    this.starting.set(key, start);
    try {
      return { lease: await start, first: !existing };
    } finally {
      this.starting.delete(key);
    }
  }

  private async startLease(definition: ServerDefinition, conversationId: string, key: string, previous: Lease | undefined): Promise<Lease> {
    const allowed = this.options.mayStart(definition);
    if (!allowed.ok) throw new McpRuntimeError('SERVER_NOT_RUNNABLE', refusalText(allowed), definition.id);
    if (previous) {
      // A crashed (or replaced) client is ended before its successor starts.
      this.leases.delete(key);
      if (previous.connection.state.kind === 'error') this.noteCrash(definition.id);
      await previous.connection.close(this.options.closeGraceMs);
    }
    await this.backoff(definition.id);
    // Checked again after the waits above: closeAll may have run meanwhile, and nothing may spawn after it.
    if (this.closed) throw new McpRuntimeError('SERVER_START_FAILED', `server "${definition.id}" was not started: the host is shutting down (its connections are closed)`, definition.id);
    const leaseConversation = definition.trulyStateless ? SHARED_LEASE : conversationId;
    const connection = new ServerConnection(definition, {
      log: this.logOf(definition.id),
      pids: this.options.pids,
      hostEnv: this.options.hostEnv,
      clientInfo: this.options.clientInfo,
      now: this.options.now,
      scheduler: this.options.scheduler,
      inProcessServers: this.options.inProcessServers,
      // Asked again right before the spawn: the waits above (a replaced client closing, a backoff) may have outlived the answer.
      gate: this.options.gate,
      configFile: this.options.configFile,
      readStoredValue: this.options.readStoredValue,
      features: this.options.clientFeatures,
      lease: leaseConversation,
      oauth: this.options.oauth,
      onToolsChanged: this.options.onToolsChanged,
      onInstructions: this.options.onInstructions,
      onProtocol: this.options.onProtocol,
      logLevel: () => this.options.logLevel?.(definition.id),
    });
    connection.onStateChange((state) => {
      for (const listener of this.stateListeners) listener(definition.id, leaseConversation, state);
    });
    try {
      await connection.start();
    } catch (error) {
      this.noteCrash(definition.id);
      // A refusal of the run gate is no fault of the server; anything else is why it is broken, until it starts again.
      if (error instanceof McpRuntimeError && error.code !== 'SERVER_NOT_RUNNABLE')
        this.startFailures.set(definition.id, { definition, message: error.message, fix: error.fix, at: this.options.now() });
      throw error;
    }
    this.startFailures.delete(definition.id);
    if (this.closed) {
      // closeAll ran while this one was starting: it would outlive the host.
      await connection.close(0);
      throw new McpRuntimeError('SERVER_START_FAILED', `server "${definition.id}" was stopped as it started: the host is shutting down`, definition.id);
    }
    const lease: Lease = { serverId: definition.id, conversationId: leaseConversation, connection, lastUsed: this.options.now() };
    this.leases.set(key, lease);
    return lease;
  }

  private noteCrash(serverId: string): void {
    const now = this.options.now();
    const record = this.crashes.get(serverId);
    // Crashes more than a minute apart do not add up.
    const count = record && now - record.last < 60_000 ? record.count + 1 : 1;
    this.crashes.set(serverId, { count, last: now });
  }

  private async backoff(serverId: string): Promise<void> {
    const record = this.crashes.get(serverId);
    if (!record || record.count < 2) return;
    const delay = Math.min(this.options.maxBackoffMs, 250 * 2 ** (record.count - 2));
    const wait = record.last + delay - this.options.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** `mcp_release`: ends this conversation's lease of one server. Returns false when it held none (said to the listeners too: it was asked). */
  async release(serverId: string, conversationId: string, by?: LeaseRelease['by']): Promise<boolean> {
    const at = this.options.now();
    for (const [key, lease] of this.leases) {
      if (lease.serverId === serverId && lease.conversationId === conversationId) {
        this.leases.delete(key);
        await lease.connection.close(this.options.closeGraceMs);
        this.told({ serverId, conversationId, reason: 'mcp_release', by, held: true, at, durationMs: this.options.now() - at });
        return true;
      }
    }
    this.told({ serverId, conversationId, reason: 'mcp_release', by, held: false, at, durationMs: 0 });
    return false;
  }

  /** A conversation ended (or its holder went away): every lease it held is released. */
  async endConversation(conversationId: string, reason: ReleaseReason = 'conversation-ended'): Promise<number> {
    const mine = [...this.leases].filter(([, lease]) => lease.conversationId === conversationId);
    for (const [key] of mine) this.leases.delete(key);
    await this.endLeases(
      mine.map(([, lease]) => lease),
      reason,
      this.options.now(),
    );
    return mine.length;
  }

  /** Whether this conversation holds an instance of some server now. */
  holdsAny(conversationId: string): boolean {
    for (const lease of this.leases.values()) if (lease.conversationId === conversationId) return true;
    return false;
  }

  /** Closes leases idle longer than the idle time; the host's IdleSweep calls it on a schedule. */
  async sweepIdle(idleMs = this.options.idleMs): Promise<number> {
    const now = this.options.now();
    const cutoff = now - idleMs;
    const idle = [...this.leases].filter(([, lease]) => lease.lastUsed <= cutoff && lease.connection.inFlight === 0);
    for (const [key] of idle) this.leases.delete(key);
    await this.endLeases(
      idle.map(([, lease]) => lease),
      'idle',
      now,
    );
    return idle.length;
  }

  /**
   * Ends every instance of a server (hot reload replaced or removed it, it was
   * restarted or switched off, its plugin may no longer run): new calls get a
   * new client; old ones finish in flight first. With a `reason`, each lease
   * ended is a release the listeners are told of (and the audit records).
   */
  retire(serverId: string, reason?: ReleaseReason): Promise<void> {
    const mine = [...this.leases].filter(([, lease]) => lease.serverId === serverId);
    for (const [key] of mine) this.leases.delete(key);
    this.crashes.delete(serverId);
    const old = mine.map(([, lease]) => lease);
    const ending =
      old.length === 0 ? undefined : reason ? this.endLeases(old, reason, this.options.now()) : Promise.all(old.map((lease) => lease.connection.close(this.options.closeGraceMs))).then(() => {});
    // A retire already under way (another face asked first) is waited for, not taken for nothing to do.
    return this.retiring.track(serverId, ending);
  }

  /** This definition's last failed start, while no start of it has succeeded since. */
  startFailure(definition: ServerDefinition): StartFailure | undefined {
    const failure = this.startFailures.get(definition.id);
    return failure?.definition === definition ? failure : undefined;
  }

  /** Every running instance of a server, each conversation's. */
  runningOf(serverId: string): ServerConnection[] {
    return this.running()
      .filter((lease) => lease.serverId === serverId)
      .map((lease) => lease.connection);
  }

  /** Every running instance now, with the conversation whose it is. */
  running(): Lease[] {
    return [...this.leases.values()].filter((lease) => lease.connection.state.kind === 'running');
  }

  /** The running connection of a server, any conversation's; for listing tools without starting another. */
  anyRunning(serverId: string): ServerConnection | undefined {
    for (const lease of this.leases.values()) if (lease.serverId === serverId && lease.connection.state.kind === 'running') return lease.connection;
    return undefined;
  }

  snapshot(): ServerSnapshot[] {
    const byServer = new Map<string, ServerSnapshot>();
    for (const lease of this.leases.values()) {
      const entry = byServer.get(lease.serverId) ?? { serverId: lease.serverId, leases: [] };
      const { protocol } = lease.connection;
      entry.leases.push({
        conversationId: lease.conversationId,
        state: lease.connection.state,
        pid: lease.connection.pid,
        inFlight: lease.connection.inFlight,
        lastUsed: lease.lastUsed,
        ...(protocol && lease.connection.state.kind === 'running' ? { protocol } : {}),
      });
      byServer.set(lease.serverId, entry);
    }
    return [...byServer.values()];
  }

  /** Ends every lease; servers still starting are ended as they start, and this waits for them too. */
  async closeAll(): Promise<void> {
    this.closed = true;
    const all = [...this.leases.values()];
    this.leases.clear();
    const starting = [...this.starting.values()].map((start) =>
      start.then(
        () => {},
        () => {},
      ),
    );
    await Promise.all([...all.map((lease) => lease.connection.close(this.options.closeGraceMs)), ...starting]);
  }
}
