import type { BindParams, Database, SqlValue, Statement } from 'sql.js';

/** One row of the physical `records` table, payload still as stored text. */
export interface RecordRow {
  id: string;
  payload: string;
  createdAt: string;
  updatedAt: string;
}

export const SQL_GET = 'SELECT id, payload, created_at, updated_at FROM records WHERE table_name = ? AND id = ?';
export const SQL_LIST = 'SELECT id, payload, created_at, updated_at FROM records WHERE table_name = ? ORDER BY id';
/** A prefix query is an id range, so SQLite walks the primary-key index instead of scanning. */
export const SQL_LIST_RANGE = 'SELECT id, payload, created_at, updated_at FROM records WHERE table_name = ? AND id >= ? AND id < ? ORDER BY id';
export const SQL_LIST_FROM = 'SELECT id, payload, created_at, updated_at FROM records WHERE table_name = ? AND id >= ? ORDER BY id';
const SQL_HAS = 'SELECT 1 FROM records WHERE table_name = ? AND id = ?';
const SQL_COUNT = 'SELECT count(*) FROM records WHERE table_name = ?';
const SQL_INSERT = 'INSERT INTO records(table_name, id, payload, created_at, updated_at) VALUES (?, ?, ?, ?, ?)';
const SQL_UPDATE = 'UPDATE records SET payload = ?, updated_at = ? WHERE table_name = ? AND id = ?';
/** Replaying a logged put onto a reloaded file: keep the file's created_at, and leave an identical row alone. */
const SQL_UPSERT =
  'INSERT INTO records(table_name, id, payload, created_at, updated_at) VALUES (?, ?, ?, ?, ?) ' +
  'ON CONFLICT(table_name, id) DO UPDATE SET payload = excluded.payload, updated_at = excluded.updated_at WHERE payload IS NOT excluded.payload';
const SQL_DELETE = 'DELETE FROM records WHERE table_name = ? AND id = ?';

/**
 * The SQL side of the store over one sql.js database: typed row access with
 * prepared statements kept for the database's life (sql.js keeps them valid
 * across `export()`).
 */
export class RecordsDb {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  get(table: string, id: string): RecordRow | undefined {
    return this.rows(SQL_GET, [table, id])[0];
  }

  list(table: string, range?: { from: string; to: string | undefined }): RecordRow[] {
    if (!range) return this.rows(SQL_LIST, [table]);
    return range.to === undefined ? this.rows(SQL_LIST_FROM, [table, range.from]) : this.rows(SQL_LIST_RANGE, [table, range.from, range.to]);
  }

  has(table: string, id: string): boolean {
    return this.query(SQL_HAS, [table, id], () => true)[0] ?? false;
  }

  count(table: string): number {
    return this.query(SQL_COUNT, [table], (row) => Number(row[0]))[0] ?? 0;
  }

  insert(table: string, id: string, payload: string, at: string): void {
    this.run(SQL_INSERT, [table, id, payload, at, at]);
  }

  update(table: string, id: string, payload: string, at: string): void {
    this.run(SQL_UPDATE, [payload, at, table, id]);
  }

  upsert(table: string, id: string, payload: string, at: string): void {
    this.run(SQL_UPSERT, [table, id, payload, at, at]);
  }

  delete(table: string, id: string): boolean {
    this.run(SQL_DELETE, [table, id]);
    return this.db.getRowsModified() > 0;
  }

  /** Transaction control (BEGIN, COMMIT, SAVEPOINT…); never user data. */
  execute(sql: string): void {
    this.db.exec(sql);
  }

  /** The whole file image; sql.js refuses while a write transaction is open. */
  export(): Uint8Array {
    return this.db.export();
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }

  private rows(sql: string, params: BindParams): RecordRow[] {
    return this.query(sql, params, (row) => ({
      id: String(row[0]),
      payload: String(row[1]),
      createdAt: String(row[2]),
      updatedAt: String(row[3]),
    }));
  }

  private query<T>(sql: string, params: BindParams, map: (row: SqlValue[]) => T): T[] {
    const statement = this.prepare(sql);
    try {
      statement.bind(params);
      const out: T[] = [];
      while (statement.step()) out.push(map(statement.get()));
      return out;
    } finally {
      statement.reset();
    }
  }

  private run(sql: string, params: BindParams): void {
    const statement = this.prepare(sql);
    try {
      statement.run(params);
    } finally {
      statement.reset();
    }
  }

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
