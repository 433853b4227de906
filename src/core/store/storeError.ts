/** Stable codes for everything the records store throws; callers branch on `code`, never on message text. */
export type StoreErrorCode = 'RECORD_INVALID' | 'STORE_READ_ONLY' | 'STORE_CLOSED' | 'TRANSACTION_ASYNC' | 'TRANSACTION_OPEN' | 'DB_READ_FAILED' | 'DB_WRITE_FAILED' | 'DB_LOCK_FAILED' | 'DB_TOO_NEW';

export class StoreError extends Error {
  override readonly name = 'StoreError';

  constructor(
    readonly code: StoreErrorCode,
    /** The DB file the error is about. */
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The operating system's code behind the error (`ENOSPC`, `EACCES`…), if there is one. */
  get systemCode(): string | undefined {
    return systemCodeOf(this.cause);
  }
}

export function systemCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
