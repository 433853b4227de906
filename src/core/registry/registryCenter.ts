import {
  McpServerConfigSchema,
  PromptConfigSchema,
  type AppRegistration,
  type Grant,
  type McpServerConfig,
  type PromptConfig,
  type RegistryMcpServer,
  type RegistryPrompt,
  type RegistrySource,
} from '../../shared/registry.js';
import { HOST_APP_ID } from '../dataHome.js';
import type { Clock } from '../ports.js';
import { suggestClosest } from '../naming/suggest.js';
import { grantAllows } from './grantRule.js';
import { describeSource, originOf } from './registryOrigin.js';
import type { LogicalTable, StoredRecord } from '../store/logicalTable.js';
import { HOT_READ_MAX_AGE_MS, type RecordsStore } from '../store/recordsStore.js';
import { AppRegistrations, grantPrefix, grantRowId, McpServerGrants, PromptGrants, providerPrefix, RegistryMcpServers, RegistryPrompts, registryId } from './registryTables.js';
import { RegistryError } from './registryError.js';

export type GrantKind = 'server' | 'prompt';

/** A registration removed for good (by `uninstall` or `prune`, never by a sync), with the grants that went with it. */
export interface RemovedRegistration {
  kind: GrantKind;
  id: string;
  revokedGrants: Grant[];
}

export interface SyncReport {
  created: string[];
  updated: string[];
  /** Registrations newly marked missing: kept with their grants, not offered. */
  missing: string[];
  /** Rows not written: their id is held by another origin (see `originOf`), which keeps it. */
  held: { id: string; heldBy: RegistrySource }[];
}

export type Registration = RegistryMcpServer | RegistryPrompt;

export interface ReconcileOptions {
  /** Rows of the origin to leave exactly as they are (their source is there but cannot be read now, e.g. a plugin mid-edit). */
  keep?: (row: Registration) => boolean;
  /** Why a row of the origin that is no longer offered is missing, for the user. */
  missingReason: (row: Registration) => string;
}

const isPluginOrigin = (origin: string) => origin.startsWith('plugin:');

const kindTables = {
  server: { items: RegistryMcpServers, grants: McpServerGrants },
  prompt: { items: RegistryPrompts, grants: PromptGrants },
} as const;

const payloads = <T>(rows: StoredRecord<T>[]) => rows.map((r) => r.payload);

/**
 * The registry center (docs/rules/registry.md): providers register servers and prompts,
 * the owner app (`chatos`) sees all of them, every other app sees its own
 * plus what it was granted. Registering never grants. Every read starts
 * with `store.refresh()`, so a grant made by another process (the CLI while
 * the app runs) counts at once.
 */
export class RegistryCenter {
  constructor(
    private readonly store: RecordsStore,
    private readonly clock: Clock,
    readonly ownerAppId: string = HOST_APP_ID,
  ) {}

  // ── registration ────────────────────────────────────────────────────────

  registerApp(appId: string, origin: string): void {
    const current = this.store.get(AppRegistrations, appId)?.payload;
    const origins = [...new Set([...(current?.origins ?? []), origin])].sort();
    this.store.put(AppRegistrations, appId, { appId, origins });
  }

  /**
   * Syncs the app registrations. `base` (app id → `host` / `app-db` /
   * `defaults`) is the same for every process, so it replaces those origins;
   * `plugins` (app id → `plugin:<id>`) is what this process's scan saw, so it
   * only adds: a plugin origin goes with `uninstall` or `prune`, since a
   * process that did not scan its root cannot know it is gone. An app left
   * with no origin is removed; grants to it stay, in case it returns.
   */
  syncApps(base: ReadonlyMap<string, readonly string[]>, plugins: ReadonlyMap<string, readonly string[]>): void {
    this.store.transaction(() => {
      const next = new Map<string, Set<string>>();
      const add = (appId: string, origins: Iterable<string>) => {
        const set = next.get(appId) ?? new Set<string>();
        for (const origin of origins) set.add(origin);
        next.set(appId, set);
      };
      for (const row of this.store.list(AppRegistrations)) add(row.id, row.payload.origins.filter(isPluginOrigin));
      for (const [appId, origins] of base) add(appId, origins);
      for (const [appId, origins] of plugins) add(appId, origins);
      this.writeApps(next);
    });
  }

  /** Removes the plugin origins `stale` picks (uninstall, prune), and apps left with none; returns the app ids removed. */
  dropPluginOrigins(stale: (appId: string, origin: string) => boolean): string[] {
    const removed: string[] = [];
    this.store.transaction(() => {
      const next = new Map<string, Set<string>>();
      for (const row of this.store.list(AppRegistrations)) {
        const origins = new Set(row.payload.origins.filter((origin) => !(isPluginOrigin(origin) && stale(row.id, origin))));
        next.set(row.id, origins);
        if (!origins.size) removed.push(row.id);
      }
      this.writeApps(next);
    });
    return removed;
  }

  private writeApps(next: ReadonlyMap<string, ReadonlySet<string>>): void {
    for (const row of this.store.list(AppRegistrations)) if (!next.get(row.id)?.size) this.store.delete(AppRegistrations, row.id);
    for (const [appId, origins] of next) if (origins.size) this.store.put(AppRegistrations, appId, { appId, origins: [...origins].sort() });
  }

  registerMcpServer(providerAppId: string, serverConfig: McpServerConfig, source: RegistrySource = { kind: 'host' }): RegistryMcpServer {
    const config = McpServerConfigSchema.parse(serverConfig);
    return this.registerOne(RegistryMcpServers, { ...config, id: registryId(providerAppId, config.name), providerAppId, source });
  }

  registerPrompt(providerAppId: string, promptConfig: PromptConfig, source: RegistrySource = { kind: 'host' }): RegistryPrompt {
    const config = PromptConfigSchema.parse(promptConfig);
    return this.registerOne(RegistryPrompts, { ...config, id: registryId(providerAppId, config.name), providerAppId, source });
  }

  private registerOne<T extends Registration>(table: LogicalTable<T>, row: T): T {
    const held = this.heldElsewhere(table, row);
    if (held) throw new RegistryError('ID_HELD', `"${row.id}" is already registered by ${describeSource(held)}; it keeps the id (and the grants on it)`);
    this.store.put(table, row.id, row);
    return row;
  }

  /** The source of the row holding this id when that row is another origin's. */
  private heldElsewhere<T extends Registration>(table: LogicalTable<T>, row: T): RegistrySource | undefined {
    const held = this.store.get(table, row.id)?.payload;
    return held && originOf(held.source) !== originOf(row.source) ? held.source : undefined;
  }

  /**
   * Makes the rows of one origin (chosen by `owns`, the rows this process is
   * authoritative for) match `desired`: puts what changed (an unchanged row
   * is not rewritten; a missing one that is back loses its mark) and marks
   * the rest missing unless `keep` says otherwise. Nothing is removed and no
   * grant is revoked: a sync only sees what this process sees.
   */
  reconcile(owns: (source: RegistrySource, providerAppId: string) => boolean, desired: { servers: RegistryMcpServer[]; prompts: RegistryPrompt[] }, options: ReconcileOptions): SyncReport {
    const report: SyncReport = { created: [], updated: [], missing: [], held: [] };
    this.store.transaction(() => {
      this.reconcileKind(RegistryMcpServers, desired.servers, owns, options, report);
      this.reconcileKind(RegistryPrompts, desired.prompts, owns, options, report);
    });
    return report;
  }

  private reconcileKind<T extends Registration>(
    table: LogicalTable<T>,
    desired: T[],
    owns: (source: RegistrySource, providerAppId: string) => boolean,
    options: ReconcileOptions,
    report: SyncReport,
  ): void {
    const wanted = new Set(desired.map((row) => row.id));
    const since = new Date(this.clock.now()).toISOString();
    for (const { id, payload } of this.store.list(table)) {
      if (wanted.has(id) || payload.missing || !owns(payload.source, payload.providerAppId) || options.keep?.(payload)) continue;
      this.store.put(table, id, { ...payload, missing: { since, reason: options.missingReason(payload) } });
      report.missing.push(id);
    }
    for (const row of desired) {
      const heldBy = this.heldElsewhere(table, row);
      if (heldBy) {
        report.held.push({ id: row.id, heldBy });
        continue;
      }
      const outcome = this.store.put(table, row.id, row);
      if (outcome === 'created') report.created.push(row.id);
      if (outcome === 'updated') report.updated.push(row.id);
    }
  }

  /** Marks registrations missing (kept with their grants, not offered), e.g. those of a plugin root the user forgot; returns the ids newly marked. */
  markMissing(select: (row: Registration) => boolean, reason: string): string[] {
    this.store.refresh();
    const marked: string[] = [];
    const since = new Date(this.clock.now()).toISOString();
    this.store.transaction(() => {
      for (const table of [RegistryMcpServers, RegistryPrompts] as LogicalTable<Registration>[]) {
        for (const { id, payload } of this.store.list(table)) {
          if (payload.missing || !select(payload)) continue;
          this.store.put(table, id, { ...payload, missing: { since, reason } });
          marked.push(id);
        }
      }
    });
    return marked;
  }

  /** Removes registrations for good, with the grants on them: what `uninstall` and `prune` do, never a sync. */
  removeRegistrations(select: (row: Registration, kind: GrantKind) => boolean): RemovedRegistration[] {
    this.store.refresh();
    const removed: RemovedRegistration[] = [];
    this.store.transaction(() => {
      for (const kind of ['server', 'prompt'] as const) {
        for (const { id, payload } of this.store.list(kindTables[kind].items as LogicalTable<Registration>)) if (select(payload, kind)) removed.push(this.remove(kind, id));
      }
    });
    return removed;
  }

  private remove(kind: GrantKind, id: string): RemovedRegistration {
    const { items, grants } = kindTables[kind];
    this.store.delete(items, id);
    const revokedGrants: Grant[] = [];
    for (const grant of this.store.list(grants)) {
      if (grant.payload.targetId !== id) continue;
      this.store.delete(grants, grant.id);
      revokedGrants.push(grant.payload);
    }
    return { kind, id, revokedGrants };
  }

  // ── queries ─────────────────────────────────────────────────────────────

  listApps(): AppRegistration[] {
    this.store.refresh();
    return payloads(this.store.list(AppRegistrations));
  }

  isKnownApp(appId: string): boolean {
    this.store.refresh();
    return appId === this.ownerAppId || this.store.has(AppRegistrations, appId);
  }

  listServers(): RegistryMcpServer[] {
    this.store.refresh();
    return payloads(this.store.list(RegistryMcpServers));
  }

  listPrompts(): RegistryPrompt[] {
    this.store.refresh();
    return payloads(this.store.list(RegistryPrompts));
  }

  getServer(id: string): RegistryMcpServer | undefined {
    this.store.refresh();
    return this.store.get(RegistryMcpServers, id)?.payload;
  }

  getPrompt(id: string): RegistryPrompt | undefined {
    this.store.refresh();
    return this.store.get(RegistryPrompts, id)?.payload;
  }

  listGrants(kind: GrantKind, appId?: string): Grant[] {
    this.store.refresh();
    return payloads(this.store.list(kindTables[kind].grants, appId ? { prefix: grantPrefix(appId) } : undefined));
  }

  /** `asPlugin`: the caller acts for one plugin of the app (its page and its agents), which owns only its own rows (grantRule.ts). */
  getMcpServersForApp(appId: string, asPlugin?: string): RegistryMcpServer[] {
    return this.visible('server', RegistryMcpServers, appId, asPlugin);
  }

  getPromptsForApp(appId: string, asPlugin?: string): RegistryPrompt[] {
    return this.visible('prompt', RegistryPrompts, appId, asPlugin);
  }

  /**
   * The admin DB's revision, after the same look at the file a per-call read
   * makes: anything cached against it (grants, settings) is still right while
   * it is unchanged.
   */
  freshRevision(): number {
    this.store.refreshIfOlderThan(HOT_READ_MAX_AGE_MS);
    return this.store.revision;
  }

  hasMcpServerAccess(appId: string, serverId: string, asPlugin?: string): boolean {
    return this.hasAccess('server', appId, serverId, asPlugin);
  }

  hasPromptAccess(appId: string, promptId: string, asPlugin?: string): boolean {
    return this.hasAccess('prompt', appId, promptId, asPlugin);
  }

  /** The owner sees everything; any other app its own registrations plus its grants. Range scans on the primary key only. */
  /** Visible sets per store revision: the gateway asks on every call, and the answer only changes with the DB. */
  private visibleCache = { revision: -1, lists: new Map<string, unknown[]>() };

  private visible<T extends Registration>(kind: GrantKind, table: LogicalTable<T>, appId: string, asPlugin: string | undefined): T[] {
    this.store.refresh();
    if (this.visibleCache.revision !== this.store.revision) this.visibleCache = { revision: this.store.revision, lists: new Map() };
    const key = `${kind}\u0000${appId}\u0000${asPlugin ?? ''}`;
    let list = this.visibleCache.lists.get(key) as T[] | undefined;
    if (!list) this.visibleCache.lists.set(key, (list = this.computeVisible(kind, table, appId, asPlugin)));
    return [...list];
  }

  /**
   * What an app may use (the grant rule, policy/accessRule.ts), found with
   * range scans on the primary key only: every row for the owner, else the
   * app's own rows and the targets of its grants.
   */
  private computeVisible<T extends Registration>(kind: GrantKind, table: LogicalTable<T>, appId: string, asPlugin: string | undefined): T[] {
    const granted = new Set(appId === this.ownerAppId ? [] : this.store.list(kindTables[kind].grants, { prefix: grantPrefix(appId) }).map((grant) => grant.payload.targetId));
    const candidates = appId === this.ownerAppId ? payloads(this.store.list(table)) : payloads(this.store.list(table, { prefix: providerPrefix(appId) }));
    const seen = new Set(candidates.map((row) => row.id));
    for (const target of granted) {
      const row = !seen.has(target) ? this.store.get(table, target) : undefined;
      if (row) candidates.push(row.payload);
    }
    return candidates.filter((row) => grantAllows(appId, row, this.ownerAppId, () => granted.has(row.id), asPlugin));
  }

  /** Answers per store revision: the gateway asks on every call, and the answer only changes with the DB. */
  private accessCache = { revision: -1, answers: new Map<string, boolean>() };

  private hasAccess(kind: GrantKind, appId: string, id: string, asPlugin: string | undefined): boolean {
    // Asked on every tool call: calls within a few ms share one look at the file.
    this.store.refreshIfOlderThan(HOT_READ_MAX_AGE_MS);
    if (this.accessCache.revision !== this.store.revision) this.accessCache = { revision: this.store.revision, answers: new Map() };
    const key = `${kind}\u0000${appId}\u0000${asPlugin ?? ''}\u0000${id}`;
    let answer = this.accessCache.answers.get(key);
    if (answer === undefined) this.accessCache.answers.set(key, (answer = this.computeAccess(kind, appId, id, asPlugin)));
    return answer;
  }

  private computeAccess(kind: GrantKind, appId: string, id: string, asPlugin: string | undefined): boolean {
    const { items, grants } = kindTables[kind];
    const row = this.store.get(items as LogicalTable<Registration>, id);
    return row !== undefined && grantAllows(appId, row.payload, this.ownerAppId, () => this.store.has(grants, grantRowId(appId, id)), asPlugin);
  }

  // ── grants ──────────────────────────────────────────────────────────────

  grantMcpServerAccess(appId: string, serverId: string): 'created' | 'unchanged' {
    return this.grant('server', appId, serverId);
  }

  revokeMcpServerAccess(appId: string, serverId: string): boolean {
    return this.revoke('server', appId, serverId);
  }

  grantPromptAccess(appId: string, promptId: string): 'created' | 'unchanged' {
    return this.grant('prompt', appId, promptId);
  }

  revokePromptAccess(appId: string, promptId: string): boolean {
    return this.revoke('prompt', appId, promptId);
  }

  /** Which kind a registry id names, or an error with close matches. */
  kindOf(id: string): GrantKind {
    this.store.refresh();
    if (this.store.has(RegistryMcpServers, id)) return 'server';
    if (this.store.has(RegistryPrompts, id)) return 'prompt';
    const known = [...this.store.list(RegistryMcpServers), ...this.store.list(RegistryPrompts)].map((r) => r.id);
    throw new RegistryError('UNKNOWN_ID', `no server or prompt with registry id "${id}"`, suggestClosest(id, known));
  }

  private checkApp(appId: string): void {
    if (appId === this.ownerAppId) {
      throw new RegistryError('OWNER_SEES_ALL', `"${appId}" is the registry owner and already sees everything registered`);
    }
    if (!this.isKnownApp(appId)) {
      const known = this.listApps().map((a) => a.appId);
      throw new RegistryError('UNKNOWN_APP', `no app "${appId}" is registered`, suggestClosest(appId, known));
    }
  }

  private grant(kind: GrantKind, appId: string, id: string): 'created' | 'unchanged' {
    this.checkApp(appId);
    const { items, grants } = kindTables[kind];
    if (!this.store.has(items, id)) {
      const known = this.store.list(items as LogicalTable<{ id: string }>).map((r) => r.id);
      throw new RegistryError('UNKNOWN_ID', `no ${kind} with registry id "${id}"`, suggestClosest(id, known));
    }
    const rowId = grantRowId(appId, id);
    if (this.store.has(grants, rowId)) return 'unchanged';
    this.store.put(grants, rowId, { appId, targetId: id, grantedAt: new Date(this.clock.now()).toISOString() });
    return 'created';
  }

  private revoke(kind: GrantKind, appId: string, id: string): boolean {
    this.store.refresh();
    return this.store.delete(kindTables[kind].grants, grantRowId(appId, id));
  }
}
