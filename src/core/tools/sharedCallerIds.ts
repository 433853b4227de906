import type { Caller } from './toolSource.js';

/** The one value of `pick` all callers share, else undefined. */
function shared<T>(callers: readonly Caller[], pick: (caller: Caller) => T | undefined): T | undefined {
  const first = callers[0] && pick(callers[0]);
  return first !== undefined && callers.every((caller) => pick(caller) === first) ? first : undefined;
}

/**
 * Whose question a server's request is (an elicitation, a sampling request):
 * the conversation and the agent, each only when every caller of the server
 * instance shares it. A request made while two conversations use one
 * instance names neither, so no face shows it in the wrong chat.
 */
export function sharedCallerIds(callers: readonly Caller[]): { conversationId?: string; agentId?: string } {
  const conversationId = shared(callers, (c) => c.conversationId);
  const agentId = shared(callers, (c) => c.agentId);
  return { ...(conversationId === undefined ? {} : { conversationId }), ...(agentId === undefined ? {} : { agentId }) };
}
