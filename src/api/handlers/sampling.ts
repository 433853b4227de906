import type { HandlerContext, Handlers } from './types.js';

/** "Always allow" for a server's sampling requests, read and revoked (the requests themselves are questions: handlers/questions.ts). */
export function samplingHandlers({ host, emit }: HandlerContext): Handlers<'sampling.alwaysAllowed' | 'sampling.revoke'> {
  return {
    'sampling.alwaysAllowed': ({ serverId }) => ({ always: host.mcp.sampling.alwaysAllowed(serverId) }),
    'sampling.revoke': ({ serverId }) => {
      host.mcp.sampling.revoke(serverId);
      emit({ type: 'server.settings', serverId });
      return { always: false as const };
    },
  };
}
