/**
 * The one reader for an HTTP body from outside (a provider, an embedding
 * server, an authorization server): a server that is hostile or broken may
 * answer with a body that never ends, or a small gzip that unpacks to
 * gigabytes. Every byte fetch hands over (after decoding) is counted as it
 * streams; past the limit the stream is cancelled, which closes the
 * connection: nothing past the limit is held, and no more is read than the
 * socket had buffered (docs/rules/security.md#sizes-and-depths).
 *
 * The platform's web streams do it: no library adds anything a counting
 * TransformStream does not.
 */

/** A body past its limit. Names the server's origin only: a path or a query may hold a key. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';

  constructor(
    readonly origin: string,
    readonly maxBytes: number,
  ) {
    super(`the answer from ${origin} is larger than ${sizeText(maxBytes)}; it was not read further (check that the address is the server you meant)`);
  }
}

export interface BodyLimit {
  maxBytes: number;
  /** The error a caller throws instead, in its own words; BodyTooLargeError otherwise. */
  tooLarge?: (refusal: BodyTooLargeError) => Error;
}

const KiB = 1024;
const MiB = 1024 * KiB;
/** A byte count as a person reads it (bytes, KiB or MiB). */
export const sizeText = (bytes: number) => (bytes >= MiB ? `${+(bytes / MiB).toFixed(1)} MiB` : bytes >= KiB ? `${+(bytes / KiB).toFixed(1)} KiB` : `${bytes} bytes`);

/** Where a response came from, for an error: its origin, never its path or query. */
function originOf(response: Response): string {
  return URL.canParse(response.url) ? new URL(response.url).origin : 'the server';
}

/** A declared length past the limit fails before a byte is read (a declared length counts encoded bytes, so only when none is declared). */
function declaredTooLarge(response: Response, max: number): boolean {
  const encoding = response.headers.get('content-encoding');
  if (encoding && encoding !== 'identity') return false;
  const declared = Number(response.headers.get('content-length') ?? NaN);
  return Number.isFinite(declared) && declared > max;
}

/**
 * The response with its body bounded as it streams, for a reader that takes
 * the body itself (an SDK): past the limit the body fails with the limit's
 * error, and the connection is closed.
 */
export function limitBody(response: Response, limit: BodyLimit): Response {
  if (!response.body) return response;
  const refusal = () => {
    const error = new BodyTooLargeError(originOf(response), limit.maxBytes);
    return limit.tooLarge ? limit.tooLarge(error) : error;
  };
  let read = 0;
  const counted = new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      if (declaredTooLarge(response, limit.maxBytes)) controller.error(refusal());
    },
    transform(chunk, controller) {
      read += chunk.byteLength;
      if (read > limit.maxBytes) controller.error(refusal());
      else controller.enqueue(chunk);
    },
  });
  return rebody(response, response.body.pipeThrough(counted));
}

/** A body's bytes, read up to the limit; past it, the connection is closed and the limit's error thrown. */
export async function readBodyBytes(response: Response, limit: BodyLimit): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await limitBody(response, limit).arrayBuffer());
}

/** A body as UTF-8 text, read up to the limit (see readBodyBytes). */
export async function readBodyText(response: Response, limit: BodyLimit): Promise<string> {
  return limitBody(response, limit).text();
}

/** The response with its body cut after `maxBytes` (an error body: a message, not a document); the rest is not read. */
export function cutBody(response: Response, maxBytes: number): Response {
  if (!response.body) return response;
  let passed = 0;
  const cut = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const room = maxBytes - passed;
      passed += chunk.byteLength;
      controller.enqueue(chunk.byteLength <= room ? chunk : chunk.subarray(0, Math.max(0, room)));
      if (passed >= maxBytes) controller.terminate();
    },
  });
  return rebody(response, response.body.pipeThrough(cut));
}

/** The same status and headers around another body. */
export function rebody(response: Response, body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
