import { ProviderError } from './providerError.js';

/**
 * The fetch the SDKs stream through, with the provider's bytes bounded
 * before an SDK holds them (docs/rules/chat.md#stop-and-retry). The
 * SDKs buffer a server-sent event until its blank line and rescan the
 * whole buffer at every chunk, so one event that never ends costs memory
 * without limit and time quadratic in its length (12 MiB took 14 s) before
 * any answer limit sees a character of it. Here an event past
 * `maxEventBytes` ends the request (`too-long`), and an error body (read
 * whole by the SDK) is cut at MAX_ERROR_BODY_BYTES.
 */

/** One server-sent event at most: a Responses `response.completed` repeats the whole answer and its reasoning, so well above the answer limit. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** An error body is a message, not a document. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Within one long event, what is held before it is passed on. */
const FLUSH_BYTES = 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;

export function boundedFetch(maxEventBytes: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const body = response.ok ? response.body.pipeThrough(eventLimit(maxEventBytes)) : response.body.pipeThrough(cut(MAX_ERROR_BODY_BYTES));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * Fails the stream when the bytes since the last blank line (the end of an
 * event: LF LF, CR CR or CRLF CRLF) pass `max`. Passes the bytes on at each
 * event's end, and within a long event in pieces of at least FLUSH_BYTES:
 * the SDK rescans what it holds at every piece it gets, so a long event
 * costs it a few scans, not one per network chunk.
 */
function eventLimit(max: number): TransformStream<Uint8Array, Uint8Array> {
  let eventBytes = 0;
  let lineBytes = 0;
  let previous = 0;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  const release = (controller: TransformStreamDefaultController<Uint8Array>) => {
    if (heldBytes === 0) return;
    controller.enqueue(held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes));
    held = [];
    heldBytes = 0;
  };
  return new TransformStream({
    transform(chunk, controller) {
      let ended = false;
      for (const byte of chunk) {
        if (byte === LF && previous === CR) {
          // The LF of a CRLF: the CR already ended the line.
        } else if (byte === LF || byte === CR) {
          if (lineBytes === 0) {
            eventBytes = 0;
            ended = true;
          }
          lineBytes = 0;
        } else {
          lineBytes++;
          if (++eventBytes > max) {
            controller.error(new ProviderError({ kind: 'too-long', message: `the provider sent one stream event longer than ${max} bytes; the request was ended there` }));
            return;
          }
        }
        previous = byte;
      }
      held.push(chunk);
      heldBytes += chunk.byteLength;
      if (ended || heldBytes >= FLUSH_BYTES) release(controller);
    },
    flush: release,
  });
}

/** Passes the first `max` bytes and ends the stream there. */
function cut(max: number): TransformStream<Uint8Array, Uint8Array> {
  let passed = 0;
  return new TransformStream({
    transform(chunk, controller) {
      const room = max - passed;
      passed += chunk.byteLength;
      controller.enqueue(chunk.byteLength <= room ? chunk : chunk.subarray(0, Math.max(0, room)));
      if (passed >= max) controller.terminate();
    },
  });
}
