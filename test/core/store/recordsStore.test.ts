import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTable } from '../../../src/core/store/logicalTable.js';
import { RecordsStore } from '../../../src/core/store/recordsStore.js';
import { CREATE_RECORDS_TABLE, RECORDS_USER_VERSION } from '../../../src/core/store/recordsSchema.js';
import { StoreError } from '../../../src/core/store/storeError.js';
import { tempDir } from '../../helpers/tempDir.js';
import { Counters, Notes, TestClock, listDir } from './storeTestKit.js';

async function rawDb(file: string) {
  const SQL = await initSqlJs();
  return new SQL.Database(fs.readFileSync(file));
}

describe('RecordsStore basics', () => {
  it('puts, gets, lists, counts and deletes, and reads see mutations at once', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file);
    expect(store.put(Notes, 'b', { title: 'B', tags: [] })).toBe('created');
    expect(store.put(Notes, 'a', { title: 'A', tags: ['x'] })).toBe('created');
    expect(store.put(Counters, 'a', { value: 1 })).toBe('created');
    expect(store.get(Notes, 'a')?.payload).toEqual({ title: 'A', tags: ['x'] });
    expect(store.list(Notes).map((r) => r.id)).toEqual(['a', 'b']);
    expect(store.count(Notes)).toBe(2);
    expect(store.count(Counters)).toBe(1);
    expect(store.has(Notes, 'a')).toBe(true);
    expect(store.delete(Notes, 'a')).toBe(true);
    expect(store.delete(Notes, 'a')).toBe(false);
    expect(store.has(Notes, 'a')).toBe(false);
    expect(store.get(Notes, 'a')).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false); // nothing written until the batching window ends
    await store.close();

    const again = await RecordsStore.open(file);
    expect(again.list(Notes).map((r) => [r.id, r.payload])).toEqual([['b', { title: 'B', tags: [] }]]);
    expect(again.get(Counters, 'a')?.payload).toEqual({ value: 1 });
    expect(again.problems).toEqual([]);
    await again.close();
  });

  it('creates the exact physical table and our user_version', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file);
    store.put(Notes, 'a', { title: 'A', tags: [] });
    await store.close();
    const db = await rawDb(file);
    expect(db.exec("SELECT sql FROM sqlite_master WHERE name = 'records'")[0]?.values[0]?.[0]).toBe(CREATE_RECORDS_TABLE);
    expect(CREATE_RECORDS_TABLE).toBe('CREATE TABLE records(table_name TEXT, id TEXT, payload TEXT, created_at TEXT, updated_at TEXT, PRIMARY KEY(table_name,id))');
    expect(db.exec('PRAGMA user_version')[0]?.values[0]?.[0]).toBe(RECORDS_USER_VERSION);
    expect(db.exec('SELECT table_name, id, payload FROM records')[0]?.values).toEqual([['notes', 'a', '{"tags":[],"title":"A"}']]);
    db.close();
  });

  it('reports created / updated / unchanged, and an identical payload (any key order) neither writes nor touches updated_at', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const clock = new TestClock();
    const store = await RecordsStore.open(file, { clock });
    expect(store.put(Notes, 'a', { title: 'A', tags: ['1'] })).toBe('created');
    await store.flush();
    const created = store.get(Notes, 'a')!;
    expect(created.createdAt).toBe('2025-01-02T03:04:05.000Z');
    expect(created.updatedAt).toBe(created.createdAt);

    clock.advance(60_000);
    const writes = store.stats.fileWrites;
    expect(store.put(Notes, 'a', { tags: ['1'], title: 'A' })).toBe('unchanged');
    await store.flush();
    expect(store.stats.fileWrites).toBe(writes);
    expect(store.get(Notes, 'a')?.updatedAt).toBe('2025-01-02T03:04:05.000Z');

    expect(store.put(Notes, 'a', { title: 'A2', tags: ['1'] })).toBe('updated');
    const updated = store.get(Notes, 'a')!;
    expect(updated.createdAt).toBe('2025-01-02T03:04:05.000Z');
    expect(updated.updatedAt).toBe('2025-01-02T03:05:05.000Z');
    await store.close();
  });

  it('stores what the schema returns (defaults applied) and rejects a bad payload naming table, id and field', async () => {
    const store = await RecordsStore.open(path.join(tempDir(), 'admin.db'));
    store.put(Notes, 'a', { title: 'A' } as { title: string; tags: string[] });
    expect(store.get(Notes, 'a')?.payload).toEqual({ title: 'A', tags: [] });

    let caught: unknown;
    try {
      store.put(Notes, 'bad-id', { title: 42 } as unknown as { title: string; tags: string[] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StoreError);
    expect((caught as StoreError).code).toBe('RECORD_INVALID');
    expect((caught as StoreError).message).toMatch(/notes\/bad-id: title: .*expected string/);
    expect(store.has(Notes, 'bad-id')).toBe(false);
    expect(store.pendingChanges).toBe(1);
    await store.close();
  });

  it('a burst of 100 puts costs one file write', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file);
    for (let i = 0; i < 100; i++) store.put(Notes, `n${i}`, { title: `${i}`, tags: [] });
    await new Promise((resolve) => setTimeout(resolve, 100)); // let the batching timer fire
    expect(store.stats.fileWrites).toBeGreaterThanOrEqual(1);
    expect(store.stats.fileWrites).toBeLessThanOrEqual(2);
    expect(store.stats.bytesWritten).toBe(fs.statSync(file).size * store.stats.fileWrites);
    expect(store.pendingChanges).toBe(0);
    await store.close();
    const reopened = await RecordsStore.open(file, { readOnly: true });
    expect(reopened.count(Notes)).toBe(100);
  });

  it('close() writes everything put before it, without waiting for the timer', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file, { flushDelayMs: 60_000 });
    store.put(Notes, 'a', { title: 'A', tags: [] });
    await store.close();
    expect(() => store.put(Notes, 'b', { title: 'B', tags: [] })).toThrow(expect.objectContaining({ code: 'STORE_CLOSED' }));
    const reopened = await RecordsStore.open(file, { readOnly: true });
    expect(reopened.has(Notes, 'a')).toBe(true);
  });

  it('a closed store refuses reads and writes, also when close() had nothing to flush', async () => {
    const store = await RecordsStore.open(path.join(tempDir(), 'admin.db'));
    await store.close();
    expect(() => store.get(Notes, 'a')).toThrow(expect.objectContaining({ code: 'STORE_CLOSED' }));
    expect(() => store.refresh()).toThrow(expect.objectContaining({ code: 'STORE_CLOSED' }));
    expect(() => store.put(Notes, 'a', { title: 'A', tags: [] })).toThrow(expect.objectContaining({ code: 'STORE_CLOSED' }));
    await expect(store.close()).resolves.toBeUndefined();
  });

  it('transaction() applies all or nothing; a nested failure rolls back only its part', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file);
    store.transaction(() => {
      store.put(Notes, 'a', { title: 'A', tags: [] });
      store.put(Notes, 'b', { title: 'B', tags: [] });
    });
    expect(() =>
      store.transaction(() => {
        store.put(Notes, 'c', { title: 'C', tags: [] });
        store.delete(Notes, 'a');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.list(Notes).map((r) => r.id)).toEqual(['a', 'b']);

    store.transaction(() => {
      store.put(Notes, 'd', { title: 'D', tags: [] });
      expect(() =>
        store.transaction(() => {
          store.put(Notes, 'e', { title: 'E', tags: [] });
          throw new Error('inner');
        }),
      ).toThrow('inner');
    });
    expect(store.list(Notes).map((r) => r.id)).toEqual(['a', 'b', 'd']);

    expect(() => store.transaction((async () => store.put(Notes, 'f', { title: 'F', tags: [] })) as () => void)).toThrow(expect.objectContaining({ code: 'TRANSACTION_ASYNC' }));
    expect(store.has(Notes, 'f')).toBe(false);
    await store.close();

    const reopened = await RecordsStore.open(file, { readOnly: true });
    expect(reopened.list(Notes).map((r) => r.id)).toEqual(['a', 'b', 'd']);
  });

  it('list({prefix}) returns exactly the ids with that prefix, in id order', async () => {
    const store = await RecordsStore.open(path.join(tempDir(), 'admin.db'));
    for (const id of ['app::b', 'app::a', 'app:', 'app;', 'apq', 'ap', 'app::\u{10FFFF}', 'app::é', 'other']) store.put(Notes, id, { title: id, tags: [] });
    expect(store.list(Notes, { prefix: 'app::' }).map((r) => r.id)).toEqual(['app::a', 'app::b', 'app::é', 'app::\u{10FFFF}']);
    expect(store.list(Notes, { prefix: 'app:' }).map((r) => r.id)).toEqual(['app:', 'app::a', 'app::b', 'app::é', 'app::\u{10FFFF}']);
    expect(store.list(Notes, { prefix: 'zzz' })).toEqual([]);
    expect(store.list(Notes, { prefix: '' })).toHaveLength(9);
    await store.close();
  });

  it('a row that fails its schema on read is reported once in problems and skipped, not thrown', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file);
    store.put(Notes, 'good', { title: 'ok', tags: [] });
    await store.close();
    // Another version of the app wrote rows this schema does not accept.
    const db = await rawDb(file);
    db.run("INSERT INTO records VALUES ('notes', 'bad', '{\"title\":7}', 'x', 'x'), ('notes', 'garbled', '{not json', 'x', 'x')");
    fs.writeFileSync(file, db.export());
    db.close();

    const reader = await RecordsStore.open(file);
    expect(reader.list(Notes).map((r) => r.id)).toEqual(['good']);
    expect(reader.get(Notes, 'bad')).toBeUndefined();
    expect(reader.list(Notes)).toHaveLength(1);
    expect(reader.count(Notes)).toBe(3);
    expect(reader.has(Notes, 'bad')).toBe(true);
    expect(reader.problems.map((p) => [p.code, p.severity, p.path])).toEqual([
      ['RECORD_INVALID', 'error', 'notes.bad.title'],
      ['RECORD_INVALID', 'error', 'notes.garbled'],
    ]);
    expect(reader.problems[0]?.message).toContain('notes/bad');
    expect(reader.problems[1]?.message).toContain('not JSON');
    // Overwriting the bad row repairs it.
    expect(reader.put(Notes, 'bad', { title: 'fixed', tags: [] })).toBe('updated');
    expect(reader.get(Notes, 'bad')?.payload.title).toBe('fixed');
    await reader.close();
  });

  it('creates the folder on first write and leaves nothing but the DB and its backup behind', async () => {
    const dir = path.join(tempDir(), 'home', 'chatos');
    const file = path.join(dir, 'admin.db');
    const store = await RecordsStore.open(file);
    store.put(Notes, 'a', { title: 'A', tags: [] });
    await store.close();
    expect(listDir(dir)).toEqual(['admin.db', 'admin.db.bak-1']);
  });

  it('a read-only store refuses mutations', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file, { readOnly: true });
    expect(() => store.put(Notes, 'a', { title: 'A', tags: [] })).toThrow(expect.objectContaining({ code: 'STORE_READ_ONLY' }));
    expect(() => store.delete(Notes, 'a')).toThrow(expect.objectContaining({ code: 'STORE_READ_ONLY' }));
    await store.close();
    expect(fs.existsSync(path.dirname(file)) && fs.readdirSync(path.dirname(file))).toEqual([]);
  });

  it('refuses to open a DB written by a newer schema version, and leaves it alone', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file);
    store.put(Notes, 'a', { title: 'A', tags: [] });
    await store.close();
    const db = await rawDb(file);
    db.run(`PRAGMA user_version = ${RECORDS_USER_VERSION + 1}`);
    fs.writeFileSync(file, db.export());
    db.close();
    const before = fs.readFileSync(file);

    await expect(RecordsStore.open(file)).rejects.toMatchObject({ code: 'DB_TOO_NEW' });
    const reader = await RecordsStore.open(file, { readOnly: true });
    expect(reader.problems.map((p) => p.code)).toEqual(['DB_TOO_NEW']);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('accepts a table of any payload type through the typed API', async () => {
    const Flags = defineTable('flags', z.boolean());
    const store = await RecordsStore.open(path.join(tempDir(), 'admin.db'));
    store.put(Flags, 'on', true);
    const value: boolean | undefined = store.get(Flags, 'on')?.payload;
    expect(value).toBe(true);
    await store.close();
  });
});
