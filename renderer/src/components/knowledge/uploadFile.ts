import { api } from '../../api/client';

/** Bytes per part: as base64 it stays under the contract's KNOWLEDGE_UPLOAD_PART_CHARS (a request body holds 1 MB). */
const PART_BYTES = 480_000;

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode with one argument per byte overflows the stack on large arrays.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A random id for an upload or a job (the contract wants 8–64 of A-Z a-z 0-9 _ -). */
export function newJobId(prefix: string): string {
  return `${prefix}-${crypto.randomUUID().replaceAll('-', '')}`;
}

/**
 * Sends a file to the host in parts, then adds it to the base as `jobId`
 * (whose progress arrives as knowledge.progress events). `onSent` reports
 * the bytes sent so far.
 */
export async function uploadToKnowledgeBase(knowledgeBaseId: string, file: File, jobId: string, onSent: (sent: number) => void) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const uploadId = newJobId('upload');
  for (let offset = 0; offset < bytes.length || offset === 0; offset += PART_BYTES) {
    await api.call('knowledge.uploadPart', { uploadId, offset, data: base64Of(bytes.subarray(offset, offset + PART_BYTES)) });
    onSent(Math.min(offset + PART_BYTES, bytes.length));
    if (bytes.length === 0) break;
  }
  return api.call('knowledge.addUpload', { id: knowledgeBaseId, uploadId, name: file.name, jobId });
}
