import type { ToolConfirmationService } from '../confirmation/toolConfirmationService.js';
import type { ConnectionManager } from '../mcp/connection/connectionManager.js';
import type { LeaseHolders } from '../mcp/connection/leaseHolders.js';

export interface ConversationEndDeps {
  confirmations: Pick<ToolConfirmationService, 'forgetConversation'>;
  holders: Pick<LeaseHolders, 'forget'>;
  connections: Pick<ConnectionManager, 'endConversation'>;
}

/**
 * Ends a conversation's use of tools, as every face ends one (a deleted
 * conversation, a sub-agent's finished run, a page or socket gone for good):
 * its "approve for this conversation" answers are forgotten, no holder keeps
 * it any more, and its own server instances end (each audited as released).
 * Returns how many instances ended.
 */
export class ConversationEnd {
  constructor(private readonly deps: ConversationEndDeps) {}

  end(conversationId: string, reason: 'conversation-ended' | 'holder-gone' = 'conversation-ended'): Promise<number> {
    this.deps.confirmations.forgetConversation(conversationId);
    this.deps.holders.forget(conversationId);
    return this.deps.connections.endConversation(conversationId, reason);
  }
}
