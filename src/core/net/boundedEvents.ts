import { rebody } from './boundedBody.js';

/**
 * A server-sent event stream with each event bounded (docs/rules/chat.md#stop-and-retry).
 * An SDK buffers an event until its blank line and rescans the whole
 * buffer at every chunk, so one event that never ends costs memory without
 * limit and time quadratic in its length (12 MiB took 14 s) before any
 * answer limit sees a character of it.
 */

/** Within one long event, what is held before it is passed on. */
const FLUSH_BYTES = 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;

export interface EventLimitOptions {
  /**
   * Instead of failing the body, end the long event so that a reader skips
   * it (its type becomes DROPPED_EVENT: readers act on `message` events
   * only), then send these events (whole, each ending in a blank line) and
   * end the body: a protocol reader gets an answer it can act on (an MCP
   * error response for the request) instead of a broken stream.
   */
  endWith?: () => string;
}

/** The type a cut event is given: no reader acts on it. */
export const DROPPED_EVENT = 'chatos-dropped';

/**
 * The response with its body failing, and its connection closed, when the
 * bytes since the last blank line (the end of an event: LF LF, CR CR or
 * CRLF CRLF) pass `maxEventBytes`. The bytes are passed on at each event's
 * end, and within a long event in pieces of at least FLUSH_BYTES: the SDK
 * rescans what it holds at every piece it gets, so a long event costs it a
 * few scans, not one per network chunk.
 */
export function limitEvents(response: Response, maxEventBytes: number, tooLong: () => Error, options: EventLimitOptions = {}): Response {
  if (!response.body) return response;
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
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let ended = false;
      for (let i = 0; i < chunk.byteLength; i++) {
        const byte = chunk[i]!;
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
          if (++eventBytes > maxEventBytes) {
            if (!options.endWith) return controller.error(tooLong());
            // What came before the cut is passed on (earlier events whole, this one's start), then this event is ended as a dropped one.
            held.push(chunk.subarray(0, i));
            heldBytes += i;
            release(controller);
            controller.enqueue(new TextEncoder().encode(`\nevent: ${DROPPED_EVENT}\n\n${options.endWith()}`));
            return controller.terminate();
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
  return rebody(response, response.body.pipeThrough(limit));
}
