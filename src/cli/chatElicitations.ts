import { ElicitationError } from '../core/facades/errors.js';
import { formDefaults, type ElicitationAction, type ElicitationContent } from '../shared/elicitation.js';
import { visibleInline } from '../shared/visibleText.js';
import type { KindOnTerminal, QuestionTerminal } from './questionTerminal.js';
import { askFields, askFormAction, askUrl, questionHeading } from './elicitationQuestion.js';

/**
 * What servers ask during a chat, on the terminal (docs/reference/cli.md#questions-from-servers): each form is asked
 * field by field (Enter keeps the default), then accept, decline or cancel; an answer the host refuses says why and
 * asks those fields again. A url is shown with its domain and asked y/N; the CLI never opens it. Without a terminal
 * (a pipe, --json) every question is declined, and said so.
 */
export function elicitationOnTerminal({ io, respond, waiting }: QuestionTerminal, noTerminal: boolean): KindOnTerminal<'elicitation'> {
  const answer = (id: string, action: ElicitationAction, content?: ElicitationContent) => respond(id, { kind: 'elicitation', action, ...(content ? { content } : {}) });
  return {
    asks: (change) => change.change === 'asked',
    atOnce: ({ request }) => {
      if (!noTerminal) return undefined;
      io.err(`note: server ${visibleInline(request.serverName)} asked a question (${request.mode}); declined: there is no terminal to ask on`);
      return { kind: 'elicitation', action: 'decline' };
    },
    ask: async ({ request }, terminal) => {
      // Answered meanwhile (expired, or the call that asked ended): nothing to ask.
      if (!waiting(request.id)) return;
      if (request.mode === 'url') return void answer(request.id, await askUrl(terminal, request));
      io.err(`${questionHeading(request)}\n  (fields marked * are required; Enter keeps the value shown)`);
      let content = formDefaults(request.fields);
      let fields = request.fields;
      for (;;) {
        content = await askFields(terminal, fields, content);
        const action = await askFormAction(terminal);
        if (!waiting(request.id)) return io.err('  (the question was taken back before the answer: nothing was sent)');
        if (action !== 'accept') return void answer(request.id, action);
        try {
          answer(request.id, 'accept', content);
          return;
        } catch (error) {
          if (!(error instanceof ElicitationError)) throw error;
          for (const field of error.fields) io.err(`  ${visibleInline(field.path)} ${field.message}`);
          const wrong = new Set(error.fields.map((f) => f.path));
          fields = request.fields.filter((f) => wrong.has(f.name));
        }
      }
    },
    fallback: { kind: 'elicitation', action: 'cancel' },
  };
}
