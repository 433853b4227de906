import type { Scheduler } from '../../ports.js';

/** Conversations one holder may tie; past this the oldest is let go (it still ends when idle). */
const MAX_CONVERSATIONS_PER_HOLDER = 1_000;
/** Holders kept at once; past this one that never connected is let go first. */
const MAX_HOLDERS = 1_000;

interface Holder {
  conversations: Set<string>;
  /** Open connections (sockets) of this holder now; 0 once they are all gone. */
  connections: number;
  /** The pending release once every connection is gone. */
  timer?: unknown;
}

/**
 * Who keeps a conversation's server instances alive besides its own calls:
 * a browser tab (its pages' conversations and its playground's). A face
 * ties the conversations a holder uses to it, and says when its connection
 * comes and goes. Once every connection of a holder has been gone for the
 * grace time (a reload or a reconnect comes back sooner), each of its
 * conversations that no present holder also keeps is ended, releasing its
 * instances. Conversations nobody ties are left to mcp_release, an explicit
 * end, or the idle sweep.
 */
export class LeaseHolders {
  private readonly holders = new Map<string, Holder>();

  constructor(
    private readonly deps: {
      scheduler: Scheduler;
      graceMs: () => number;
      endConversation: (conversationId: string) => Promise<unknown>;
      onError?: (error: unknown) => void;
    },
  ) {}

  private holder(id: string): Holder {
    let holder = this.holders.get(id);
    if (holder) return holder;
    if (this.holders.size >= MAX_HOLDERS) {
      // Ids come from outside: a client making up new ones must not grow this without bound.
      const idle = [...this.holders].find(([, other]) => other.connections === 0 && other.timer === undefined);
      if (idle) this.holders.delete(idle[0]);
    }
    this.holders.set(id, (holder = { conversations: new Set(), connections: 0 }));
    return holder;
  }

  /** This holder uses the conversation (a call made from its tab). */
  hold(holderId: string, conversationId: string): void {
    const { conversations } = this.holder(holderId);
    if (conversations.has(conversationId)) return;
    if (conversations.size >= MAX_CONVERSATIONS_PER_HOLDER) conversations.delete(conversations.values().next().value!);
    conversations.add(conversationId);
  }

  /** A connection of the holder opened (a socket, or the same tab's socket back after a drop): a pending release is called off. */
  connected(holderId: string): void {
    const holder = this.holder(holderId);
    holder.connections++;
    if (holder.timer !== undefined) this.deps.scheduler.clearTimeout(holder.timer);
    holder.timer = undefined;
  }

  /** A connection of the holder closed; when it was the last, its conversations are released after the grace time. */
  disconnected(holderId: string): void {
    const holder = this.holders.get(holderId);
    if (!holder || holder.connections === 0) return;
    holder.connections--;
    if (holder.connections > 0 || holder.timer !== undefined) return;
    holder.timer = this.deps.scheduler.setTimeout(() => this.release(holderId), this.deps.graceMs());
  }

  /** The conversation ended by other means (its page closed normally): no holder needs to release it. */
  forget(conversationId: string): void {
    for (const holder of this.holders.values()) holder.conversations.delete(conversationId);
  }

  /** The conversations this holder ties now (for the faces' and tests' view). */
  conversationsOf(holderId: string): string[] {
    return [...(this.holders.get(holderId)?.conversations ?? [])];
  }

  private release(holderId: string): void {
    const holder = this.holders.get(holderId);
    if (!holder || holder.connections > 0) return;
    this.holders.delete(holderId);
    const keptElsewhere = (conversationId: string) => [...this.holders.values()].some((other) => other.connections > 0 && other.conversations.has(conversationId));
    for (const conversationId of holder.conversations) {
      if (keptElsewhere(conversationId)) continue;
      this.deps.endConversation(conversationId).catch((error: unknown) => this.deps.onError?.(error));
    }
  }

  dispose(): void {
    for (const holder of this.holders.values()) if (holder.timer !== undefined) this.deps.scheduler.clearTimeout(holder.timer);
    this.holders.clear();
  }
}
