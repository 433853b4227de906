import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Conversation, ConversationDetail, ConversationMessage, ConversationStatus, ConversationWindowRequest } from '../../../shared/chat.js';
import { signalExists } from '../../process/processTree.js';
import { ChatError } from '../chatError.js';
import type { ConversationIndex } from './conversationIndex.js';
import { windowBounds } from './conversationWindow.js';
import { MessageIndex, type IndexedLine } from './messageIndex.js';
import { checkFolder, ensureFolder, MESSAGES_FILE, MessageLog } from './messageLog.js';
import { MessageTree } from './messageTree.js';

export interface ConversationStoreDeps {
  index: ConversationIndex;
  /** `$CHATOS_HOME/chatos/conversations`. */
  dir: string;
  now: () => number;
  /** Whether this process is running a turn of the conversation now. */
  runningHere: (id: string) => boolean;
}

/** Conversations kept parsed in memory (the ones being chatted in): a turn does not read its whole file again. */
const CACHED_CONVERSATIONS = 8;

/** Offset indexes kept: a few hundred bytes per message, so many more than parsed conversations. */
const INDEXED_CONVERSATIONS = 64;

interface Indexed {
  index: MessageIndex;
  tree: MessageTree<IndexedLine>;
}

interface CachedLog {
  stamp: string;
  tree: MessageTree;
  notices: string[];
}

const INTERRUPTED = { kind: 'interrupted' as const, message: 'the process running this conversation ended before the answer was complete', hint: 'resume it to continue' };

export const EMPTY_TOTALS = { answers: 0, inputTokens: 0, outputTokens: 0, cost: 0 } as const;

/** A conversation read in full: its row, its messages as a tree, and what reading skipped. */
export interface OpenConversation {
  conversation: Conversation;
  tree: MessageTree;
  /** Where the active branch ends now (the index may lag the file after a crash). */
  leafId: string | null;
  notices: string[];
}

/**
 * Conversations: index rows in the admin DB, messages in
 * `<dir>/<id>/messages.jsonl`, images in `<dir>/<id>/artifacts/`. The
 * folder is made from an id the index holds (checked by its schema), so
 * no name from outside ever becomes a path.
 */
export class ConversationStore {
  private readonly cache = new Map<string, CachedLog>();
  private readonly indexes = new Map<string, Indexed>();

  constructor(private readonly deps: ConversationStoreDeps) {}

  get dir(): string {
    return this.deps.dir;
  }

  folder(id: string): string {
    return path.join(this.deps.dir, id);
  }

  artifactsDir(id: string): string {
    return path.join(this.folder(id), 'artifacts');
  }

  create(input: { agentId: string; title?: string; parent?: Conversation['parent'] }): Conversation {
    const now = this.deps.now();
    const conversation: Conversation = {
      id: randomUUID(),
      title: input.title ?? '',
      agentId: input.agentId,
      ...(input.parent ? { parent: input.parent } : {}),
      createdAt: now,
      updatedAt: now,
      leafId: null,
      status: { kind: 'idle' },
      totals: { ...EMPTY_TOTALS },
    };
    ensureFolder(this.deps.dir);
    ensureFolder(this.folder(conversation.id));
    this.deps.index.put(conversation);
    return conversation;
  }

  /** Every conversation, newest activity first; sub-agent runs only when asked. */
  list(options: { includeChildren?: boolean; agentId?: string } = {}): Conversation[] {
    return this.deps.index
      .list()
      .filter((c) => (options.includeChildren || !c.parent) && (options.agentId === undefined || c.agentId === options.agentId))
      .map((c) => this.withLiveStatus(c))
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** The row, with a run whose process is gone shown as interrupted; CONVERSATION_NOT_FOUND when there is none. */
  get(id: string): Conversation {
    const row = this.deps.index.get(id);
    if (!row) throw new ChatError('CONVERSATION_NOT_FOUND', `no conversation "${id}"`, 'list them with: chatos conversations list');
    return this.withLiveStatus(row);
  }

  has(id: string): boolean {
    return this.deps.index.get(id) !== undefined;
  }

  /** A `running` row is true only while its process runs it: a killed CLI or serve leaves it behind. */
  private withLiveStatus(row: Conversation): Conversation {
    if (row.status.kind !== 'running') return row;
    const alive = row.status.pid === process.pid ? this.deps.runningHere(row.id) : signalExists(row.status.pid);
    if (alive) return row;
    const stopped: ConversationStatus = { kind: 'stopped', at: row.updatedAt, stop: INTERRUPTED };
    return { ...row, status: stopped };
  }

  log(id: string): MessageLog {
    return new MessageLog(this.folder(id));
  }

  /** Reads the whole conversation once. */
  open(id: string): OpenConversation {
    const conversation = this.get(id);
    const folder = this.folder(id);
    if (fs.lstatSync(folder, { throwIfNoEntry: false })) checkFolder(folder);
    const { tree, notices } = this.readLog(id);
    const leafId = tree.effectiveLeaf(conversation.leafId);
    return { conversation: this.withFileStatus(conversation, leafId, () => tree.get(leafId!)), tree, leafId, notices };
  }

  /**
   * A row that says a run ended while the file holds more below its leaf
   * than the run saved, and no complete answer at the end: the process was
   * killed before its row reached the disk. It reads as interrupted, as a
   * row left `running` does.
   */
  private withFileStatus(row: Conversation, leafId: string | null, leafOf: () => ConversationMessage | undefined): Conversation {
    if (row.status.kind === 'running' || row.status.kind === 'stopped' || leafId === row.leafId || leafId === null) return row;
    const leaf = leafOf();
    if (leaf?.role === 'assistant' && leaf.status === 'complete' && !leaf.toolCalls.length) return row;
    return { ...row, status: { kind: 'stopped', at: row.updatedAt, stop: INTERRUPTED } };
  }

  /**
   * The conversation's messages as a tree, read from its file only when the
   * file changed since (another process appended, or it was never read):
   * a turn in a long conversation costs its new messages, not its history.
   */
  private readLog(id: string): CachedLog {
    const log = this.log(id);
    const stamp = log.stamp();
    const hit = this.cache.get(id);
    if (hit && hit.stamp === stamp) {
      // Most recently used last, so the oldest is the one to drop.
      this.cache.delete(id);
      this.cache.set(id, hit);
      return hit;
    }
    const { messages, notices } = log.read();
    const read: CachedLog = { stamp, tree: new MessageTree(messages), notices };
    this.cache.delete(id);
    this.cache.set(id, read);
    if (this.cache.size > CACHED_CONVERSATIONS) this.cache.delete(this.cache.keys().next().value!);
    return read;
  }

  detail(id: string): ConversationDetail {
    const { conversation, tree, leafId, notices } = this.open(id);
    const messages = tree.pathTo(leafId);
    const callIds = new Set(messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((call) => call.id) : [])));
    const children = this.deps.index
      .childrenOf(id)
      .filter((c) => c.parent && callIds.has(c.parent.callId))
      .map((c) => ({ callId: c.parent!.callId, conversationId: c.id }));
    return { conversation: { ...conversation, leafId }, messages, siblings: tree.siblingsAlong(messages), children, notices };
  }

  /**
   * A window of the active branch (or of the branch `request.leafId` ends),
   * read through the log's offset index: only the window's own lines are
   * parsed, so the newest messages of a conversation of any length cost
   * about the same. `window` says where they sit on the branch.
   */
  window(id: string, request: ConversationWindowRequest): ConversationDetail {
    const row = this.get(id);
    const folder = this.folder(id);
    if (fs.lstatSync(folder, { throwIfNoEntry: false })) checkFolder(folder);
    const { index, tree } = this.indexed(id);
    if (request.leafId !== undefined && !tree.get(request.leafId)) throw new ChatError('MESSAGE_NOT_FOUND', `conversation "${id}" has no message "${request.leafId}"`);
    const anchor = request.around ?? request.before ?? request.after;
    if (anchor !== undefined && !tree.get(anchor)) throw new ChatError('MESSAGE_NOT_FOUND', `conversation "${id}" has no message "${anchor}"`);
    const leafId = tree.effectiveLeaf(request.leafId ?? row.leafId);
    const path = tree.pathTo(leafId);
    const { start, end } = windowBounds(path, request);
    const notices = index.allNotices();
    const messages: ConversationMessage[] = [];
    for (const read of index.read(path.slice(start, end))) {
      if (read.ok) messages.push(read.message);
      else notices.push(read.notice);
    }
    const leafOf = () => (end === path.length && messages.at(-1)?.id === leafId ? messages.at(-1) : (index.read(path.slice(-1))[0] as { message?: ConversationMessage } | undefined)?.message);
    const conversation = { ...this.withFileStatus(row, leafId, leafOf), leafId };
    const callIds = new Set(messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((call) => call.id) : [])));
    const children = callIds.size
      ? this.deps.index
          .childrenOf(id)
          .filter((c) => c.parent && callIds.has(c.parent.callId))
          .map((c) => ({ callId: c.parent!.callId, conversationId: c.id }))
      : [];
    const shown = messages.map((m) => tree.get(m.id)!);
    return { conversation, messages, siblings: tree.siblingsAlong(shown), children, notices, window: { start, end, total: path.length } };
  }

  /** Whether `messageId` is on the conversation's active branch (a search hit may be on another). */
  onActiveBranch(id: string, messageId: string): boolean {
    const { tree } = this.indexed(id);
    if (!tree.get(messageId)) return false;
    return tree.pathTo(tree.effectiveLeaf(this.get(id).leafId)).some((m) => m.id === messageId);
  }

  /** The log's offset index, extended by what was appended since it was last looked at (started anew when the file was replaced). */
  private indexed(id: string): Indexed {
    let hit = this.indexes.get(id);
    if (hit) {
      const { added, reset } = hit.index.refresh();
      if (reset) hit = undefined;
      else for (const entry of added) hit.tree.add(entry);
    }
    if (!hit) {
      const index = new MessageIndex(path.join(this.folder(id), MESSAGES_FILE));
      index.refresh();
      hit = { index, tree: new MessageTree(index.entries) };
    }
    this.indexes.delete(id);
    this.indexes.set(id, hit);
    if (this.indexes.size > INDEXED_CONVERSATIONS) this.indexes.delete(this.indexes.keys().next().value!);
    return hit;
  }

  append(id: string, message: ConversationMessage): void {
    const folder = this.folder(id);
    ensureFolder(folder);
    const { before, after } = this.log(id).append(message);
    const cached = this.cache.get(id);
    if (!cached) return;
    // The cache saw the file up to this line: it takes the message; else it is read again when next opened.
    if (cached.stamp === before) {
      cached.tree.add(message);
      cached.stamp = after;
    } else this.cache.delete(id);
  }

  rename(id: string, title: string): Conversation {
    const updated = this.deps.index.update(id, (c) => ({ ...c, title, updatedAt: this.deps.now() }));
    if (!updated) throw new ChatError('CONVERSATION_NOT_FOUND', `no conversation "${id}"`);
    return updated;
  }

  update(id: string, change: (current: Conversation) => Conversation): Conversation {
    const updated = this.deps.index.update(id, change);
    if (!updated) throw new ChatError('CONVERSATION_NOT_FOUND', `no conversation "${id}"`, 'it was deleted meanwhile');
    return updated;
  }

  /** Removes the conversation and its sub-agent runs (rows and folders); returns the ids removed. */
  delete(id: string): string[] {
    if (!this.deps.index.get(id)) return [];
    const removed: string[] = [];
    const visit = (current: string) => {
      for (const child of this.deps.index.childrenOf(current)) visit(child.id);
      this.deps.index.delete(current);
      this.cache.delete(current);
      this.indexes.delete(current);
      // rmSync removes a link planted as the folder, never what it points at.
      fs.rmSync(this.folder(current), { recursive: true, force: true });
      removed.push(current);
    };
    visit(id);
    return removed;
  }
}
