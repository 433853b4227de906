import type { HandlerContext, Handlers } from './types.js';

/** The questions MCP servers put to the user: listed, and answered (an accepted form checked by the host before the server gets it). */
export function elicitationHandlers({ host, openExternal }: HandlerContext): Handlers<'elicitations.list' | 'elicitations.respond'> {
  return {
    'elicitations.list': () => ({ pending: host.mcp.elicitations.list() }),
    'elicitations.respond': ({ id, action, content }) => {
      // The desktop window's pages may open no window of their own, so on the user's "open" the desktop face opens the
      // page in the system browser for them: only the url of the question they accepted, and only once it is answered.
      const asked = action === 'accept' && openExternal ? host.mcp.elicitations.list().find((request) => request.id === id) : undefined;
      const answered = host.mcp.elicitations.respond(id, action, content);
      if (answered && asked?.mode === 'url') openExternal?.(asked.url);
      return { answered };
    },
  };
}
