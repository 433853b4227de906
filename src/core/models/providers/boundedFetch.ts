import { cutBody, limitBody } from '../../net/boundedBody.js';
import { limitEvents } from '../../net/boundedEvents.js';
import { ProviderError } from './providerError.js';

/**
 * The fetch the SDKs read a provider through, with its bytes bounded
 * before an SDK holds them (docs/rules/chat.md#stop-and-retry): a stream's
 * events each up to `maxEventBytes` (limitEvents: an event past it ends the
 * request, `too-long`), a JSON answer (embeddings) up to `maxBodyBytes`,
 * and an error body (read whole by the SDK) cut at MAX_ERROR_BODY_BYTES.
 */

/** One server-sent event at most: a Responses `response.completed` repeats the whole answer and its reasoning, so well above the answer limit. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** An error body is a message, not a document. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

type Bound = { maxEventBytes: number } | { maxBodyBytes: number };

export function boundedFetch(bound: Bound): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.ok) return cutBody(response, MAX_ERROR_BODY_BYTES);
    if ('maxBodyBytes' in bound) return limitBody(response, { maxBytes: bound.maxBodyBytes, tooLarge: (refusal) => new ProviderError({ kind: 'too-long', message: refusal.message }) });
    const max = bound.maxEventBytes;
    return limitEvents(response, max, () => new ProviderError({ kind: 'too-long', message: `the provider sent one stream event longer than ${max} bytes; the request was ended there` }));
  };
}
