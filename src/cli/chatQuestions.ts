import type { Host } from '../core/host.js';
import type { QuestionKind } from '../shared/question.js';
import { askConfirmation, type Ask } from './confirmationQuestion.js';
import { elicitationOnTerminal } from './chatElicitations.js';
import { samplingOnTerminal } from './chatSampling.js';
import type { CliIo } from './output.js';
import type { KindOnTerminal, QuestionTerminal } from './questionTerminal.js';

/**
 * The terminal's answers to everything a chat (or a `tools call`) asks the person (docs/reference/cli.md#exit-codes-and-output, #questions-from-servers): one dispatcher over the
 * host's questions, one question at a time on the terminal, each kind asked its own way. A tool's confirmation: `--yes`
 * approves; on a terminal it is asked y/N (in a chat, or "a" to always allow it for this agent) with every argument shown;
 * without a terminal it is declined and the model told so. A server's question or sampling request without a terminal
 * (a pipe, --json) is declined at once, and said so.
 */
export function answerQuestions(host: Host, io: CliIo, options: { yes: boolean; always?: boolean; ask?: Ask; serverAsk?: Ask }): { declinedWithoutTerminal(): number; stop(): void } {
  let declined = 0;
  let queue = Promise.resolve();
  const terminal: QuestionTerminal = {
    io,
    respond: (id, answer) => host.questions.respond(id, answer),
    waiting: (id) => host.questions.list().find((question) => question.request.id === id),
  };
  const confirmation: KindOnTerminal<'toolConfirmation'> = {
    asks: (change) => change.change === 'asked',
    atOnce: () => {
      if (options.yes) return { kind: 'toolConfirmation', approved: true };
      if (options.ask) return undefined;
      declined++;
      return { kind: 'toolConfirmation', approved: false };
    },
    ask: async ({ request }, ask) => {
      // Answered meanwhile (a Stop declined it, or it expired): nothing to ask.
      if (!terminal.waiting(request.id)) return;
      const reply = await askConfirmation(ask, request, { always: options.always ?? true });
      terminal.respond(request.id, { kind: 'toolConfirmation', approved: reply !== 'no', scope: reply === 'always' ? 'always' : 'once' });
    },
    fallback: { kind: 'toolConfirmation', approved: false },
  };
  const kinds: { [K in QuestionKind]: KindOnTerminal<K> & { terminal: Ask | undefined } } = {
    toolConfirmation: { ...confirmation, terminal: options.ask },
    elicitation: { ...elicitationOnTerminal(terminal, options.serverAsk === undefined), terminal: options.serverAsk },
    sampling: { ...samplingOnTerminal(terminal, options.serverAsk === undefined), terminal: options.serverAsk },
  };
  const stop = host.questions.on((change) => {
    if (change.change === 'resolved') return;
    const kind = kinds[change.question.kind] as unknown as KindOnTerminal<QuestionKind> & { terminal: Ask | undefined };
    if (!kind.asks(change)) return;
    const { question } = change;
    const now = kind.atOnce(question);
    if (now) return void terminal.respond(question.request.id, now);
    const ask = kind.terminal!;
    queue = queue.then(() => kind.ask(question, ask)).catch(() => void terminal.respond(question.request.id, kind.fallback));
  });
  return { declinedWithoutTerminal: () => declined, stop };
}
