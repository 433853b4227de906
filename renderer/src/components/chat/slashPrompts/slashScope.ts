/** Whose prompts the composer lists: the conversation and its agent (the host checks what that agent may use). */
export interface SlashScope {
  agentId: string;
  conversationId: string;
}
