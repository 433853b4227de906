import { AlwaysAllowEntrySchema, type AlwaysAllowEntry } from '../../shared/chat.js';
import { defineTable } from '../store/logicalTable.js';
import type { RecordsStore } from '../store/recordsStore.js';
import type { AlwaysAllowPort } from './toolConfirmationService.js';

/** "Always allow" answers, per agent and tool, in the admin DB; listed and revoked on the agent's settings (UI, API, settings server). */
export const AlwaysAllowTable = defineTable('always_allow', AlwaysAllowEntrySchema);

/** Agent ids and tool names never hold '/', so the pair is one unambiguous row id. */
const rowId = (agentId: string, toolName: string) => `${agentId}/${toolName}`;

export class AlwaysAllowStore implements AlwaysAllowPort {
  constructor(
    private readonly store: RecordsStore,
    private readonly now: () => number,
  ) {}

  /** Asked only for confirm-level calls, so it reads the DB as it is now (another process may have revoked it). */
  has(agentId: string, toolName: string): boolean {
    this.store.refresh();
    return this.store.has(AlwaysAllowTable, rowId(agentId, toolName));
  }

  add(agentId: string, toolName: string, serverId: string): void {
    this.store.put(AlwaysAllowTable, rowId(agentId, toolName), { agentId, toolName, serverId, createdAt: this.now() });
  }

  list(agentId?: string): AlwaysAllowEntry[] {
    this.store.refresh();
    return this.store
      .list(AlwaysAllowTable)
      .map((r) => r.payload)
      .filter((e) => agentId === undefined || e.agentId === agentId)
      .sort((a, b) => (a.agentId === b.agentId ? a.toolName.localeCompare(b.toolName) : a.agentId.localeCompare(b.agentId)));
  }

  revoke(agentId: string, toolName: string): boolean {
    this.store.refresh();
    return this.store.delete(AlwaysAllowTable, rowId(agentId, toolName));
  }

  /** A server removed: every agent's answers for its tools go with it (a server added later under its name has the same tool names). */
  revokeServer(serverId: string): number {
    const its = this.list().filter((entry) => entry.serverId === serverId);
    for (const entry of its) this.store.delete(AlwaysAllowTable, rowId(entry.agentId, entry.toolName));
    return its.length;
  }

  /** An agent deleted: its answers go with it. */
  revokeAll(agentId: string): number {
    const mine = this.list(agentId);
    for (const entry of mine) this.store.delete(AlwaysAllowTable, rowId(entry.agentId, entry.toolName));
    return mine.length;
  }
}
