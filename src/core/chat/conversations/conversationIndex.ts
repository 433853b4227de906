import { ConversationSchema, type Conversation } from '../../../shared/chat.js';
import { defineTable } from '../../store/logicalTable.js';
import type { RecordsStore } from '../../store/recordsStore.js';

/**
 * The conversations' index in the host's admin DB: one small row per
 * conversation (title, agent, parent run, times, status, active leaf,
 * totals). Rows change per turn, not per message, and the messages stay in
 * each conversation's own file.
 */
export const ConversationsTable = defineTable('conversations', ConversationSchema);

export class ConversationIndex {
  constructor(private readonly store: RecordsStore) {}

  list(): Conversation[] {
    this.store.refresh();
    return this.store.list(ConversationsTable).map((r) => r.payload);
  }

  get(id: string): Conversation | undefined {
    this.store.refresh();
    return this.store.get(ConversationsTable, id)?.payload;
  }

  put(conversation: Conversation): void {
    this.store.put(ConversationsTable, conversation.id, conversation);
  }

  /** Reads the row now (another process may have changed it), applies `change`, writes it back; undefined when it is gone. */
  update(id: string, change: (current: Conversation) => Conversation): Conversation | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const next = change(current);
    this.put(next);
    return next;
  }

  delete(id: string): boolean {
    this.store.refresh();
    return this.store.delete(ConversationsTable, id);
  }

  /** Sub-agent runs started from `id`, direct ones. */
  childrenOf(id: string): Conversation[] {
    return this.list().filter((c) => c.parent?.conversationId === id);
  }
}
