import type { HandlerContext, Handlers } from './types.js';

/**
 * Everything the host asks the person, listed and answered in one place (docs/rules/questions.md); each kind checks its
 * own answer (an accepted form against its fields, sampling edits against the request's bounds).
 */
export function questionHandlers({ host, emit, openExternal }: HandlerContext): Handlers<'questions.list' | 'questions.respond'> {
  return {
    'questions.list': () => ({ pending: host.questions.list() }),
    'questions.respond': ({ id, answer }) => {
      const asked = host.questions.list().find((question) => question.request.id === id);
      const answered = host.questions.respond(id, answer);
      if (!answered || asked === undefined) return { answered };
      // The desktop window's pages may open no window of their own, so on the user's "open" the desktop face opens the
      // page in the system browser for them: only the url of the question they accepted, and only once it is answered.
      if (asked.kind === 'elicitation' && asked.request.mode === 'url' && answer.kind === 'elicitation' && answer.action === 'accept') openExternal?.(asked.request.url);
      // The server's page shows "always allowed" for sampling: it re-reads on the settings event.
      if (asked.kind === 'sampling' && answer.kind === 'sampling' && answer.answer.action === 'approve' && answer.answer.always) emit({ type: 'server.settings', serverId: asked.request.serverId });
      return { answered };
    },
  };
}
