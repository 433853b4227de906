import type { Grant } from '../../shared/registry.js';
import type { LogicalTable } from '../store/logicalTable.js';
import type { RecordsStore } from '../store/recordsStore.js';
import { grantRowId, McpServerGrants, PromptGrants } from './registryTables.js';

/**
 * Re-keys the original's grant rows as ChatOS's (`<appId>=><registryId>`),
 * so that the per-call access check, a primary-key lookup, finds them. One
 * transaction per table: the file holds the original row until the same
 * save writes its replacement. A read-only store is left as it is (its
 * grants are still listed, not yet checked by key). Returns how many moved.
 */
function rekeyGrants(store: RecordsStore, table: LogicalTable<Grant>): number {
  if (store.readOnly) return 0;
  const moves = store.list(table).filter((row) => row.id !== grantRowId(row.payload.appId, row.payload.targetId));
  if (!moves.length) return 0;
  store.transaction(() => {
    for (const row of moves) {
      const key = grantRowId(row.payload.appId, row.payload.targetId);
      const grantedAt = row.payload.grantedAt || row.createdAt;
      if (!store.has(table, key)) store.put(table, key, { ...row.payload, grantedAt });
      store.delete(table, row.id);
    }
  });
  return moves.length;
}

/** Both grant tables, on load (docs/rules/registry.md#storage). */
export function migrateOriginalGrants(store: RecordsStore): number {
  return rekeyGrants(store, McpServerGrants) + rekeyGrants(store, PromptGrants);
}
