import { cutBody, limitBody } from '../../net/boundedBody.js';
import { limitEvents } from '../../net/boundedEvents.js';
import { classifyProviderError, ProviderError, type ErrorContext, type KeptErrorBody } from './providerError.js';

/**
 * The fetch the SDKs read a provider through, with its bytes bounded
 * before an SDK holds them (docs/rules/chat.md#stop-and-retry): a stream's
 * events each up to `maxEventBytes` (limitEvents: an event past it ends the
 * request, `too-long`), a JSON answer (embeddings) up to `maxBodyBytes`,
 * and an error body read up to MAX_ERROR_BODY_BYTES. The error body is
 * kept (`keep`) as it came: the SDKs drop one that is not the shape they
 * expect (Gemini's JSON array becomes "400 status code (no body)").
 */

/** One server-sent event at most: a Responses `response.completed` repeats the whole answer and its reasoning, so well above the answer limit. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** An error body is a message, not a document. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

type Bound = ({ maxEventBytes: number } | { maxBodyBytes: number }) & {
  keep?(body: KeptErrorBody): void;
  /** How a failure found here is classified (the key masked in it). */
  context?: ErrorContext;
};

export function boundedFetch(bound: Bound): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const contentType = response.headers.get('content-type') ?? '';
    if (!response.ok) return keptError(response, contentType, bound.keep);
    if ('maxBodyBytes' in bound) return limitBody(response, { maxBytes: bound.maxBodyBytes, tooLarge: (refusal) => new ProviderError({ kind: 'too-long', message: refusal.message }) });
    // A stream was asked for: a page or a JSON document in its place will not become one, however often it is asked again.
    if (/text\/html|application\/json/i.test(contentType)) throw await notAStream(response, contentType, bound);
    const max = bound.maxEventBytes;
    return limitEvents(response, max, () => new ProviderError({ kind: 'too-long', message: `the provider sent one stream event longer than ${max} bytes; the request was ended there` }));
  };
}

/** The error response with its body read (up to the bound) and kept; the SDK gets the same text. */
async function keptError(response: Response, contentType: string, keep: Bound['keep']): Promise<Response> {
  const text = await cutBody(response, MAX_ERROR_BODY_BYTES).text();
  keep?.({ status: response.status, contentType, text });
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}

/**
 * A 2xx whose body is an HTML page or a JSON document where an event stream
 * was asked for: the error it names (a gateway's JSON error in a 200), else
 * a rejection describing the body, never a stream "cut short" to retry.
 */
async function notAStream(response: Response, contentType: string, bound: Bound): Promise<ProviderError> {
  const text = await cutBody(response, MAX_ERROR_BODY_BYTES).text();
  const context: ErrorContext = { toolNames: [], ...bound.context };
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed !== null && typeof parsed === 'object' && 'error' in parsed)
      return classifyProviderError(Object.assign(new Error('an error in a 200 answer'), { error: parsed, headers: response.headers }), context);
  } catch {
    // Not JSON: described as what it is.
  }
  const kept = { status: response.status, contentType, text };
  bound.keep?.(kept);
  return classifyProviderError(Object.assign(new Error(`HTTP ${response.status} without an event stream`), { status: response.status, headers: response.headers }), {
    ...context,
    errorBody: () => kept,
  });
}
