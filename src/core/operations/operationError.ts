/** Why an operation refused: the faces branch on the code (the API passes it on, the CLI exits 1 with the message and fix). */
export type OperationErrorCode = 'NOT_FOUND' | 'NOT_ALLOWED';

export class OperationError extends Error {
  constructor(
    readonly code: OperationErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
