/** What the agent store refuses, by code (a face tells them apart without loading the store). */
export type AgentErrorCode = 'AGENT_NOT_FOUND' | 'AGENT_EXISTS' | 'AGENT_INVALID';

export class AgentError extends Error {
  constructor(
    readonly code: AgentErrorCode,
    message: string,
    /** Field-level problems for AGENT_INVALID: JSON path → message. */
    readonly fields: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}
