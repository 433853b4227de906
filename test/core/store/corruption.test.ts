import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { RecordsStore } from '../../../src/core/store/recordsStore.js';
import { RECORDS_USER_VERSION, checkRecordsBytes } from '../../../src/core/store/recordsSchema.js';
import { loadSqlJs } from '../../../src/core/store/sqlite.js';
import { tempDir } from '../../helpers/tempDir.js';
import { Notes, TestClock, listDir, makeDb } from './storeTestKit.js';

const ROWS = 2000; // enough for ~30 pages, so "a page in the middle" is a real b-tree page
const CORRUPT_NAME = 'admin.db.corrupt-2025-01-02T03-04-05.000Z';

/** Deterministic noise, so a failing case can be replayed. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

async function sqliteImage(setup: string): Promise<Buffer> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(setup);
  const bytes = Buffer.from(db.export());
  db.close();
  return bytes;
}

/** Each corruption, generated at test time from a real DB image. */
const corruptions: { name: string; make: (good: Buffer) => Buffer | Promise<Buffer>; reason: RegExp }[] = [
  { name: 'zero-length', make: () => Buffer.alloc(0), reason: /empty/ },
  { name: 'truncated to half', make: (good) => good.subarray(0, Math.floor(good.length / 2)), reason: /truncated/ },
  { name: 'truncated mid-page', make: (good) => good.subarray(0, good.length - 1000), reason: /truncated/ },
  {
    name: 'header bytes overwritten',
    make: (good) => Buffer.concat([noise(100, 7), good.subarray(100)]),
    reason: /bad header/,
  },
  {
    name: 'a garbage page in the middle',
    make: (good) => {
      const pageSize = good.readUInt16BE(16);
      const middle = Math.floor(good.length / pageSize / 2) * pageSize;
      return Buffer.concat([good.subarray(0, middle), noise(pageSize, 42), good.subarray(middle + pageSize)]);
    },
    reason: /quick_check|SQLite cannot read it/,
  },
  {
    name: 'wrong schema (records table with other columns)',
    make: () => sqliteImage(`CREATE TABLE records(key TEXT PRIMARY KEY, value TEXT); PRAGMA user_version = ${RECORDS_USER_VERSION};`),
    reason: /wrong schema/,
  },
  {
    name: 'no records table',
    make: () => sqliteImage(`CREATE TABLE other(x); PRAGMA user_version = ${RECORDS_USER_VERSION};`),
    reason: /wrong schema: .*no records table/,
  },
  {
    name: 'a stranger SQLite file (user_version not ours)',
    make: () => sqliteImage('CREATE TABLE records(table_name TEXT, id TEXT, payload TEXT, created_at TEXT, updated_at TEXT, PRIMARY KEY(table_name,id)); PRAGMA user_version = 1;'),
    reason: /user_version 1 is not a ChatOS records DB/,
  },
];

let good: Buffer;
beforeAll(async () => {
  good = await makeDb(path.join(tempDir('chatos-good-'), 'admin.db'), ROWS);
});

describe('checked load', () => {
  it.each(corruptions)('detects $name', async ({ make, reason }) => {
    const check = checkRecordsBytes(await loadSqlJs(), await make(good));
    expect(check.kind).toBe('corrupt');
    expect(check.kind === 'corrupt' && check.reason).toMatch(reason);
  });

  it('accepts the good image', async () => {
    const check = checkRecordsBytes(await loadSqlJs(), good);
    expect(check.kind).toBe('ok');
    if (check.kind === 'ok') check.db.close();
  });
});

describe('quarantine and restore', () => {
  it.each(corruptions)('$name: moved aside, restored from the newest good backup, with a problem saying so', async ({ make, reason }) => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    fs.writeFileSync(file, good);
    await (await RecordsStore.open(file)).close(); // a good open makes admin.db.bak-1
    expect(fs.readFileSync(`${file}.bak-1`).equals(good)).toBe(true);
    const bad = await make(good);
    fs.writeFileSync(file, bad);

    const store = await RecordsStore.open(file, { clock: new TestClock() });
    expect(store.problems).toHaveLength(1);
    const problem = store.problems[0]!;
    expect(problem).toMatchObject({ severity: 'error', code: 'DB_CORRUPT_RESTORED', file });
    expect(problem.message).toMatch(reason);
    expect(problem.message).toContain(path.join(dir, CORRUPT_NAME));
    expect(problem.message).toContain(`${file}.bak-1`);
    expect(fs.readFileSync(path.join(dir, CORRUPT_NAME)).equals(bad)).toBe(true);
    expect(store.count(Notes)).toBe(ROWS);
    expect(store.get(Notes, 'note-0007')?.payload).toEqual({ title: 'note 7', tags: ['t'] });
    await store.close();

    const reopened = await RecordsStore.open(file);
    expect(reopened.problems).toEqual([]);
    expect(reopened.count(Notes)).toBe(ROWS);
    await reopened.close();
    expect(listDir(dir)).toEqual(['admin.db', 'admin.db.bak-1', CORRUPT_NAME]);
  });

  it('skips a bad backup and restores the next good one', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    fs.writeFileSync(file, good);
    fs.writeFileSync(`${file}.bak-1`, good.subarray(0, 4096));
    fs.writeFileSync(`${file}.bak-2`, good);
    fs.writeFileSync(file, Buffer.alloc(0));
    const store = await RecordsStore.open(file, { clock: new TestClock() });
    expect(store.problems[0]?.code).toBe('DB_CORRUPT_RESTORED');
    expect(store.problems[0]?.message).toContain(`${file}.bak-2`);
    expect(store.count(Notes)).toBe(ROWS);
    await store.close();
  });

  it('without a good backup starts a fresh DB (DB_CORRUPT_RESET) and keeps the damaged file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    fs.writeFileSync(file, 'this is not a database');
    const store = await RecordsStore.open(file, { clock: new TestClock() });
    expect(store.problems.map((p) => [p.severity, p.code])).toEqual([['error', 'DB_CORRUPT_RESET']]);
    expect(store.problems[0]?.message).toContain(path.join(dir, CORRUPT_NAME));
    expect(store.count(Notes)).toBe(0);
    store.put(Notes, 'new', { title: 'new', tags: [] });
    await store.close();
    expect(fs.readFileSync(path.join(dir, CORRUPT_NAME), 'utf8')).toBe('this is not a database');
    const reopened = await RecordsStore.open(file);
    expect(reopened.problems).toEqual([]);
    expect(reopened.list(Notes).map((r) => r.id)).toEqual(['new']);
    await reopened.close();
  });

  it('never overwrites an earlier quarantined file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    const clock = new TestClock();
    for (const junk of ['first', 'second']) {
      fs.writeFileSync(file, junk);
      await (await RecordsStore.open(file, { clock, backups: 0 })).close();
    }
    expect(fs.readFileSync(path.join(dir, CORRUPT_NAME), 'utf8')).toBe('first');
    expect(fs.readFileSync(path.join(dir, `${CORRUPT_NAME}-2`), 'utf8')).toBe('second');
  });
});

describe('backups', () => {
  it('keeps `backups` rotated copies, newest first, made at open and at most every interval while flushing', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    const clock = new TestClock();
    const store = await RecordsStore.open(file, { clock, backups: 2, backupIntervalMs: 60_000 });
    const snapshot = async (title: string) => {
      store.put(Notes, 'a', { title, tags: [] });
      await store.flush();
    };
    await snapshot('v1'); // first flush of a new DB: backed up
    expect(listDir(dir)).toEqual(['admin.db', 'admin.db.bak-1']);
    await snapshot('v2'); // within the interval: no new backup
    clock.advance(60_000);
    await snapshot('v3');
    clock.advance(60_000);
    await snapshot('v4');
    await store.close();
    expect(listDir(dir)).toEqual(['admin.db', 'admin.db.bak-1', 'admin.db.bak-2']);
    const titleIn = async (name: string) => {
      const reader = await RecordsStore.open(path.join(dir, name), { readOnly: true });
      return reader.get(Notes, 'a')?.payload.title;
    };
    expect(await titleIn('admin.db.bak-1')).toBe('v4');
    expect(await titleIn('admin.db.bak-2')).toBe('v3');
  });

  it('reopening an unchanged DB does not push older backups out', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    fs.writeFileSync(file, good);
    for (let i = 0; i < 4; i++) await (await RecordsStore.open(file)).close();
    expect(listDir(dir)).toEqual(['admin.db', 'admin.db.bak-1']);
  });
});

describe('read-only stores', () => {
  it('report a corrupt foreign DB without writing, locking or moving anything', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    const bad = Buffer.concat([good.subarray(0, 100), noise(good.length - 100, 3)]);
    fs.writeFileSync(file, bad);
    const before = listDir(dir);
    const mtime = fs.statSync(file).mtimeMs;

    const store = await RecordsStore.open(file, { readOnly: true });
    expect(store.problems.map((p) => [p.severity, p.code, p.file])).toEqual([['error', 'DB_CORRUPT_READ_ONLY', file]]);
    expect(store.count(Notes)).toBe(0);
    store.refresh();
    await store.flush();
    await store.close();
    expect(listDir(dir)).toEqual(before);
    expect(fs.readFileSync(file).equals(bad)).toBe(true);
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
  });

  it('read a good backup in place of a corrupt foreign DB, still touching nothing', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    fs.writeFileSync(file, Buffer.alloc(0));
    fs.writeFileSync(`${file}.bak-1`, good);
    const store = await RecordsStore.open(file, { readOnly: true });
    expect(store.problems[0]?.code).toBe('DB_CORRUPT_READ_ONLY');
    expect(store.problems[0]?.message).toContain(`${file}.bak-1`);
    expect(store.count(Notes)).toBe(ROWS);
    await store.close();
    expect(listDir(dir)).toEqual(['admin.db', 'admin.db.bak-1']);
    expect(fs.statSync(file).size).toBe(0);
  });

  it('make no backup of a good foreign DB', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    fs.writeFileSync(file, good);
    const store = await RecordsStore.open(file, { readOnly: true });
    expect(store.problems).toEqual([]);
    expect(store.count(Notes)).toBe(ROWS);
    await store.close();
    expect(listDir(dir)).toEqual(['admin.db']);
  });
});
