import type { HandlerContext, Handlers } from './types.js';

/** The questions MCP servers put to the user: listed, and answered (an accepted form checked by the host before the server gets it). */
export function elicitationHandlers({ host }: HandlerContext): Handlers<'elicitations.list' | 'elicitations.respond'> {
  return {
    'elicitations.list': () => ({ pending: host.mcp.elicitations.list() }),
    'elicitations.respond': ({ id, action, content }) => ({ answered: host.mcp.elicitations.respond(id, action, content) }),
  };
}
