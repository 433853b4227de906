import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Database, SqlJsStatic } from 'sql.js';
import type { Problem } from '../../shared/problems.js';
// Types only: the store must not pull in the host's module graph (the host builds on the store).
import type { Clock, Logger } from '../ports.js';
import { canonicalJson } from './canonicalJson.js';
import { sameStamp, type FileStamp } from '../files/fileStamps.js';
import { contentHash, removeOrphanTemps, statStamp, writeFileAtomic, type DbFileContent, type KnownContent } from './dbFile.js';
import { withFileLock } from './dbLock.js';
import { openReadOnly, openWritable, readOrThrow, tooNewError, type OpenContext } from './dbOpen.js';
import { addBackup, quarantine } from './dbRecovery.js';
import { prefixUpperBound } from './idRange.js';
import { decodeRow, describeIssues } from './recordDecoder.js';
import type { LogicalTable, StoredRecord } from './logicalTable.js';
import { RecordsDb, type RecordRow } from './recordsDb.js';
import { checkRecordsBytes, createEmptyDatabase } from './recordsSchema.js';
import { loadSqlJs } from './sqlite.js';
import { StoreError, messageOf } from './storeError.js';
import { changeUnreadable, corruptReplaced, recordInvalid, saveFailed, tooNew } from './storeProblems.js';

export interface RecordsStoreOptions {
  /** Timestamps for created_at/updated_at and for the names of quarantined files. */
  clock?: Clock;
  logger?: Logger;
  /** Batching window: mutations within it cost one file write. Default 20 ms. */
  flushDelayMs?: number;
  /** Rotated backups kept (`<file>.bak-1` newest). Default 3; 0 keeps none. */
  backups?: number;
  /** Minimum time between backups made while flushing. Default 10 minutes. */
  backupIntervalMs?: number;
  /** For other apps' DBs: never writes, never quarantines, never locks; problems only. */
  readOnly?: boolean;
  /**
   * Default true. False: mutations apply in memory (reads see them, on top of
   * what other processes write) but are never saved; the file is opened as
   * `readOnly` opens it. For a process that only looks (a read-only command)
   * yet computes its view with the same code that writes (a registry sync).
   */
  saveChanges?: boolean;
}

export interface RecordsStoreStats {
  /** Writes of the DB file itself (backups not counted). */
  fileWrites: number;
  bytesWritten: number;
  /** Duration of the last flush, lock wait included. */
  lastFlushMs: number;
  /** Times the file was reloaded because another process had replaced it. */
  reloads: number;
}

export type PutResult = 'created' | 'updated' | 'unchanged';

/** A mutation not yet on disk, kept to be replayed onto a newer file written by another process. */
type Mutation = { kind: 'put'; table: string; id: string; payload: string; at: string } | { kind: 'delete'; table: string; id: string };

type Lifecycle = { kind: 'open' } | { kind: 'closing'; done: Promise<void> } | { kind: 'closed' };

interface Settings {
  clock: Clock;
  logger: Logger;
  flushDelayMs: number;
  backups: number;
  backupIntervalMs: number;
  readOnly: boolean;
  saveChanges: boolean;
}

const quietLogger: Logger = { info() {}, warn() {}, error() {} };
const wallClock: Clock = { now: () => Date.now() };
/** Longest pause between retries of a background flush that keeps failing (disk full, lock held). */
const MAX_RETRY_DELAY_MS = 30_000;

/**
 * How stale a read made on every tool call (grants, server settings) may be
 * with respect to another process's writes: such reads share one look at the
 * file within this window. This process's own writes are seen at once.
 */
export const HOT_READ_MAX_AGE_MS = 50;

/**
 * Logical tables of records in one sql.js DB file (see DESIGN "Data home").
 * The DB lives in memory: mutations apply at once (reads see them) and are
 * logged; a flush, batched over `flushDelayMs`, writes the file atomically
 * under an inter-process lock, first reloading the file and replaying the
 * log if another process wrote it meanwhile, so no update is lost.
 */
export class RecordsStore {
  readonly problems: Problem[];
  readonly stats: RecordsStoreStats = { fileWrites: 0, bytesWritten: 0, lastFlushMs: 0, reloads: 0 };
  /** The file is there but neither it nor a backup could be read at open (stores that do not repair: read-only, or not saving). */
  readonly unreadable: boolean;

  private revisionCounter = 0;

  /**
   * Changes whenever what a read would return may have changed: a mutation
   * here, a rollback, or another process's file picked up by refresh().
   * Callers cache decoded reads against it (hot paths such as grant checks).
   */
  get revision(): number {
    return this.revisionCounter;
  }

  private db: RecordsDb;
  private known: KnownContent | undefined;
  private log: Mutation[] = [];
  private txDepth = 0;
  private lifecycle: Lifecycle = { kind: 'open' };
  private timer: NodeJS.Timeout | undefined;
  private failedFlushes = 0;
  private flushing: Promise<void> | undefined;
  private lastBackupAt: number;
  /** A changed file that refresh() found unreadable; not re-read until it changes again. */
  private rejectedStamp: FileStamp | undefined;
  private readonly reportedRows = new Set<string>();
  /** Why the last flush failed, while changes are still waiting to be saved. */
  private saveFailure: Problem | undefined;
  private invalidRowsCache: { revision: number; tables: readonly LogicalTable<unknown>[]; problems: Problem[] } | undefined;

  private constructor(
    readonly file: string,
    private readonly SQL: SqlJsStatic,
    private readonly settings: Settings,
    opened: { db: Database; known: KnownContent | undefined; problems: Problem[]; backedUp: boolean; unreadable?: boolean },
  ) {
    this.db = new RecordsDb(opened.db);
    this.known = opened.known;
    this.problems = opened.problems;
    this.unreadable = opened.unreadable ?? false;
    this.lastBackupAt = opened.backedUp ? settings.clock.now() : Number.NEGATIVE_INFINITY;
  }

  static async open(file: string, options: RecordsStoreOptions = {}): Promise<RecordsStore> {
    const resolved = resolveDbPath(file);
    const SQL = await loadSqlJs();
    const settings: Settings = {
      clock: options.clock ?? wallClock,
      logger: options.logger ?? quietLogger,
      flushDelayMs: options.flushDelayMs ?? 20,
      backups: Math.max(0, options.backups ?? 3),
      backupIntervalMs: options.backupIntervalMs ?? 10 * 60_000,
      readOnly: options.readOnly ?? false,
      saveChanges: !(options.readOnly ?? false) && (options.saveChanges ?? true),
    };
    const ctx: OpenContext = { SQL, file: resolved, now: () => settings.clock.now(), logger: settings.logger, backups: settings.backups };
    // A store that never saves must not change the file in any way either: no backup, no repair.
    const opened = settings.saveChanges ? await openWritable(ctx) : openReadOnly(ctx);
    return new RecordsStore(resolved, SQL, settings, opened);
  }

  get readOnly(): boolean {
    return this.settings.readOnly;
  }

  /** Mutations applied in memory but not yet written to the file. */
  get pendingChanges(): number {
    return this.log.length;
  }

  /** Whether mutations are written to the file (false for `readOnly` and `saveChanges: false`). */
  get savesChanges(): boolean {
    return this.settings.saveChanges;
  }

  /**
   * While changes wait because the last write failed (disk full, folder not
   * writable, lock held): a problem saying so. A background flush only logs,
   * so this is how a face learns that what it shows is not on disk.
   */
  get saveProblem(): Problem | undefined {
    return this.log.length > 0 ? this.saveFailure : undefined;
  }

  // ---- reads ---------------------------------------------------------------

  /** The row, or undefined when there is none or it fails the table's schema (then reported in `problems`). */
  get<T>(table: LogicalTable<T>, id: string): StoredRecord<T> | undefined {
    this.assertUsable();
    const row = this.db.get(table.name, id);
    return row && this.decode(table, row);
  }

  /** Rows ordered by id; `prefix` selects ids starting with it (an index range, fast at any size). Rows failing the schema are skipped and reported. */
  list<T>(table: LogicalTable<T>, options: { prefix?: string } = {}): StoredRecord<T>[] {
    this.assertUsable();
    const prefix = options.prefix ?? '';
    const rows = prefix === '' ? this.db.list(table.name) : this.db.list(table.name, { from: prefix, to: prefixUpperBound(prefix) });
    const records: StoredRecord<T>[] = [];
    for (const row of rows) {
      const record = this.decode(table, row);
      if (record) records.push(record);
    }
    return records;
  }

  /**
   * Every stored row of these tables that fails its table's schema, as it is
   * now (so a row fixed by another process stops being reported). Reads skip
   * such rows; this is how they are shown. Computed once per revision.
   */
  invalidRows(tables: readonly LogicalTable<unknown>[]): Problem[] {
    this.assertUsable();
    const cached = this.invalidRowsCache;
    if (cached && cached.revision === this.revisionCounter && cached.tables === tables) return cached.problems;
    const problems: Problem[] = [];
    for (const table of tables) {
      for (const row of this.db.list(table.name)) {
        const decoded = decodeRow(table, row);
        if (!decoded.ok) problems.push(recordInvalid(this.file, table.name, row.id, decoded.fieldPath, decoded.reason));
      }
    }
    this.invalidRowsCache = { revision: this.revisionCounter, tables, problems };
    return problems;
  }

  /** Whether a row is stored under the id (even one that fails its schema; cheap, no decoding). */
  has(table: LogicalTable<unknown>, id: string): boolean {
    this.assertUsable();
    return this.db.has(table.name, id);
  }

  /** Rows stored in the table (including any that fail their schema; cheap, no decoding). */
  count(table: LogicalTable<unknown>): number {
    this.assertUsable();
    return this.db.count(table.name);
  }

  // ---- mutations -------------------------------------------------------------

  /**
   * Validates the payload with the table's schema and stores what the schema
   * returns. An identical payload (same canonical JSON) changes nothing: no
   * write, no new updated_at.
   */
  put<T>(table: LogicalTable<T>, id: string, payload: T): PutResult {
    this.assertWritable();
    if (typeof id !== 'string' || id === '') throw new StoreError('RECORD_INVALID', this.file, `Cannot put into ${table.name}: the id must be a non-empty string`);
    const parsed = table.schema.safeParse(payload);
    if (!parsed.success) {
      throw new StoreError('RECORD_INVALID', this.file, `Cannot put ${table.name}/${id}: ${describeIssues(parsed.error)}`, { cause: parsed.error });
    }
    const json = canonicalJson(parsed.data);
    const existing = this.db.get(table.name, id);
    if (existing?.payload === json) return 'unchanged';
    const at = this.timestamp();
    if (existing) this.db.update(table.name, id, json, at);
    else this.db.insert(table.name, id, json, at);
    this.record({ kind: 'put', table: table.name, id, payload: json, at });
    return existing ? 'updated' : 'created';
  }

  delete(table: LogicalTable<unknown>, id: string): boolean {
    this.assertWritable();
    const removed = this.db.delete(table.name, id);
    if (removed) this.record({ kind: 'delete', table: table.name, id });
    return removed;
  }

  /**
   * Runs `fn` as one transaction: its mutations apply together, or not at
   * all if it throws. Nested calls are savepoints. `fn` must be synchronous;
   * that is what guarantees no flush (and no export) runs inside it.
   */
  transaction(fn: () => void): void {
    this.assertUsable();
    const depth = this.txDepth;
    const savepoint = `tx_${depth}`;
    const logMark = this.log.length;
    this.db.execute(depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
    this.txDepth++;
    try {
      const result: unknown = fn();
      if (isThenable(result)) {
        throw new StoreError('TRANSACTION_ASYNC', this.file, 'transaction(fn): fn returned a promise; it must be synchronous (its later mutations would escape the transaction)');
      }
    } catch (error) {
      try {
        this.db.execute(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
      } catch {
        // SQLite already rolled back on its own (some errors do); the original error is the one to report.
      }
      this.log.length = logMark;
      this.revisionCounter++;
      throw error;
    } finally {
      this.txDepth--;
    }
    this.db.execute(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
  }

  // ---- syncing with the file ---------------------------------------------------

  /**
   * Picks up a file another process wrote since we last loaded or wrote it,
   * re-applying our unflushed mutations on top. One stat when nothing changed.
   */
  /**
   * refresh(), unless the file was checked less than `maxAgeMs` ago. For
   * reads on every tool call: a burst of calls shares one stat, and another
   * process's write is still seen within a few milliseconds. This process's
   * own writes are in memory and seen at once either way.
   */
  refreshIfOlderThan(maxAgeMs: number): void {
    // On the store's clock, so a test moves past the window instead of waiting; a clock set back counts as past it too.
    const age = this.settings.clock.now() - this.checkedAt;
    if (age >= maxAgeMs || age < 0 || this.txDepth > 0) this.refresh();
  }

  /** When refresh() last looked at the file (the store's clock). */
  private checkedAt = -Infinity;

  refresh(): void {
    this.assertUsable();
    if (this.txDepth > 0) throw new StoreError('TRANSACTION_OPEN', this.file, 'refresh() cannot run inside a transaction');
    this.checkedAt = this.settings.clock.now();
    const stamp = this.statOrThrow();
    if (sameStamp(stamp, this.known?.stamp) || (stamp && sameStamp(stamp, this.rejectedStamp))) return;
    const disk = readOrThrow(this.file);
    if (disk && disk.hash === this.known?.hash) {
      this.known = { stamp: disk.stamp, hash: disk.hash };
      return;
    }
    const next = this.checkForReload(disk);
    if (next.kind === 'ok') {
      this.adopt(next.db, disk);
      return;
    }
    // Keep what we have. A writable store replaces the bad file at its next flush, under the lock.
    this.rejectedStamp = disk?.stamp;
    const problem = next.kind === 'too-new' ? tooNew(this.file, next.schemaVersion) : changeUnreadable(this.file, next.reason, !this.settings.saveChanges);
    this.problems.push(problem);
    this.settings.logger.warn(problem.message);
  }

  /** Writes pending mutations now (and waits for a flush already under way); rejects with a StoreError if they could not be saved. */
  async flush(): Promise<void> {
    if (!this.settings.saveChanges || this.lifecycle.kind === 'closed') return;
    while (this.flushing) await this.flushing.catch(() => undefined);
    if (this.log.length === 0) return;
    const run = this.writeOnce();
    this.flushing = run;
    try {
      await run;
      this.failedFlushes = 0;
      this.saveFailure = undefined;
    } catch (error) {
      this.saveFailure = saveFailed(this.file, messageOf(error), this.log.length);
      throw error;
    } finally {
      this.flushing = undefined;
    }
  }

  /**
   * Flushes and releases the DB. Once close() is called no mutation is
   * accepted; if the final flush fails, close() rejects and the store stays
   * open with its changes, so the caller can retry.
   */
  close(): Promise<void> {
    switch (this.lifecycle.kind) {
      case 'closed':
        return Promise.resolve();
      case 'closing':
        return this.lifecycle.done;
      case 'open': {
        // Marked closing before closeOnce runs: with nothing to flush it completes synchronously,
        // and marking it afterwards would overwrite its 'closed' with 'closing' for good.
        const closing: { kind: 'closing'; done: Promise<void> } = { kind: 'closing', done: Promise.resolve() };
        this.lifecycle = closing;
        closing.done = this.closeOnce();
        return closing.done;
      }
    }
  }

  private async closeOnce(): Promise<void> {
    try {
      // A store that does not save drops its changes here: they were never meant for the file.
      while (this.settings.saveChanges && (this.log.length > 0 || this.flushing)) await this.flush();
    } catch (error) {
      this.lifecycle = { kind: 'open' };
      throw error;
    }
    this.clearTimer();
    this.db.close();
    this.lifecycle = { kind: 'closed' };
  }

  private async writeOnce(): Promise<void> {
    this.clearTimer();
    const started = performance.now();
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
    } catch (error) {
      throw this.writeFailed(error);
    }
    try {
      await withFileLock(this.file, this.settings.logger, () => this.writeLocked());
    } catch (error) {
      throw error instanceof StoreError ? error : this.writeFailed(error);
    }
    this.stats.lastFlushMs = performance.now() - started;
  }

  /** The whole read-compare-write, synchronous so no mutation can slip in between. */
  private writeLocked(): void {
    const disk = readOrThrow(this.file);
    if (disk?.hash !== this.known?.hash) this.adoptForWrite(disk);
    if (this.log.length === 0) return;
    removeOrphanTemps(this.file);
    const bytes = this.db.export(); // never inside a transaction: those are synchronous and this runs after them
    if (!writeFileAtomic(this.file, bytes)) this.settings.logger.warn(`${this.file} was saved but its folder could not be synced; a power cut now might undo the save`);
    const stamp = statStamp(this.file);
    this.known = stamp && { stamp, hash: contentHash(bytes) };
    this.log = [];
    this.stats.fileWrites++;
    this.stats.bytesWritten += bytes.length;
    this.backupIfDue(bytes);
  }

  /** Under the lock: the file changed since we knew it. Take it, with our log on top. */
  private adoptForWrite(disk: DbFileContent | undefined): void {
    const next = this.checkForReload(disk);
    if (next.kind === 'ok') {
      this.adopt(next.db, disk);
      return;
    }
    if (next.kind === 'too-new') throw tooNewError(this.file, next.schemaVersion);
    // Someone left an unreadable file. Move it aside; our in-memory DB (last good state plus our log) takes its place.
    const movedTo = quarantine(this.file, this.settings.clock.now());
    this.known = undefined;
    const problem = corruptReplaced(this.file, next.reason, movedTo);
    this.problems.push(problem);
    this.settings.logger.error(problem.message);
  }

  private checkForReload(disk: DbFileContent | undefined): ReturnType<typeof checkRecordsBytes> {
    return disk ? checkRecordsBytes(this.SQL, disk.bytes) : { kind: 'ok', db: createEmptyDatabase(this.SQL) };
  }

  /** Swaps in a freshly loaded DB after replaying our pending mutations onto it. */
  private adopt(db: Database, disk: DbFileContent | undefined): void {
    const next = new RecordsDb(db);
    try {
      next.execute('BEGIN');
      for (const mutation of this.log) {
        if (mutation.kind === 'put') next.upsert(mutation.table, mutation.id, mutation.payload, mutation.at);
        else next.delete(mutation.table, mutation.id);
      }
      next.execute('COMMIT');
    } catch (error) {
      next.close();
      throw error;
    }
    this.db.close();
    this.db = next;
    this.known = disk ? { stamp: disk.stamp, hash: disk.hash } : undefined;
    this.rejectedStamp = undefined;
    this.stats.reloads++;
    this.revisionCounter++;
  }

  private backupIfDue(bytes: Uint8Array): void {
    if (this.settings.backups === 0) return;
    const now = this.settings.clock.now();
    if (now - this.lastBackupAt < this.settings.backupIntervalMs) return;
    this.lastBackupAt = now;
    try {
      addBackup(this.file, bytes, this.settings.backups);
    } catch (error) {
      // The DB itself is saved; a missed backup is retried at the next interval.
      this.settings.logger.warn(`could not back up ${this.file}: ${messageOf(error)}`);
    }
  }

  private record(mutation: Mutation): void {
    this.revisionCounter++;
    // Kept even when nothing is saved: a refresh replays the log onto what other processes wrote.
    this.log.push(mutation);
    if (this.settings.saveChanges) this.scheduleFlush(this.settings.flushDelayMs);
  }

  private scheduleFlush(delayMs: number, background = false): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => this.backgroundFlushFailed(error));
    }, delayMs);
    // Retries after a failure must not keep the process alive forever; close() reports the failure.
    if (background) this.timer.unref();
  }

  private backgroundFlushFailed(error: unknown): void {
    this.failedFlushes++;
    this.settings.logger.error(`could not save ${this.file}: ${messageOf(error)}`);
    if (this.log.length > 0 && this.lifecycle.kind === 'open') {
      this.scheduleFlush(Math.min(1000 * 2 ** (this.failedFlushes - 1), MAX_RETRY_DELAY_MS), true);
    }
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private writeFailed(error: unknown): StoreError {
    const reason = messageOf(error);
    return new StoreError(
      'DB_WRITE_FAILED',
      this.file,
      `Could not write ${this.file}: ${reason}. The file on disk is unchanged; ${this.log.length} pending change(s) are kept in memory and saved at the next flush.`,
      { cause: error },
    );
  }

  // ---- helpers ------------------------------------------------------------------

  private decode<T>(table: LogicalTable<T>, row: RecordRow): StoredRecord<T> | undefined {
    const decoded = decodeRow(table, row);
    if (decoded.ok) return decoded.record;
    this.reportRow(table.name, row, decoded.fieldPath, decoded.reason);
    return undefined;
  }

  /** Reports a row that fails its schema once per stored payload, however often it is read. */
  private reportRow(table: string, row: RecordRow, fieldPath: readonly PropertyKey[], reason: string): void {
    const key = `${table}\0${row.id}\0${row.payload}`;
    if (this.reportedRows.has(key)) return;
    this.reportedRows.add(key);
    this.problems.push(recordInvalid(this.file, table, row.id, fieldPath, reason));
  }

  private timestamp(): string {
    return new Date(this.settings.clock.now()).toISOString();
  }

  private statOrThrow(): FileStamp | undefined {
    try {
      return statStamp(this.file);
    } catch (error) {
      throw new StoreError('DB_READ_FAILED', this.file, `Could not read ${this.file}: ${messageOf(error)}`, { cause: error });
    }
  }

  private assertUsable(): void {
    if (this.lifecycle.kind === 'closed') throw new StoreError('STORE_CLOSED', this.file, `${this.file} is closed`);
  }

  private assertWritable(): void {
    this.assertUsable();
    if (this.settings.readOnly) throw new StoreError('STORE_READ_ONLY', this.file, `${this.file} was opened read-only`);
    if (this.lifecycle.kind === 'closing') throw new StoreError('STORE_CLOSED', this.file, `${this.file} is closing`);
  }
}

function isThenable(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Absolute path with the folder's symlinks resolved, so every process names
 * the same file (and the same lock) whichever way it was given the path.
 */
function resolveDbPath(file: string): string {
  const absolute = path.resolve(file);
  try {
    return path.join(fs.realpathSync(path.dirname(absolute)), path.basename(absolute));
  } catch {
    return absolute;
  }
}
