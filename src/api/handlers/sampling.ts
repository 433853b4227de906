import type { HandlerContext, Handlers } from './types.js';

/** Servers' requests to sample the user's model: listed, answered (edits checked by the host), and "always allow" per server read and revoked. */
export function samplingHandlers({ host, emit }: HandlerContext): Handlers<'sampling.list' | 'sampling.respond' | 'sampling.alwaysAllowed' | 'sampling.revoke'> {
  return {
    'sampling.list': () => ({ pending: host.mcp.sampling.list() }),
    'sampling.respond': ({ id, answer }) => {
      const serverId = answer.action === 'approve' && answer.always ? host.mcp.sampling.list().find((request) => request.id === id)?.serverId : undefined;
      const answered = host.mcp.sampling.respond(id, answer);
      // The server's page shows "always allowed": it re-reads on the settings event.
      if (answered && serverId !== undefined) emit({ type: 'server.settings', serverId });
      return { answered };
    },
    'sampling.alwaysAllowed': ({ serverId }) => ({ always: host.mcp.sampling.alwaysAllowed(serverId) }),
    'sampling.revoke': ({ serverId }) => {
      host.mcp.sampling.revoke(serverId);
      emit({ type: 'server.settings', serverId });
      return { always: false as const };
    },
  };
}
