import type { Database, SqlJsStatic } from 'sql.js';
import { messageOf } from './storeError.js';

/** Our schema version; bump it (and add a migration) when the physical layout changes. */
export const RECORDS_SCHEMA_VERSION = 1;
/**
 * Tag in the high 16 bits of `PRAGMA user_version` ("CR", ChatOS records), so
 * a stranger's SQLite file that happens to have a `records` table and a small
 * user_version of its own is never mistaken for ours.
 */
const RECORDS_TAG = 0x4352_0000;
/** The `PRAGMA user_version` of a ChatOS records DB. */
export const RECORDS_USER_VERSION = RECORDS_TAG | RECORDS_SCHEMA_VERSION;

/** The one physical table; every logical table is a `table_name` inside it. */
export const CREATE_RECORDS_TABLE = 'CREATE TABLE records(table_name TEXT, id TEXT, payload TEXT, created_at TEXT, updated_at TEXT, PRIMARY KEY(table_name,id))';

/** `PRAGMA table_info(records)` of a good DB: [name, type, pk position]. */
const RECORDS_COLUMNS: readonly (readonly [string, string, number])[] = [
  ['table_name', 'TEXT', 1],
  ['id', 'TEXT', 2],
  ['payload', 'TEXT', 0],
  ['created_at', 'TEXT', 0],
  ['updated_at', 'TEXT', 0],
];

export function createEmptyDatabase(SQL: SqlJsStatic): Database {
  const db = new SQL.Database();
  db.run(CREATE_RECORDS_TABLE);
  db.run(`PRAGMA user_version = ${RECORDS_USER_VERSION}`);
  return db;
}

export type DbCheck =
  | { kind: 'ok'; db: Database }
  | { kind: 'corrupt'; reason: string }
  /** Written by a newer ChatOS: readable maybe, but not ours to change or move. */
  | { kind: 'too-new'; schemaVersion: number };

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Opens DB bytes and checks them for real. `new SQL.Database(bytes)` accepts
 * anything (garbage becomes an error only at the first query, an empty
 * buffer becomes an empty DB), so we check the header and the length against
 * it, run `PRAGMA quick_check`, and require our table with our user_version,
 * or with none at all (the layout of docs/rules/registry.md#storage as other apps write it).
 */
export function checkRecordsBytes(SQL: SqlJsStatic, bytes: Uint8Array): DbCheck {
  const headerProblem = checkHeader(bytes);
  if (headerProblem) return { kind: 'corrupt', reason: headerProblem };
  let db: Database | undefined;
  try {
    db = new SQL.Database(bytes);
    const verdict = checkOpened(db);
    if (verdict.kind === 'ok') return verdict;
    db.close();
    return verdict;
  } catch (error) {
    db?.close();
    return { kind: 'corrupt', reason: `SQLite cannot read it: ${messageOf(error)}` };
  }
}

function checkHeader(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0) return 'the file is empty';
  const header = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 100));
  if (header.length < 100 || !header.subarray(0, 16).equals(SQLITE_MAGIC)) return 'it is not an SQLite database (bad header)';
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return `the header names an impossible page size (${rawPageSize})`;
  if (bytes.length % pageSize !== 0) return `the file is ${bytes.length} bytes, not a whole number of ${pageSize}-byte pages (truncated?)`;
  // The in-header page count is only meaningful when "version-valid-for" matches the change counter.
  const pageCount = header.readUInt32BE(28);
  if (header.readUInt32BE(92) === header.readUInt32BE(24) && pageCount * pageSize !== bytes.length) {
    return `the header says ${pageCount} pages but the file holds ${bytes.length / pageSize} (truncated?)`;
  }
  return undefined;
}

function checkOpened(db: Database): DbCheck {
  const quick = db.exec('PRAGMA quick_check').flatMap((result) => result.values.map((row) => String(row[0])));
  if (quick.length !== 1 || quick[0] !== 'ok') return { kind: 'corrupt', reason: `quick_check failed: ${quick.slice(0, 3).join('; ')}` };

  const userVersion = Number(db.exec('PRAGMA user_version')[0]?.values[0]?.[0] ?? 0);
  // 0 is a DB that never set it: the layout of docs/rules/registry.md#storage (the original ChatOS, other provider apps), read when its table is exactly ours.
  if (userVersion !== 0 && (userVersion & 0xffff_0000) !== RECORDS_TAG) return { kind: 'corrupt', reason: `user_version ${userVersion} is not a ChatOS records DB` };
  const schemaVersion = userVersion & 0xffff;
  if (schemaVersion > RECORDS_SCHEMA_VERSION) return { kind: 'too-new', schemaVersion };

  const columns = db.exec('PRAGMA table_info(records)')[0]?.values.map((row) => [String(row[1]), String(row[2]).toUpperCase(), Number(row[5])] as const) ?? [];
  const same = columns.length === RECORDS_COLUMNS.length && columns.every((column, i) => column.every((part, j) => part === RECORDS_COLUMNS[i]![j]));
  if (!same) {
    const found = columns.length === 0 ? 'no records table' : `records(${columns.map((c) => `${c[0]} ${c[1]}`).join(', ')})`;
    return { kind: 'corrupt', reason: `wrong schema: expected ${CREATE_RECORDS_TABLE}, found ${found}` };
  }
  return { kind: 'ok', db };
}
