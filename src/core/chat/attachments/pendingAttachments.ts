import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Attachment, PendingAttachment } from '../../../shared/chat.js';
import { ensureFolder } from '../conversations/messageLog.js';
import { ChatError } from '../chatError.js';
import { documentExtension, imageExtension, MAX_ATTACHMENTS_PER_MESSAGE, type ReadAttachment } from './attachmentFile.js';
import { MAX_ATTACHMENT_BYTES } from './attachmentLimits.js';

/** An attachment nobody sent is dropped after this long. */
const STALE_MS = 30 * 60_000;
/** All attachments waiting together (images by their bytes, documents by their text): a face cannot fill the host's memory. */
const MAX_PENDING_BYTES = 5 * MAX_ATTACHMENT_BYTES;

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

interface Pending {
  read: ReadAttachment;
  size: number;
  at: number;
}

/** What one waiting file holds in memory: its bytes, and a document's text (two bytes a character) beside them. */
const sizeOf = (read: ReadAttachment) => (read.bytes?.length ?? 0) + (read.kind === 'document' ? read.text.length * 2 : 0);

/**
 * Files read and waiting, in memory, for the message that names them: a
 * face attaches a file (and learns at once whether it can be sent) before
 * the user sends, maybe to a conversation that does not exist yet. Sending
 * writes them into the conversation's folder.
 */
export class PendingAttachments {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly now: () => number) {}

  add(read: ReadAttachment): PendingAttachment {
    this.dropStale();
    const size = sizeOf(read);
    let total = size;
    for (const entry of this.pending.values()) total += entry.size;
    if (total > MAX_PENDING_BYTES)
      throw new ChatError('ATTACHMENTS_TOO_MANY', `${read.name}: too many attachments are waiting to be sent (${MAX_PENDING_BYTES / (1024 * 1024)} MB in all)`, 'send or remove some first');
    const id = randomUUID();
    this.pending.set(id, { read, size, at: this.now() });
    return viewOf(id, read);
  }

  /** Forgets one (the user removed it before sending); false when it was not waiting. */
  discard(id: string): boolean {
    return this.pending.delete(id);
  }

  /** Refuses ids that do not all wait (too many, one twice, one unknown); takes nothing. */
  check(ids: readonly string[]): void {
    this.dropStale();
    if (ids.length > MAX_ATTACHMENTS_PER_MESSAGE)
      throw new ChatError('ATTACHMENTS_TOO_MANY', `a message carries at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments, not ${ids.length}`, 'send the rest with another message');
    if (new Set(ids).size !== ids.length) throw new ChatError('ATTACHMENT_NOT_FOUND', 'an attachment is named twice', 'name each attachment once');
    const missing = ids.filter((id) => !this.pending.has(id));
    if (missing.length)
      throw new ChatError('ATTACHMENT_NOT_FOUND', `no attachment ${missing.join(', ')} is waiting to be sent (each is sent once, and dropped after 30 minutes)`, 'attach the file again');
  }

  /** Every id's attachment, once (checked first: a missing one takes none). */
  take(ids: readonly string[]): ReadAttachment[] {
    this.check(ids);
    return ids.map((id) => {
      const { read } = this.pending.get(id)!;
      this.pending.delete(id);
      return read;
    });
  }

  private dropStale(): void {
    const now = this.now();
    for (const [id, entry] of this.pending) if (now - entry.at > STALE_MS) this.pending.delete(id);
  }
}

function viewOf(id: string, read: ReadAttachment): PendingAttachment {
  const resource = read.resource ? { resource: read.resource } : {};
  if (read.kind === 'image') return { id, kind: 'image', name: read.name, mimeType: read.mimeType, byteLength: read.bytes.length, ...resource };
  return {
    id,
    kind: 'document',
    name: read.name,
    mimeType: read.mimeType,
    byteLength: read.byteLength,
    chars: read.text.length,
    ...(read.totalChars !== undefined ? { totalChars: read.totalChars } : {}),
    ...resource,
  };
}

/**
 * Writes attachments into the conversation's folder, under
 * `artifacts/attachments/`, by names the host makes (a time and a uuid):
 * the user's file name is kept in the message, never used as a path. A
 * file is created new and never through a link.
 */
export function storeAttachments(conversationFolder: string, reads: readonly ReadAttachment[], now: number): Attachment[] {
  if (!reads.length) return [];
  ensureFolder(path.join(conversationFolder, 'artifacts'));
  const dir = path.join(conversationFolder, 'artifacts', 'attachments');
  ensureFolder(dir);
  return reads.map((read): Attachment => {
    const stem = `${now}-${randomUUID()}`;
    const file = `${stem}.${read.kind === 'image' ? imageExtension(read.mimeType) : 'txt'}`;
    writeNew(path.join(dir, file), read.kind === 'image' ? read.bytes : Buffer.from(read.text, 'utf8'));
    const artifact = `artifacts/attachments/${file}`;
    const resource = read.resource ? { resource: read.resource } : {};
    if (read.kind === 'image') return { kind: 'image', name: read.name, mimeType: read.mimeType, byteLength: read.bytes.length, artifact, ...resource };
    const originalFile = read.bytes ? `${stem}-original.${documentExtension(read.mimeType)}` : undefined;
    if (originalFile && read.bytes) writeNew(path.join(dir, originalFile), read.bytes);
    return {
      kind: 'document',
      name: read.name,
      mimeType: read.mimeType,
      byteLength: read.byteLength,
      artifact,
      ...(originalFile ? { original: `artifacts/attachments/${originalFile}` } : {}),
      chars: read.text.length,
      ...(read.totalChars !== undefined ? { totalChars: read.totalChars } : {}),
      ...(read.notes.length ? { notes: read.notes } : {}),
      ...resource,
    };
  });
}

function writeNew(file: string, bytes: Buffer): void {
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | O_NOFOLLOW, 0o600);
  try {
    fs.writeSync(fd, bytes);
  } finally {
    fs.closeSync(fd);
  }
}
