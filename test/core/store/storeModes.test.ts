import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTable } from '../../../src/core/store/logicalTable.js';
import { RecordsStore } from '../../../src/core/store/recordsStore.js';
import { CREATE_RECORDS_TABLE } from '../../../src/core/store/recordsSchema.js';
import { loadSqlJs } from '../../../src/core/store/sqlite.js';
import { tempDir } from '../../helpers/tempDir.js';
import { Counters, listDir, makeDb, Notes } from './storeTestKit.js';

describe('a store that does not save (a read-only command computing its view)', () => {
  it('applies changes in memory on top of what other processes write, and never touches the file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    await makeDb(file, 2);
    const state = () => ({ files: listDir(dir), stamp: fs.statSync(file, { bigint: true }).mtimeNs, bytes: fs.readFileSync(file).toString('hex') });

    let before = state();
    const view = await RecordsStore.open(file, { saveChanges: false });
    expect(view.savesChanges).toBe(false);
    view.put(Notes, 'mine', { title: 'only in memory', tags: [] });
    expect(view.get(Notes, 'mine')?.payload.title).toBe('only in memory');
    await view.flush();
    expect(state()).toEqual(before); // no backup, no lock, no write

    const writer = await RecordsStore.open(file, { backups: 0 });
    writer.put(Counters, 'c', { value: 7 });
    await writer.close();
    before = state();
    view.refresh();
    expect(view.get(Counters, 'c')?.payload.value).toBe(7); // the other process's write
    expect(view.get(Notes, 'mine')?.payload.title).toBe('only in memory'); // still on top
    await view.close();
    expect(state()).toEqual(before);

    const after = await RecordsStore.open(file, { readOnly: true });
    expect(after.get(Notes, 'mine')).toBeUndefined();
    await after.close();
  });

  it('does not create a missing file', async () => {
    const dir = tempDir();
    const view = await RecordsStore.open(path.join(dir, 'admin.db'), { saveChanges: false });
    view.put(Notes, 'a', { title: 'A', tags: [] });
    await view.close();
    expect(listDir(dir)).toEqual([]);
  });
});

describe('failures a face can see', () => {
  it('a flush that cannot write leaves a save problem while changes wait, and clears it once saved', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    const store = await RecordsStore.open(file, { flushDelayMs: 60_000 });
    store.put(Notes, 'a', { title: 'A', tags: [] });
    // A folder in place of the DB file: the write (which reads the file first, under the lock) fails.
    fs.mkdirSync(file);
    await expect(store.flush()).rejects.toMatchObject({ code: 'DB_READ_FAILED' });
    expect(store.saveProblem).toMatchObject({ code: 'DB_SAVE_FAILED', file, severity: 'error' });
    expect(store.saveProblem?.message).toContain('1 change(s) could not be saved');
    fs.rmSync(file, { recursive: true });
    await store.flush();
    expect(store.saveProblem).toBeUndefined();
    await store.close();
  });

  it('lists every row failing its schema as it is now, and forgets one that was fixed', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const Loose = defineTable('notes', z.unknown());
    const store = await RecordsStore.open(file);
    store.put(Notes, 'good', { title: 'G', tags: [] });
    store.put(Loose, 'bad', { title: 42 });
    expect(store.list(Notes).map((r) => r.id)).toEqual(['good']);
    expect(store.invalidRows([Notes, Counters])).toEqual([
      expect.objectContaining({ code: 'RECORD_INVALID', file, path: 'notes.bad.title', message: expect.stringContaining('row notes/bad is skipped') }),
    ]);
    store.put(Loose, 'bad', { title: 'fixed' });
    expect(store.invalidRows([Notes, Counters])).toEqual([]);
    await store.close();
  });
});

describe("the records table of docs/rules/registry.md#storage without our user_version tag (other apps' DBs, the original ChatOS)", () => {
  it('is read, not reported corrupt', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run(CREATE_RECORDS_TABLE);
    db.run("INSERT INTO records VALUES ('notes', 'n1', '{\"title\":\"from the original\",\"tags\":[]}', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z')");
    const file = path.join(tempDir(), 'admin.db');
    fs.writeFileSync(file, db.export());
    db.close();
    for (const options of [{ readOnly: true }, {}]) {
      const store = await RecordsStore.open(file, options);
      expect(store.problems).toEqual([]);
      expect(store.unreadable).toBe(false);
      expect(store.get(Notes, 'n1')?.payload.title).toBe('from the original');
      await store.close();
    }
    expect(fs.readdirSync(path.dirname(file)).filter((name) => name.includes('corrupt'))).toEqual([]);
  });

  it('a DB that cannot be read at all is flagged unreadable for a read-only open', async () => {
    const file = path.join(tempDir(), 'admin.db');
    fs.writeFileSync(file, 'not a database at all'.repeat(50));
    const store = await RecordsStore.open(file, { readOnly: true });
    expect(store.unreadable).toBe(true);
    expect(store.problems.map((p) => p.code)).toEqual(['DB_CORRUPT_READ_ONLY']);
    await store.close();
  });
});
