import type { Host } from '../../src/core/host.js';
import type { ElicitationOutcome, ElicitationRequest } from '../../src/shared/elicitation.js';
import { onAsked, onResolved } from './questions.js';

/** The next question put to the user, as a promise. */
export function nextQuestion(host: Host): Promise<ElicitationRequest> {
  return new Promise((resolve) => {
    const stop = onAsked(host, 'elicitation', (request) => {
      stop();
      resolve(request);
    });
  });
}

/** How each question ends from now on, in order. */
export function outcomes(host: Host): ElicitationOutcome[] {
  const seen: ElicitationOutcome[] = [];
  onResolved(host, 'elicitation', (_request, outcome) => seen.push(outcome));
  return seen;
}
