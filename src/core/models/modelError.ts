export type ModelErrorCode = 'MODEL_NOT_FOUND' | 'MODEL_EXISTS' | 'MODEL_INVALID' | 'MODEL_KEY_MISSING';

/** A model entry that cannot be found, saved or used as it is; callers branch on `code`. */
export class ModelError extends Error {
  override readonly name = 'ModelError';

  constructor(
    readonly code: ModelErrorCode,
    message: string,
    readonly hint?: string,
    /** For MODEL_INVALID: the fields at fault (`baseUrl`, `key.name`, `apiKey`…). */
    readonly fields: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}
