import { ModelEntrySchema, type ModelEntry } from '../../shared/models.js';
import { defineTable } from '../store/logicalTable.js';
import type { RecordsStore } from '../store/recordsStore.js';

/** Model entries in the host's admin DB. A row names where its key is, never the key. */
export const ModelsTable = defineTable('models', ModelEntrySchema);

export class ModelStore {
  constructor(private readonly store: RecordsStore) {}

  list(): ModelEntry[] {
    this.store.refresh();
    return this.store.list(ModelsTable).map((r) => r.payload);
  }

  get(id: string): ModelEntry | undefined {
    this.store.refresh();
    return this.store.get(ModelsTable, id)?.payload;
  }

  has(id: string): boolean {
    this.store.refresh();
    return this.store.has(ModelsTable, id);
  }

  put(entry: ModelEntry): void {
    this.store.put(ModelsTable, entry.id, entry);
  }

  delete(id: string): boolean {
    this.store.refresh();
    return this.store.delete(ModelsTable, id);
  }
}
