import { z } from 'zod';
import { LogLevelSchema, PermissionLevelSchema, ServerProtocolSchema, type LogLevel, type PermissionLevel, type ServerProtocol } from '../../../shared/mcp.js';
import { copyRecord, emptyRecord, ownRecord, ownValue } from '../../../shared/ownKeys.js';
import { defineTable } from '../../store/logicalTable.js';
import { HOT_READ_MAX_AGE_MS, type RecordsStore } from '../../store/recordsStore.js';

/**
 * What the user changed about one server: the whole server or some tools
 * switched off, permission levels overridden (by raw tool name). Tool names
 * are the server's, so overrides keep every name (`__proto__` too) and are
 * read with `overrideOf` / `ownValue`, never by indexing.
 */
export const ServerSettingsSchema = z.object({
  serverId: z.string(),
  /** Switched off by the user (docs/rules/settings-server.md#the-management-ui): never offered or started, like a definition with `disabled: true`. Rows from before it parse as on. */
  disabled: z.boolean().default(false),
  disabledTools: z.array(z.string()).default([]),
  permissionOverrides: ownRecord(PermissionLevelSchema).default(emptyRecord),
  /** The level the server sends its log messages from (`logging/setLevel`); absent: the server's own default. */
  logLevel: LogLevelSchema.optional(),
  /** The user chose "always allow" for this server's sampling requests (docs/using/sampling.md#always-allow): run without review, still audited. */
  samplingAlways: z.boolean().optional(),
  /**
   * What the server spoke at its last start (docs/using/mcp-servers.md#protocol-eras), so the Servers page and
   * `chatos doctor` can say it while it is not running: kept by the host, not set by the user.
   */
  lastProtocol: ServerProtocolSchema.optional(),
});
export type ServerSettingsRow = z.infer<typeof ServerSettingsSchema>;

export const ServerSettingsTable = defineTable('serverSettings', ServerSettingsSchema);

/**
 * Per-server user settings, persisted in the host's admin DB (docs/rules/settings-server.md#the-management-ui,
 * `disabledTools`). Applied when tools are offered and called, not baked
 * into server definitions, so switching a tool off never restarts a server.
 */
export class ServerSettings {
  /** Decoded rows per store revision: the gateway reads them on every call. */
  private cache = { revision: -1, rows: new Map<string, ServerSettingsRow>() };

  constructor(private readonly store: RecordsStore) {}

  of(serverId: string): ServerSettingsRow {
    // Read on every tool call: calls within a few ms share one look at the file.
    this.store.refreshIfOlderThan(HOT_READ_MAX_AGE_MS);
    if (this.cache.revision !== this.store.revision) this.cache = { revision: this.store.revision, rows: new Map() };
    let row = this.cache.rows.get(serverId);
    if (!row) {
      row = this.store.get(ServerSettingsTable, serverId)?.payload ?? { serverId, disabled: false, disabledTools: [], permissionOverrides: emptyRecord() };
      this.cache.rows.set(serverId, row);
    }
    return row;
  }

  /** Switches the whole server off or on; ending its running instances is the caller's part (it owns the connections). */
  setServerEnabled(serverId: string, enabled: boolean): void {
    const current = this.of(serverId);
    if (current.disabled === !enabled) return;
    this.store.put(ServerSettingsTable, serverId, { ...current, disabled: !enabled });
  }

  setToolEnabled(serverId: string, rawToolName: string, enabled: boolean): void {
    const current = this.of(serverId);
    const disabled = new Set(current.disabledTools);
    if (enabled) disabled.delete(rawToolName);
    else disabled.add(rawToolName);
    this.store.put(ServerSettingsTable, serverId, { ...current, disabledTools: [...disabled].sort() });
  }

  /** `undefined` removes the override: the tool's declared level applies again. */
  setPermission(serverId: string, rawToolName: string, level: PermissionLevel | undefined): void {
    const current = this.of(serverId);
    // No prototype: assigning "__proto__" adds an entry, it does not replace the prototype.
    const overrides = copyRecord(current.permissionOverrides);
    if (level === undefined) delete overrides[rawToolName];
    else overrides[rawToolName] = level;
    this.store.put(ServerSettingsTable, serverId, { ...current, permissionOverrides: overrides });
  }

  /** `undefined` goes back to the server's own default (from its next start). */
  setLogLevel(serverId: string, level: LogLevel | undefined): void {
    const { logLevel: _old, ...current } = this.of(serverId);
    this.store.put(ServerSettingsTable, serverId, level === undefined ? current : { ...current, logLevel: level });
  }

  /** Remembers (or, false, forgets) "always allow" for this server's sampling requests. */
  setSamplingAlways(serverId: string, always: boolean): void {
    const { samplingAlways: _old, ...current } = this.of(serverId);
    this.store.put(ServerSettingsTable, serverId, always ? { ...current, samplingAlways: true } : current);
  }

  /** An instance started speaking `protocol`: kept when it differs from what the server spoke before (a start writes nothing otherwise). */
  recordProtocol(serverId: string, protocol: ServerProtocol): void {
    const current = this.of(serverId);
    const was = current.lastProtocol;
    if (was?.era === protocol.era && was.version === protocol.version) return;
    this.store.put(ServerSettingsTable, serverId, { ...current, lastProtocol: { era: protocol.era, ...(protocol.version ? { version: protocol.version } : {}) } });
  }

  /** The server was removed: what the user set for it goes too, so a server added later under its name starts with nothing. */
  forget(serverId: string): void {
    this.store.delete(ServerSettingsTable, serverId);
  }

  overrideOf(serverId: string, rawToolName: string): PermissionLevel | undefined {
    return ownValue(this.of(serverId).permissionOverrides, rawToolName);
  }
}
