import type { ConversationMessage } from '../../../shared/chat.js';

/** What the tree needs of a node: the messages themselves, or the index's entries for them. */
interface TreeNode {
  id: string;
  parentId: string | null;
}

/**
 * A conversation's messages as a tree (each names its parent): the path of
 * the active branch, where it has siblings, and which message ends it.
 * Pure; built once per read, indexed by id, so a long conversation is
 * walked in time proportional to its size.
 */
export class MessageTree<T extends TreeNode = ConversationMessage> {
  private readonly byId = new Map<string, T>();
  private readonly children = new Map<string | null, T[]>();
  /** File order of each message: later is newer. */
  private readonly order = new Map<string, number>();

  private count = 0;

  constructor(messages: readonly T[]) {
    for (const message of messages) this.add(message);
  }

  /** One more message, as the file gained it (after all the others). */
  add(message: T): void {
    const index = this.count++;
    // An id seen twice keeps its first record: the file is append-only, so a second one is a defect, not an update.
    if (this.byId.has(message.id)) return;
    this.byId.set(message.id, message);
    this.order.set(message.id, index);
    const siblings = this.children.get(message.parentId);
    if (siblings) siblings.push(message);
    else this.children.set(message.parentId, [message]);
  }

  /** Every message, in file order (a repeated id once). */
  get messages(): T[] {
    return [...this.byId.values()];
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  childrenOf(id: string | null): readonly T[] {
    return this.children.get(id) ?? [];
  }

  /**
   * The message the active branch ends at: the newest message written below
   * `leafId` (a turn appends below the leaf it started from, and a crash
   * may leave the index behind the file), or `leafId` itself. With no leaf
   * yet, the newest message of the newest root branch.
   */
  effectiveLeaf(leafId: string | null): string | null {
    if (leafId !== null && !this.byId.has(leafId)) leafId = null;
    let current = leafId;
    for (;;) {
      const below = this.childrenOf(current);
      if (!below.length) return current;
      current = below.reduce((a, b) => (this.order.get(b.id)! > this.order.get(a.id)! ? b : a)).id;
    }
  }

  /** Root to `leafId` (inclusive); empty for null. A parent missing from the file ends the walk there. */
  pathTo(leafId: string | null): T[] {
    const path: T[] = [];
    const seen = new Set<string>();
    let current = leafId === null ? undefined : this.byId.get(leafId);
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      path.push(current);
      current = current.parentId === null ? undefined : this.byId.get(current.parentId);
    }
    return path.reverse();
  }

  /** For each message of `path` that has siblings: every sibling id, oldest first. */
  siblingsAlong(path: readonly T[]): Record<string, string[]> {
    const out: Record<string, string[]> = Object.create(null);
    for (const message of path) {
      const siblings = this.childrenOf(message.parentId);
      if (siblings.length > 1) out[message.id] = siblings.map((m) => m.id);
    }
    return out;
  }
}
