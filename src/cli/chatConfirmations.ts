import type { Host } from '../core/host.js';
import type { ToolConfirmationRequest } from '../shared/confirmation.js';
import { askConfirmation, type Ask } from './confirmationQuestion.js';

/**
 * The terminal's answers to a chat's confirmations (docs/reference/cli.md#exit-codes-and-output):
 * `--yes` approves; on a terminal each is asked y/N (or "a" to
 * always allow it for this agent) with every argument shown
 * (confirmationQuestion.ts), one after the other when several arrive
 * together; without a terminal they are declined, and the model is told
 * the user declined.
 */
export function answerChatConfirmations(host: Host, options: { yes: boolean; ask?: Ask }): { declinedWithoutTerminal(): number; stop(): void } {
  let declined = 0;
  let queue = Promise.resolve();
  const answer = async (request: ToolConfirmationRequest) => {
    // Answered meanwhile (a Stop declined it, or it expired): nothing to ask.
    if (!host.confirmations.listPending().some((p) => p.id === request.id)) return;
    const reply = await askConfirmation(options.ask!, request, { always: true });
    host.confirmations.respond(request.id, reply !== 'no', reply === 'always' ? 'always' : 'once');
  };
  const stop = host.confirmations.on('required', (request) => {
    if (options.yes) return void host.confirmations.respond(request.id, true);
    if (!options.ask) {
      declined++;
      return void host.confirmations.respond(request.id, false);
    }
    queue = queue.then(() => answer(request)).catch(() => void host.confirmations.respond(request.id, false));
  });
  return { declinedWithoutTerminal: () => declined, stop };
}
