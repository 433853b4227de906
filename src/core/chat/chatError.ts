export type ChatErrorCode =
  | 'CONVERSATION_NOT_FOUND'
  | 'CONVERSATION_BUSY'
  | 'MESSAGE_NOT_FOUND'
  /** A message with neither text nor an attachment. */
  | 'MESSAGE_EMPTY'
  /** An MCP prompt that gives no user message to send. */
  | 'PROMPT_EMPTY'
  | 'NOTHING_TO_REGENERATE'
  | 'NOTHING_TO_RESUME'
  /** Continue needs an answer the model cut at its token limit. */
  | 'NOTHING_TO_CONTINUE'
  /** A conversation was to be switched to a model entry that does not exist, or is not a chat model. */
  | 'MODEL_NOT_FOUND'
  | 'MODEL_NOT_CHAT'
  | 'AGENT_NOT_FOUND'
  /** A prompt was to be sent into a conversation as an agent that is not the conversation's. */
  | 'AGENT_MISMATCH'
  | 'AGENT_NO_MODEL'
  | 'ALWAYS_ALLOW_NOT_FOUND'
  /** A page asked for an agent or a conversation that is not its app's. */
  | 'NOT_THE_APPS'
  /** A page's agent needs a model and none is configured. */
  | 'NO_MODEL'
  /** An attached file (docs/using/chat.md#attachments): over the size limit, of a type the host cannot read, unreadable, with no text, or no longer waiting. */
  | 'ATTACHMENT_TOO_LARGE'
  | 'ATTACHMENT_UNSUPPORTED'
  | 'ATTACHMENT_UNREADABLE'
  | 'ATTACHMENT_EMPTY'
  | 'ATTACHMENT_NOT_FOUND'
  | 'ATTACHMENTS_TOO_MANY'
  /** A message an app posted (docs/rules/app-messages.md): too long, or its state too large; or the app posts too often. */
  | 'APP_MESSAGE_TOO_LARGE'
  | 'APP_MESSAGE_RATE_LIMITED'
  /** An app's context for the model (docs/rules/app-messages.md#context-from-an-app): not JSON, or too many apps have context waiting. */
  | 'APP_CONTEXT_INVALID'
  | 'APP_CONTEXT_LIMIT';

/** A chat operation that cannot run as asked; callers branch on `code`, and `hint` says what to do. */
export class ChatError extends Error {
  override readonly name = 'ChatError';

  constructor(
    readonly code: ChatErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
