import { api } from '../../api/client';

/** Bytes per part: as base64 it stays under the contract's KNOWLEDGE_UPLOAD_PART_CHARS (a request body holds 1 MB). */
export const PART_BYTES = 480_000;
/** Files one add takes at most: the contract's MAX_UPLOADS_PER_ADD (src/shared/hostApi.ts). */
const MAX_FILES_PER_ADD = 1000;
/**
 * Bytes one add takes at most (unless one file alone is larger): the host
 * keeps unfinished uploads in memory up to 200 MB in all
 * (src/api/handlers/stagedUploads.ts), so a batch leaves room for
 * another page's.
 */
const MAX_BYTES_PER_ADD = 64 * 1024 * 1024;

export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode with one argument per byte overflows the stack on large arrays.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A random id for an upload or a job (the contract wants 8–64 of A-Z a-z 0-9 _ -). */
export function newJobId(prefix: string): string {
  return `${prefix}-${crypto.randomUUID().replaceAll('-', '')}`;
}

/** The first files of `files` that one add takes (at least one), and the rest. */
export function nextBatch<T extends { size: number }>(files: readonly T[]): [T[], T[]] {
  let bytes = 0;
  let count = 0;
  while (count < files.length && count < MAX_FILES_PER_ADD && (count === 0 || bytes + files[count]!.size <= MAX_BYTES_PER_ADD)) bytes += files[count++]!.size;
  return [files.slice(0, count), files.slice(count)];
}

/** Sends one file in parts; `onSent` reports its bytes sent so far. Returns its upload id. */
async function sendFile(file: File, onSent: (sent: number) => void): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const uploadId = newJobId('upload');
  for (let offset = 0; offset < bytes.length || offset === 0; offset += PART_BYTES) {
    await api.call('knowledge.uploadPart', { uploadId, offset, data: base64Of(bytes.subarray(offset, offset + PART_BYTES)) });
    onSent(Math.min(offset + PART_BYTES, bytes.length));
    if (bytes.length === 0) break;
  }
  return uploadId;
}

/**
 * Sends files to the host in parts, then adds them to the base as one
 * change, `jobId` (whose progress arrives as knowledge.progress events):
 * the base is written once for all of them. `onSent` reports the bytes
 * sent so far.
 */
export async function uploadToKnowledgeBase(knowledgeBaseId: string, files: readonly File[], jobId: string, onSent: (sent: number) => void) {
  const uploads: { uploadId: string; name: string }[] = [];
  let before = 0;
  for (const file of files) {
    uploads.push({ uploadId: await sendFile(file, (sent) => onSent(before + sent)), name: file.name });
    before += file.size;
  }
  return (await api.call('knowledge.addUploads', { id: knowledgeBaseId, uploads, jobId })).added;
}
