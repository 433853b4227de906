import type { ProviderFailure } from '../../shared/models.js';

export type KnowledgeErrorCode =
  | 'KB_NOT_FOUND'
  | 'KB_EXISTS'
  | 'KB_INVALID'
  | 'KB_BROKEN'
  | 'KB_MODEL_NOT_FOUND'
  | 'KB_MODEL_NO_EMBEDDINGS'
  /** The entry is a chat model (kind chat), not an embedding model. */
  | 'KB_MODEL_NOT_EMBEDDING'
  | 'KB_EMBEDDING_FAILED'
  | 'KB_FILE_UNSUPPORTED'
  | 'KB_FILE_UNREADABLE'
  | 'KB_DOCUMENT_EMPTY'
  | 'KB_DOCUMENT_TOO_LARGE'
  | 'KB_CHUNK_NOT_FOUND'
  | 'KB_FILE_NOT_FOUND'
  /** The disk under the base's store is full: the change was rolled back. */
  | 'KB_DISK_FULL'
  /** The base's server engine cannot be reached (down, wrong address, timed out): nothing was changed. */
  | 'KB_ENGINE_DOWN'
  /** The base's server engine refused us (password, rights, a missing extension). */
  | 'KB_ENGINE_REFUSED'
  /** The base's server engine answered something that is not a knowledge base (another server, tables of another shape). */
  | 'KB_ENGINE_INVALID'
  | 'KB_CANCELLED';

/** A knowledge base that cannot be found, changed or searched as asked; callers branch on `code`. */
export class KnowledgeError extends Error {
  override readonly name = 'KnowledgeError';

  constructor(
    readonly code: KnowledgeErrorCode,
    message: string,
    /** What to do about it, in words a user can follow. */
    readonly hint?: string,
    /** An embedding request that failed: what the provider's failure was, coded. */
    readonly failure?: ProviderFailure,
  ) {
    super(message);
  }
}
