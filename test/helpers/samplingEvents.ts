import type { Host } from '../../src/core/host.js';
import type { SamplingOutcome, SamplingRequest } from '../../src/shared/sampling.js';

/** The next sampling request of `event` (required: put to the user; updated: its completion shown), as a promise. */
export function nextSampling(host: Host, event: 'required' | 'updated', stage?: SamplingRequest['stage']): Promise<SamplingRequest> {
  return new Promise((resolve) => {
    const stop = host.mcp.sampling.on(event, (request) => {
      if (stage && request.stage !== stage) return;
      stop();
      resolve(request);
    });
  });
}

/** Every sampling outcome from now on, in order. */
export function samplingOutcomes(host: Host): SamplingOutcome[] {
  const seen: SamplingOutcome[] = [];
  host.mcp.sampling.on('resolved', (_request, outcome) => seen.push(outcome));
  return seen;
}
