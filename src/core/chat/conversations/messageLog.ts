import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConversationMessageSchema, type ConversationMessage } from '../../../shared/chat.js';
import { readRegularText } from '../../files/readRegularFile.js';
import { MessageLogError } from './messageLogError.js';

/**
 * A conversation's messages: one JSON record per line of
 * `<conversation>/messages.jsonl`, appended and never rewritten, so a message
 * costs its own size whatever the history (sql.js rewrites its whole file
 * on every flush, which is why messages are not in the admin DB). A process
 * killed mid-write leaves at most a torn last line: reading skips it with a
 * notice, and the next append starts on a line of its own.
 *
 * The folder is ours, but nothing in it is trusted as a path: the folder
 * and the file are refused when they are links (or not a folder / regular
 * file), so a link planted there never leads a read or a write elsewhere.
 */

export const MESSAGES_FILE = 'messages.jsonl';

/** A history far past any real conversation; a bigger file is refused rather than read into memory. */
const MAX_LOG_BYTES = 512 * 1024 * 1024;

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export interface LogContents {
  /** In file order (the order they were written). */
  messages: ConversationMessage[];
  /** What was skipped, in words (a torn last line, a line that is not a message). */
  notices: string[];
}

/** Makes `dir` (and its parent) as private folders, and refuses one that is a link or not a folder. */
export function ensureFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkFolder(dir);
}

/** A folder of ours, not a link to one elsewhere. */
export function checkFolder(dir: string): void {
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new MessageLogError(
      'CONVERSATION_FOLDER_UNSAFE',
      `${dir} is ${stat.isSymbolicLink() ? 'a link' : 'not a folder'}; a conversation's folder must be a folder of its own`,
      `move ${dir} away; the conversation's messages are not read or written through it`,
    );
  }
}

export class MessageLog {
  readonly file: string;

  constructor(readonly dir: string) {
    this.file = path.join(dir, MESSAGES_FILE);
  }

  /**
   * Appends one message as one line. Starts a new line first when the last
   * one was torn (a process killed mid-write). Returns what the file was
   * just before and just after (its stamps), so a reader's cache can tell
   * whether it saw everything up to this line.
   */
  append(message: ConversationMessage): { before: string; after: string } {
    const line = `${JSON.stringify(message)}\n`;
    let fd: number;
    try {
      fd = fs.openSync(this.file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | O_NOFOLLOW, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP')
        throw new MessageLogError('CONVERSATION_FOLDER_UNSAFE', `${this.file} is a link; messages are never written through one`, `remove the link ${this.file}`);
      throw error;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw new MessageLogError('CONVERSATION_FOLDER_UNSAFE', `${this.file} is not a regular file`, `move ${this.file} away`);
      fs.writeSync(fd, stat.size > 0 && !endsWithNewline(this.file, stat.size) ? `\n${line}` : line);
      return { before: stampOf(stat), after: stampOf(fs.fstatSync(fd)) };
    } finally {
      fs.closeSync(fd);
    }
  }

  /** What the file is now (inode, size, change time), or `none`: equal stamps, equal contents, for an append-only file. */
  stamp(): string {
    const stat = fs.lstatSync(this.file, { throwIfNoEntry: false });
    return stat ? stampOf(stat) : 'none';
  }

  /** Every message, read and parsed once; a missing file is an empty conversation. */
  read(): LogContents {
    const read = readRegularText(this.file, { maxBytes: MAX_LOG_BYTES, noFollow: true });
    if (!read.ok) {
      if (read.code === 'FILE_NOT_FOUND') return { messages: [], notices: [] };
      throw new MessageLogError('CONVERSATION_LOG_UNREADABLE', read.message, read.hint);
    }
    return parseLog(read.text);
  }
}

const stampOf = (stat: fs.Stats) => `${stat.ino}:${stat.size}:${stat.mtimeMs}`;

/** The last byte of the file, read on its own: a newline unless a write was torn. */
function endsWithNewline(file: string, size: number): boolean {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW);
  try {
    const byte = Buffer.alloc(1);
    fs.readSync(fd, byte, 0, 1, size - 1);
    return byte[0] === 0x0a;
  } finally {
    fs.closeSync(fd);
  }
}

/** A record's id and parent when both read as such, whatever else it holds. */
function linkOf(value: unknown): { id: string; parentId: string | null } | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { id, parentId } = value as { id?: unknown; parentId?: unknown };
  return typeof id === 'string' && (parentId === null || typeof parentId === 'string') ? { id, parentId } : undefined;
}

/**
 * Lines to messages; what does not parse is skipped and said. A last line
 * without its newline is a write cut short. A message this version rejects
 * but whose id and parent read is skipped as a link, not a gap: the messages
 * below it are shown below its parent, so the branch still reads from its
 * root (as the windowed read does, messageIndex.ts); the file is not changed.
 */
export function parseLog(text: string): LogContents {
  const messages: ConversationMessage[] = [];
  const notices: string[] = [];
  /** Skipped message id -> its parent. */
  const skipped = new Map<string, string | null>();
  const lines = text.split('\n');
  const torn = lines.at(-1) !== '';
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const last = index === lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      notices.push(
        last && torn ? `the last line (${line.length} bytes) was cut short when it was written (the process ended mid-write) and is skipped` : `line ${index + 1} is not JSON and is skipped`,
      );
      return;
    }
    const parsed = ConversationMessageSchema.safeParse(value);
    if (parsed.success) {
      messages.push(parsed.data);
      return;
    }
    notices.push(`line ${index + 1} is not a message this version reads (${parsed.error.issues[0]?.message ?? 'invalid'}) and is skipped`);
    const link = linkOf(value);
    if (link && !skipped.has(link.id)) skipped.set(link.id, link.parentId);
  });
  if (skipped.size === 0) return { messages, notices };
  return { messages: messages.map((message) => bridged(message, skipped)), notices };
}

/** `message` with its parent moved up past skipped messages (a loop of them ends at the root). */
function bridged(message: ConversationMessage, skipped: ReadonlyMap<string, string | null>): ConversationMessage {
  let parentId = message.parentId;
  const seen = new Set<string>();
  while (parentId !== null && skipped.has(parentId) && !seen.has(parentId)) {
    seen.add(parentId);
    parentId = skipped.get(parentId)!;
  }
  if (parentId !== null && seen.has(parentId)) parentId = null;
  return parentId === message.parentId ? message : { ...message, parentId };
}
