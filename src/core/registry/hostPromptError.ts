/** What the host's own prompts refuse, by code. */
export type HostPromptErrorCode = 'PROMPT_INVALID' | 'PROMPT_EXISTS' | 'PROMPT_NOT_FOUND' | 'PROMPT_NAME_TAKEN';

export class HostPromptError extends Error {
  override readonly name = 'HostPromptError';

  constructor(
    readonly code: HostPromptErrorCode,
    message: string,
    readonly hint?: string,
    readonly fields: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}
