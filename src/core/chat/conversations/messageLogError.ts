/** Why a conversation's message log cannot be read or written, by code. */
export type MessageLogErrorCode = 'CONVERSATION_FOLDER_UNSAFE' | 'CONVERSATION_LOG_UNREADABLE';

export class MessageLogError extends Error {
  constructor(
    readonly code: MessageLogErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
