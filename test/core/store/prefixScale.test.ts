import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTable } from '../../../src/core/store/logicalTable.js';
import { SQL_LIST_RANGE } from '../../../src/core/store/recordsDb.js';
import { RecordsStore } from '../../../src/core/store/recordsStore.js';
import { tempDir } from '../../helpers/tempDir.js';

const Grants = defineTable('grants', z.object({ app: z.string(), target: z.string() }));
const APPS = 1000;
const PER_APP = 100;

describe('prefix queries at 100k rows', () => {
  it('list({prefix}) walks the primary-key index', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file, { backups: 0 });
    store.transaction(() => {
      for (let a = 0; a < APPS; a++) {
        const app = `app${String(a).padStart(4, '0')}`;
        for (let t = 0; t < PER_APP; t++) store.put(Grants, `${app}::server${t}`, { app, target: `server${t}` });
      }
    });
    expect(store.count(Grants)).toBe(APPS * PER_APP);

    for (let a = 0; a < 200; a++) {
      const rows = store.list(Grants, { prefix: `app${String(a * 5).padStart(4, '0')}::` });
      expect(rows).toHaveLength(PER_APP);
    }
    // That each is a range of the index, not a scan of 100k rows, is read from the query plan below (a clock would flake on a busy machine).
    await store.close();

    const SQL = await initSqlJs();
    const db = new SQL.Database(fs.readFileSync(file));
    const plan = db.exec(`EXPLAIN QUERY PLAN ${SQL_LIST_RANGE}`, ['grants', 'app0001::', 'app0001:;'])[0]?.values.map((row) => String(row[3]));
    expect(plan).toEqual(['SEARCH records USING INDEX sqlite_autoindex_records_1 (table_name=? AND id>? AND id<?)']);
    db.close();
  }, 300_000);
});
