import { ApiFailure } from '../apiErrors.js';

/** An upload nobody finished is dropped after this long. */
const STALE_MS = 10 * 60_000;

interface Staged {
  parts: Buffer[];
  size: number;
  touched: number;
}

/** How large one file may be, and what a file past it is told (`declared`: the size the page said the whole file has, when it is the reason; `name`: the file's, when the page said it). */
export interface UploadLimit {
  maxFileBytes: number;
  tooLarge(declared?: number, name?: string): Error;
}

/**
 * Files a page uploads in parts (a request body holds at most 1 MB), kept
 * in memory until added. Parts come in order: each names the offset it
 * starts at, so a lost or repeated part is an error rather than a corrupt
 * file. A page that says the whole file's size up front learns at its
 * first part that it is too large, before the rest is read.
 */
export class StagedUploads {
  private readonly staged = new Map<string, Staged>();

  constructor(
    private readonly limit: UploadLimit,
    private readonly now: () => number = Date.now,
  ) {}

  append(uploadId: string, offset: number, base64: string, declaredSize?: number, name?: string): number {
    this.dropStale();
    if (declaredSize !== undefined && declaredSize > this.limit.maxFileBytes) {
      this.staged.delete(uploadId);
      throw this.limit.tooLarge(declaredSize, name);
    }
    const upload = this.staged.get(uploadId) ?? { parts: [], size: 0, touched: this.now() };
    if (offset !== upload.size) throw new ApiFailure('INVALID', `upload ${uploadId} has ${upload.size} bytes, not ${offset}`, 'send its parts in order, from the start');
    const bytes = Buffer.from(base64, 'base64');
    if (upload.size + bytes.length > this.limit.maxFileBytes) {
      this.staged.delete(uploadId);
      throw this.limit.tooLarge(undefined, name);
    }
    // All unfinished uploads together: a page cannot fill the host's memory.
    if (this.total() + bytes.length > 4 * this.limit.maxFileBytes) throw new ApiFailure('FAILED', 'too many unfinished uploads at once', 'wait for the other uploads to finish');
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

  /** The whole file, leaving the upload in place (a preview before the step that takes it). */
  peek(uploadId: string): Buffer {
    this.dropStale();
    const upload = this.staged.get(uploadId);
    if (!upload) throw new ApiFailure('NOT_FOUND', `no upload ${uploadId}`, 'upload the file again');
    upload.touched = this.now();
    return Buffer.concat(upload.parts, upload.size);
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
