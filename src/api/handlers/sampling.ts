import type { HandlerContext, Handlers } from './types.js';

/** Servers' requests to sample the user's model: listed, answered (edits checked by the host), and "always allow" per server read and revoked. */
export function samplingHandlers({ host }: HandlerContext): Handlers<'sampling.list' | 'sampling.respond' | 'sampling.alwaysAllowed' | 'sampling.revoke'> {
  return {
    'sampling.list': () => ({ pending: host.mcp.sampling.list() }),
    'sampling.respond': ({ id, answer }) => ({ answered: host.mcp.sampling.respond(id, answer) }),
    'sampling.alwaysAllowed': ({ serverId }) => ({ always: host.mcp.sampling.alwaysAllowed(serverId) }),
    'sampling.revoke': ({ serverId }) => {
      host.mcp.sampling.revoke(serverId);
      return { always: false as const };
    },
  };
}
