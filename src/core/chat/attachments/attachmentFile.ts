import * as path from 'node:path';
import { readRegularFile } from '../../files/readRegularFile.js';
import { documentFromBytes, type DocumentText } from '../../knowledge/documentText.js';
import { KnowledgeError } from '../../knowledge/knowledgeError.js';
import { ChatError } from '../chatError.js';
import { MAX_ATTACHMENT_BYTES } from './attachmentLimits.js';

/**
 * What a file attached to a message becomes (docs/using/chat.md#attachments):
 * an image (PNG, JPEG, GIF, WebP, known by its bytes), or a document (text,
 * Markdown, HTML, PDF, known by its extension) read once into text, cut at
 * MAX_ATTACHMENT_CHARS. Anything else is refused with what to do instead.
 */

/**
 * A document's text a message carries at most (about 25k tokens): enough
 * for a long paper, while a book would fill the context window of most
 * models by itself. The rest is cut, and the model is told what was cut.
 */
export const MAX_ATTACHMENT_CHARS = 100_000;
/** Attachments one message carries at most. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;
/** A name longer than this is shortened (it is shown and told to the model, never used as a path). */
const MAX_NAME_CHARS = 200;

/** `resource`: read from an MCP server's resource (the server and its uri), not from a file. */
export type ReadAttachment =
  | { kind: 'image'; name: string; mimeType: string; bytes: Buffer; resource?: AttachedResource }
  /** `bytes`: the file as it came, kept beside its text so the user can open the original (none for a server's text resource: its text is all there is). */
  | { kind: 'document'; name: string; mimeType: string; bytes?: Buffer; byteLength: number; text: string; totalChars?: number; notes: string[]; resource?: AttachedResource };

export interface AttachedResource {
  serverId: string;
  uri: string;
}

/** Images by their first bytes (a name can say anything): the formats every provider takes, with the extension they are saved under. */
const IMAGE_SIGNATURES: readonly { mimeType: string; ext: string; matches(bytes: Buffer): boolean }[] = [
  { mimeType: 'image/png', ext: 'png', matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mimeType: 'image/jpeg', ext: 'jpg', matches: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mimeType: 'image/gif', ext: 'gif', matches: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  { mimeType: 'image/webp', ext: 'webp', matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);
/** Documents by extension: their type as the message records it. A Map, so a name from outside never reaches a prototype. */
const DOCUMENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['.txt', 'text/plain'],
  ['.md', 'text/markdown'],
  ['.markdown', 'text/markdown'],
  ['.html', 'text/html'],
  ['.htm', 'text/html'],
  ['.pdf', 'application/pdf'],
]);

/** The extension a document's original is saved under: from its type (never from the name the user gave). */
export function documentExtension(mimeType: string): string {
  for (const [extension, type] of DOCUMENT_TYPES) if (type === mimeType) return extension.slice(1);
  return 'bin';
}

/** The extension an image of this type is saved under. */
export function imageExtension(mimeType: string): string {
  return IMAGE_SIGNATURES.find((s) => s.mimeType === mimeType)?.ext ?? 'bin';
}

/** A name from outside as a name to show: its last path part, no control characters, not too long. */
export function attachmentName(raw: string): string {
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!base) return 'attachment';
  return base.length > MAX_NAME_CHARS ? `${base.slice(0, MAX_NAME_CHARS - 1)}…` : base;
}

/** A file past MAX_ATTACHMENT_BYTES (also said to a page that uploads one). */
export const attachmentTooLarge = (name: string) =>
  new ChatError(
    'ATTACHMENT_TOO_LARGE',
    `${name} is larger than ${MAX_ATTACHMENT_BYTES / (1024 * 1024)} MB, the most a message carries`,
    'attach a smaller file (split a long document, shrink an image)',
  );

/** The bytes of a file on disk to attach (the CLI's --attach): only a regular file, refused by its size before it is read. */
export function readAttachmentFile(file: string): { name: string; bytes: Buffer } {
  const read = readRegularFile(file, { maxBytes: MAX_ATTACHMENT_BYTES });
  if (read.ok) return { name: path.basename(file), bytes: read.bytes };
  if (read.code === 'FILE_TOO_LARGE') throw attachmentTooLarge(file);
  throw new ChatError('ATTACHMENT_UNREADABLE', `cannot attach ${read.message}`, read.hint);
}

/** What `bytes` named `rawName` become as an attachment; a ChatError naming the file and the fix when they cannot. */
export async function readAttachment(rawName: string, bytes: Buffer): Promise<ReadAttachment> {
  const name = attachmentName(rawName);
  if (bytes.length > MAX_ATTACHMENT_BYTES) throw attachmentTooLarge(name);
  const image = IMAGE_SIGNATURES.find((s) => s.matches(bytes));
  if (image) return { kind: 'image', name, mimeType: image.mimeType, bytes };
  const extension = path.extname(name).toLowerCase();
  if (IMAGE_EXTENSIONS.has(extension))
    throw new ChatError('ATTACHMENT_UNREADABLE', `${name} is not a PNG, JPEG, GIF or WebP image (its bytes are not one)`, 'open it in an image viewer and save it again as PNG or JPEG');
  const mimeType = DOCUMENT_TYPES.get(extension);
  if (!mimeType) {
    throw new ChatError(
      'ATTACHMENT_UNSUPPORTED',
      `${name}: a message can carry images (PNG, JPEG, GIF, WebP) and text, Markdown, HTML or PDF files, not "${extension || '(no extension)'}"`,
      'save it as PDF or text (or an image as PNG), or paste its text into the message',
    );
  }
  if (mimeType !== 'application/pdf' && bytes.includes(0))
    throw new ChatError('ATTACHMENT_UNREADABLE', `${name} is not a text file (it holds binary data)`, 'attach the text itself, or save it as PDF');
  const document = await documentText(name, extension, bytes);
  const cut = document.text.length > MAX_ATTACHMENT_CHARS;
  return {
    kind: 'document',
    name,
    mimeType,
    bytes,
    byteLength: bytes.length,
    text: cut ? document.text.slice(0, MAX_ATTACHMENT_CHARS) : document.text,
    ...(cut ? { totalChars: document.text.length } : {}),
    notes: document.notes,
  };
}

/** The text the knowledge base would read from it; its refusals said for an attachment. */
async function documentText(name: string, extension: string, bytes: Buffer): Promise<DocumentText> {
  try {
    return await documentFromBytes(name, bytes);
  } catch (error) {
    if (!(error instanceof KnowledgeError)) throw error;
    if (error.code === 'KB_DOCUMENT_EMPTY') {
      throw new ChatError(
        'ATTACHMENT_EMPTY',
        `${name} has no text to read${extension === '.pdf' ? ' (a scanned PDF holds only pictures of its pages)' : ''}`,
        extension === '.pdf' ? 'run OCR on it first, or attach its pages as images' : 'attach a file with text in it',
      );
    }
    throw new ChatError('ATTACHMENT_UNREADABLE', `cannot attach ${error.message}`, error.hint ?? 'check the file opens in its own program');
  }
}
