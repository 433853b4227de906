import * as path from 'node:path';
import { z } from 'zod';
import { HostMcpServers, HostPrompts } from '../../src/core/registry/registryTables.js';
import { defineTable } from '../../src/core/store/logicalTable.js';
import { RecordsStore } from '../../src/core/store/recordsStore.js';

/** `$CHATOS_HOME/<app>/admin.db` of a provider app (the original ChatOS's layout), with one server and one prompt of its own. */
export async function writeProviderDb(home: string, appId: string, serverName: string): Promise<void> {
  const store = await RecordsStore.open(path.join(home, appId, 'admin.db'));
  store.put(HostMcpServers, 's1', { id: 's1', name: serverName, url: `cmd://${appId}-own-mcp`, env: {}, tags: [], allowMain: true, allowSub: true, enabled: true });
  store.put(HostPrompts, 'p1', { id: 'p1', name: `${appId}_own_prompt`, content: `${appId}'s own prompt` });
  await store.close();
}

/** Any JSON object, as another program may have written it: the rows ChatOS must read, not ones it would write. */
const rawTable = (name: string) => defineTable(name, z.record(z.string(), z.unknown()));

/** Writes rows as they are into a logical table of an admin DB (a real sql.js file). */
export async function writeRawRows(file: string, table: string, rows: Record<string, Record<string, unknown>>): Promise<void> {
  const store = await RecordsStore.open(file);
  for (const [id, payload] of Object.entries(rows)) store.put(rawTable(table), id, payload);
  await store.close();
}

/** The rows of a logical table of an admin DB, exactly as stored. */
export async function readRawRows(file: string, table: string): Promise<Record<string, unknown>> {
  const store = await RecordsStore.open(file, { readOnly: true });
  const rows = Object.fromEntries(store.list(rawTable(table)).map((row) => [row.id, row.payload]));
  await store.close();
  return rows;
}
