import { AgentsTable } from '../agents/agentStore.js';
import type { KnowledgeService } from '../knowledge/knowledgeService.js';
import { ModelsTable } from '../models/modelStore.js';
import { ListWatch, type ListSnapshot } from '../reload/listWatch.js';
import { canonicalJson } from '../store/canonicalJson.js';
import type { LogicalTable } from '../store/logicalTable.js';
import type { RecordsStore } from '../store/recordsStore.js';
import type { HostBase } from './hostBase.js';

/** A table's rows as a snapshot, read again only when the store changed (this process's writes, or the file another wrote). */
function tableSnapshot<T>(store: RecordsStore, table: LogicalTable<T>): () => ListSnapshot {
  let revision = -1;
  let snapshot: ListSnapshot = new Map();
  return () => {
    store.refresh();
    if (store.revision === revision) return snapshot;
    revision = store.revision;
    snapshot = new Map(store.list(table).map((row) => [row.id, canonicalJson(row.payload)]));
    return snapshot;
  };
}

/** Models, agents and knowledge bases watched for changes from anywhere; the faces are told (`lists-changed`). */
export function listWatchModule(base: HostBase, store: RecordsStore, knowledge: Pick<KnowledgeService, 'baseStamps'>): ListWatch {
  return new ListWatch({
    scheduler: base.scheduler,
    read: { models: tableSnapshot(store, ModelsTable), agents: tableSnapshot(store, AgentsTable), knowledge: () => knowledge.baseStamps() },
    onChange: (changes) => base.events.emit({ kind: 'lists-changed', changes }),
    onError: (error) => base.logger.warn(`looking for changed models, agents or knowledge bases failed: ${(error as Error).message}`),
  });
}
