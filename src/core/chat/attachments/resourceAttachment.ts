import type { ResourceRead } from '../../../shared/resources.js';
import { ChatError } from '../chatError.js';
import { readAttachment, type ReadAttachment } from './attachmentFile.js';
import { MAX_ATTACHMENT_BYTES } from './attachmentLimits.js';

/** Characters of a resource's name (its uri) shown and told to the model, at most. */
const MAX_NAME_CHARS = 200;

const nameOf = (uri: string) => {
  const clean = uri.replace(/[\u0000-\u001f\u007f]/g, '');
  return clean.length > MAX_NAME_CHARS ? `${clean.slice(0, MAX_NAME_CHARS - 1)}…` : clean;
};

/**
 * A resource read through the host's checked path as an attachment
 * (docs/using/resources.md#mention): its text as a document (within the
 * read's cap, the cut recorded so the model is told), or its one image as an
 * image. A binary resource that is not an image is refused, saying where it
 * can be downloaded instead; a read of several items keeps their text.
 */
export async function resourceAttachment(read: ResourceRead): Promise<ReadAttachment> {
  const name = nameOf(read.uri);
  const resource = { serverId: read.serverId, uri: read.uri };
  const texts = read.contents.filter((item): item is Extract<typeof item, { text: string }> => 'text' in item);
  if (texts.length) {
    const text = texts.map((item) => item.text).join('\n\n');
    const byteLength = Buffer.byteLength(text);
    const totalChars = read.cut && read.cut.totalChars > read.cut.keptChars ? read.cut.totalChars : undefined;
    return { kind: 'document', name, mimeType: texts[0]!.mimeType ?? 'text/plain', byteLength, text, ...(totalChars !== undefined ? { totalChars } : {}), notes: [], resource };
  }
  const blob = read.contents.find((item): item is Extract<typeof item, { blob: string }> => 'blob' in item);
  if (!blob) throw new ChatError('ATTACHMENT_UNREADABLE', `${name}: the server returned nothing for this resource`, 'pick another resource');
  if (blob.blob.length > (MAX_ATTACHMENT_BYTES * 4) / 3 + 4)
    throw new ChatError('ATTACHMENT_TOO_LARGE', `${name} is larger than ${MAX_ATTACHMENT_BYTES / (1024 * 1024)} MB`, 'attach a smaller resource');
  const bytes = Buffer.from(blob.blob, 'base64');
  if (blob.mimeType?.startsWith('text/')) return { kind: 'document', name, mimeType: blob.mimeType, byteLength: bytes.length, text: bytes.toString('utf8'), notes: [], resource };
  // An image is known by its bytes (as a file is), whatever the server calls it.
  const image = await readAttachment('resource.png', bytes).catch(() => undefined);
  if (image?.kind === 'image') return { ...image, name, resource };
  throw new ChatError(
    'ATTACHMENT_UNSUPPORTED',
    `${name} is binary data (${blob.mimeType ?? 'of no stated type'}), not text or an image a model can read`,
    "download it from the server's resource browser instead",
  );
}
