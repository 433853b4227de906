/** What a change of the remembered plugin roots refuses, by code. */
export type RootsErrorCode = 'NOT_A_FOLDER' | 'IS_A_PLUGIN' | 'ALWAYS_SCANNED' | 'NOT_REMEMBERED' | 'FILE_INVALID' | 'SAVE_FAILED';

export class RootsError extends Error {
  constructor(
    readonly code: RootsErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
