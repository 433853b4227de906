export type MemoryErrorCode =
  /** A memory longer than MAX_MEMORY_CHARS. */
  | 'MEMORY_TOO_LARGE'
  | 'MEMORY_EMPTY'
  /** The space holds MAX_MEMORIES already. */
  | 'MEMORY_FULL'
  | 'MEMORY_NOT_FOUND'
  | 'MEMORY_AGENT_NOT_FOUND'
  /** A memory file that cannot be read as one (not a regular file, too large, not JSON, not valid): left as it is. */
  | 'MEMORY_BROKEN';

/** A memory that cannot be stored, found or read as asked; callers branch on `code`. */
export class MemoryError extends Error {
  override readonly name = 'MemoryError';

  constructor(
    readonly code: MemoryErrorCode,
    message: string,
    /** What to do about it, in words a user (or a model) can follow. */
    readonly hint?: string,
  ) {
    super(message);
  }
}
