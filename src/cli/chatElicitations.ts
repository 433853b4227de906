import { ElicitationError } from '../core/facades/errors.js';
import type { Host } from '../core/host.js';
import { formDefaults, type ElicitationRequest } from '../shared/elicitation.js';
import { visibleInline } from '../shared/visibleText.js';
import type { Ask } from './confirmationQuestion.js';
import { askFields, askFormAction, askUrl, questionHeading } from './elicitationQuestion.js';
import type { CliIo } from './output.js';

/**
 * The terminal's answers to what servers ask during a chat
 * (docs/reference/cli.md#questions-from-servers): on a terminal each form is asked
 * field by field (Enter keeps the default), then accept, decline or cancel;
 * an answer the host refuses says why and asks those fields again. A url
 * is shown with its domain and asked y/N; the CLI never opens it. Without
 * a terminal (a pipe, --json) every question is declined, and said so.
 */
export function answerChatElicitations(host: Host, io: CliIo, ask: Ask | undefined): { stop(): void } {
  let queue = Promise.resolve();
  const elicitations = host.mcp.elicitations;
  const waiting = (id: string) => elicitations.list().some((r) => r.id === id);

  const answer = async (request: ElicitationRequest, terminal: Ask) => {
    // Answered meanwhile (expired, or the call that asked ended): nothing to ask.
    if (!waiting(request.id)) return;
    if (request.mode === 'url') return void elicitations.respond(request.id, await askUrl(terminal, request));
    io.err(`${questionHeading(request)}\n  (fields marked * are required; Enter keeps the value shown)`);
    let content = formDefaults(request.fields);
    let fields = request.fields;
    for (;;) {
      content = await askFields(terminal, fields, content);
      const action = await askFormAction(terminal);
      if (!waiting(request.id)) return io.err('  (the question was taken back before the answer: nothing was sent)');
      if (action !== 'accept') return void elicitations.respond(request.id, action);
      try {
        elicitations.respond(request.id, 'accept', content);
        return;
      } catch (error) {
        if (!(error instanceof ElicitationError)) throw error;
        for (const field of error.fields) io.err(`  ${visibleInline(field.path)} ${field.message}`);
        const wrong = new Set(error.fields.map((f) => f.path));
        fields = request.fields.filter((f) => wrong.has(f.name));
      }
    }
  };

  const stop = elicitations.on('required', (request) => {
    if (!ask) {
      io.err(`note: server ${visibleInline(request.serverName)} asked a question (${request.mode}); declined: there is no terminal to ask on`);
      return void elicitations.respond(request.id, 'decline');
    }
    queue = queue.then(() => answer(request, ask)).catch(() => void elicitations.respond(request.id, 'cancel'));
  });
  return { stop };
}
