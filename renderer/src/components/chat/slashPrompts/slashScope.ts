/** Whose prompts the composer lists: the conversation and its agent (the host checks what that agent may use). */
export interface SlashScope {
  agentId: string;
  /** None: a chat not started yet; sending a prompt starts it. */
  conversationId?: string;
}
