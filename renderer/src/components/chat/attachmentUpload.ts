import type { PendingAttachment } from '../../../../src/shared/chat';
import { api } from '../../api/client';
import { base64Of, newJobId, PART_BYTES } from '../knowledge/uploadFile';

/**
 * Sends a file to attach to the next message (docs/using/chat.md#attachments), in parts under
 * the 1 MB a request body may hold, then has the host read it. The first
 * part says the whole file's size, so a file too large is refused before
 * the rest of it is read; the host's rules (size, type, text) are the only
 * ones, and its refusal names the file and the fix.
 */
export async function uploadAttachment(file: File, name: string): Promise<PendingAttachment> {
  const uploadId = newJobId('attach');
  for (let offset = 0; offset < file.size || offset === 0; offset += PART_BYTES) {
    // One part at a time: a large file is never held whole as base64.
    const part = new Uint8Array(await file.slice(offset, offset + PART_BYTES).arrayBuffer());
    await api.call('chat.uploadPart', { uploadId, offset, data: base64Of(part), name, size: file.size });
    if (file.size === 0) break;
  }
  return (await api.call('chat.attach', { uploadId, name })).attachment;
}

/** A name for an image pasted from the clipboard (the browser calls every one "image.png"): the time it was pasted, by its type. */
export function pastedName(file: File, index: number): string {
  const ext = file.type.startsWith('image/') ? file.type.slice('image/'.length).replace('jpeg', 'jpg') : 'bin';
  return `pasted-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}${index ? `-${index + 1}` : ''}.${ext}`;
}
