import * as fs from 'node:fs';
import { ConversationMessageSchema, MessageIdSchema, type ConversationMessage } from '../../../shared/chat.js';
import { MessageLogError } from './messageLogError.js';

/**
 * Where each message of a conversation's log starts and ends, so a window
 * of it (the newest messages, the ones before or around another) is read
 * by offset and parsed alone, never the whole file. Built by one pass over
 * the bytes, which reads of each line only its id, parent and role (the
 * host writes them first); then extended by the bytes appended since, so a
 * long conversation costs its new lines per look, not its history.
 *
 * A line that is not JSON, or has no message id, is not a node: it is said
 * as a notice. A line whose id and parent read but whose message the
 * current schema rejects stays a node (so the branch through it still
 * opens) and is said when a window reads it. Nothing is ever rewritten.
 */

export interface IndexedLine {
  id: string;
  parentId: string | null;
  /** `undefined` when the line did not say (a line written by hand, or not by this host). */
  role: string | undefined;
  offset: number;
  /** Bytes, without the newline. */
  length: number;
  /** 1-based, for notices. */
  line: number;
}

/** A message read from its line, or why it could not be. */
export type ReadLine = { ok: true; message: ConversationMessage } | { ok: false; notice: string };

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const CHUNK = 1 << 20;
/** How much of a line the fast path looks at: the host writes id, parentId, at and role first. */
const HEAD_BYTES = 256;
const ID = '[A-Za-z0-9][A-Za-z0-9_-]{0,63}';
const HEAD = new RegExp(`^\\{"id":"(${ID})","parentId":(?:null|"(${ID})"),"at":[-0-9.eE+]+,"role":"(user|assistant|tool|summary)"[,}]`);
/** A line longer than this is not read into memory to learn its id: a message that size is not one this host wrote. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export class MessageIndex {
  readonly entries: IndexedLine[] = [];
  /** What the pass skipped, in words. */
  readonly notices: string[] = [];
  /** Bytes indexed: every line before this offset ended with its newline. */
  private scanned = 0;
  private lines = 0;
  private inode: number | undefined;
  /** A last line without its newline (a write cut short), said until more is appended. */
  private tornNotice: string | undefined;

  constructor(readonly file: string) {}

  /** Notices of the pass, with the torn last line if there is one now. */
  allNotices(): string[] {
    return this.tornNotice ? [...this.notices, this.tornNotice] : [...this.notices];
  }

  /**
   * Reads what was appended since the last look; returns the entries that
   * are new, or `reset` when the file is not the one indexed (replaced or
   * cut), in which case the caller starts over with a new index.
   */
  refresh(): { added: IndexedLine[]; reset: boolean } {
    let fd: number;
    try {
      fd = fs.openSync(this.file, fs.constants.O_RDONLY | O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { added: [], reset: this.scanned > 0 };
      if (code === 'ELOOP') throw new MessageLogError('CONVERSATION_FOLDER_UNSAFE', `${this.file} is a link; messages are never read through one`, `remove the link ${this.file}`);
      throw error;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw new MessageLogError('CONVERSATION_FOLDER_UNSAFE', `${this.file} is not a regular file`, `move ${this.file} away`);
      if ((this.inode !== undefined && stat.ino !== this.inode) || stat.size < this.scanned) return { added: [], reset: true };
      this.inode = stat.ino;
      return { added: this.scan(fd, stat.size), reset: false };
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Indexes the complete lines in [scanned, size). */
  private scan(fd: number, size: number): IndexedLine[] {
    const added: IndexedLine[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let lineStart = this.scanned;
    let position = this.scanned;
    const buffer = Buffer.allocUnsafe(CHUNK);
    while (position < size) {
      const read = fs.readSync(fd, buffer, 0, Math.min(CHUNK, size - position), position);
      if (read === 0) break;
      let from = 0;
      for (;;) {
        const newline = buffer.indexOf(0x0a, from);
        if (newline === -1 || newline >= read) break;
        const piece = buffer.subarray(from, newline);
        const length = pendingBytes + piece.length;
        if (length > MAX_LINE_BYTES) {
          this.notices.push(`line ${++this.lines} (${length} bytes) is far larger than a message and is skipped`);
        } else {
          const entry = this.indexLine(pendingBytes ? Buffer.concat([...pending, piece]) : piece, lineStart);
          if (entry) added.push(entry);
        }
        pending = [];
        pendingBytes = 0;
        lineStart = position + newline + 1;
        from = newline + 1;
      }
      // The rest of the chunk starts a line that goes on in the next one (kept only up to what a line may be).
      if (from < read) {
        pendingBytes += read - from;
        if (pendingBytes <= MAX_LINE_BYTES) pending.push(Buffer.from(buffer.subarray(from, read)));
        else pending = [];
      }
      position += read;
    }
    this.scanned = lineStart;
    this.tornNotice = pendingBytes > 0 ? `the last line (${pendingBytes} bytes) was cut short when it was written (the process ended mid-write) and is skipped` : undefined;
    this.entries.push(...added);
    return added;
  }

  private indexLine(bytes: Buffer, offset: number): IndexedLine | undefined {
    const number = ++this.lines;
    const head = HEAD.exec(bytes.subarray(0, HEAD_BYTES).toString('utf8'));
    if (head) return { id: head[1]!, parentId: head[2] ?? null, role: head[3], offset, length: bytes.length, line: number };
    if (bytes.toString('utf8').trim() === '') return undefined;
    // Not in the host's own order: the whole line is parsed to learn its id and parent.
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch {
      this.notices.push(`line ${number} is not JSON and is skipped`);
      return undefined;
    }
    const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const id = MessageIdSchema.safeParse(record.id);
    const parent = record.parentId === null ? { success: true as const, data: null } : MessageIdSchema.safeParse(record.parentId);
    if (!id.success || !parent.success) {
      this.notices.push(`line ${number} is not a message this version reads (it has no message id and parent) and is skipped`);
      return undefined;
    }
    return { id: id.data, parentId: parent.data, role: typeof record.role === 'string' ? record.role : undefined, offset, length: bytes.length, line: number };
  }

  /** The messages of `entries`, each read at its offset and checked against the schema. */
  read(entries: readonly IndexedLine[]): ReadLine[] {
    if (!entries.length) return [];
    const fd = fs.openSync(this.file, fs.constants.O_RDONLY | O_NOFOLLOW);
    try {
      return entries.map((entry) => {
        const bytes = Buffer.allocUnsafe(entry.length);
        const read = fs.readSync(fd, bytes, 0, entry.length, entry.offset);
        let value: unknown;
        try {
          value = JSON.parse(bytes.subarray(0, read).toString('utf8'));
        } catch {
          return { ok: false, notice: `line ${entry.line} changed since it was read and is skipped` };
        }
        const parsed = ConversationMessageSchema.safeParse(value);
        if (!parsed.success)
          return {
            ok: false,
            notice: `message ${entry.id} (line ${entry.line}) is not a message this version reads (${parsed.error.issues[0]?.message ?? 'invalid'}); it is skipped here and kept in the file`,
          };
        if (parsed.data.id !== entry.id) return { ok: false, notice: `line ${entry.line} changed since it was read and is skipped` };
        return { ok: true, message: parsed.data };
      });
    } finally {
      fs.closeSync(fd);
    }
  }
}
