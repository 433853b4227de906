import { MAX_FILE_BYTES } from '../../core/facades/knowledge.js';
import { ApiFailure } from '../apiErrors.js';

/** An upload nobody finished is dropped after this long. */
const STALE_MS = 10 * 60_000;
/** All unfinished uploads together: a page cannot fill the host's memory. */
const MAX_STAGED_BYTES = 4 * MAX_FILE_BYTES;

interface Staged {
  parts: Buffer[];
  size: number;
  touched: number;
}

/**
 * Files a page uploads in parts (a request body holds at most 1 MB), kept
 * in memory until added. Parts come in order: each names the offset it
 * starts at, so a lost or repeated part is an error rather than a corrupt
 * file.
 */
export class KnowledgeUploads {
  private readonly staged = new Map<string, Staged>();

  constructor(private readonly now: () => number = Date.now) {}

  append(uploadId: string, offset: number, base64: string): number {
    this.dropStale();
    const upload = this.staged.get(uploadId) ?? { parts: [], size: 0, touched: this.now() };
    if (offset !== upload.size) throw new ApiFailure('INVALID', `upload ${uploadId} has ${upload.size} bytes, not ${offset}`, 'send its parts in order, from the start');
    const bytes = Buffer.from(base64, 'base64');
    if (upload.size + bytes.length > MAX_FILE_BYTES) {
      this.staged.delete(uploadId);
      throw new ApiFailure('INVALID', `a file for a knowledge base holds at most ${MAX_FILE_BYTES} bytes`, 'split it into smaller files');
    }
    if (this.total() + bytes.length > MAX_STAGED_BYTES) throw new ApiFailure('FAILED', 'too many unfinished uploads at once', 'wait for the other uploads to finish');
    upload.parts.push(bytes);
    upload.size += bytes.length;
    upload.touched = this.now();
    this.staged.set(uploadId, upload);
    return upload.size;
  }

  /** The whole files, once, after checking that each is here (a missing one takes none); the uploads are gone afterwards. */
  takeAll(uploadIds: readonly string[]): Buffer[] {
    this.dropStale();
    const missing = uploadIds.filter((id) => !this.staged.has(id));
    if (missing.length) throw new ApiFailure('NOT_FOUND', `no upload ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}`, 'upload the files again');
    if (new Set(uploadIds).size !== uploadIds.length) throw new ApiFailure('INVALID', 'an upload is named twice', 'name each upload once');
    return uploadIds.map((id) => this.take(id));
  }

  /** The whole file, once; the upload is gone afterwards. */
  take(uploadId: string): Buffer {
    this.dropStale();
    const upload = this.staged.get(uploadId);
    if (!upload) throw new ApiFailure('NOT_FOUND', `no upload ${uploadId}`, 'upload the file again');
    this.staged.delete(uploadId);
    return Buffer.concat(upload.parts, upload.size);
  }

  private total(): number {
    let sum = 0;
    for (const upload of this.staged.values()) sum += upload.size;
    return sum;
  }

  private dropStale(): void {
    const now = this.now();
    for (const [id, upload] of this.staged) if (now - upload.touched > STALE_MS) this.staged.delete(id);
  }
}
