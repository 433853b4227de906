import type { Host } from '../../src/core/host.js';
import type { SamplingOutcome, SamplingRequest } from '../../src/shared/sampling.js';
import { onAsked, onResolved } from './questions.js';

/** The next sampling request of `event` (required: put to the user; updated: its completion shown), as a promise. */
export function nextSampling(host: Host, event: 'required' | 'updated', stage?: SamplingRequest['stage']): Promise<SamplingRequest> {
  return new Promise((resolve) => {
    const stop = onAsked(
      host,
      'sampling',
      (request) => {
        if (stage && request.stage !== stage) return;
        stop();
        resolve(request);
      },
      event === 'required' ? 'asked' : 'updated',
    );
  });
}

/** Every sampling outcome from now on, in order. */
export function samplingOutcomes(host: Host): SamplingOutcome[] {
  const seen: SamplingOutcome[] = [];
  onResolved(host, 'sampling', (_request, outcome) => seen.push(outcome));
  return seen;
}
