import { classifyProviderError, ProviderError, type ErrorContext } from './providerError.js';
import type { StreamEvent } from './streamEvent.js';

/** Turns one vendor's stream chunks into StreamEvents. */
export interface StreamTranslator<Chunk> {
  push(chunk: Chunk): StreamEvent[];
  /** After the last chunk: what is still open (tool calls, usage, done). Throws a ProviderError when the model had not finished. */
  end(): StreamEvent[];
  /**
   * Characters of tool-call names and arguments taken in so far (held until
   * a call is complete): with the text and refusal the stream yields, what
   * the answer limit counts.
   */
  toolInputChars(): number;
}

/** What an SDK call gets: the signal that aborts it, how long it may wait for the response's headers, and where to say what the user should know. */
export interface WireOptions {
  signal: AbortSignal;
  timeout: number;
  /** Becomes a `notice` event of the stream (e.g. what an SDK would have printed to the console). */
  notice?(text: string): void;
}

export interface GuardedStreamOptions<Chunk> {
  /** Starts the request with these options. */
  open(options: WireOptions): Promise<AsyncIterable<Chunk>>;
  translator: StreamTranslator<Chunk>;
  /** The caller's Stop. */
  signal?: AbortSignal;
  /** No answer, or no chunk, for this long is a `network`/`timeout` failure. */
  idleTimeoutMs: number;
  /** An answer longer than this is stopped there (`too-long`): its text is yielded up to the limit, its tool calls not at all. */
  maxAnswerChars: number;
  context: ErrorContext;
}

/** A stream that was not finished by the model (cut mid-way, or ended with no finish). */
export const incomplete = () => new ProviderError({ kind: 'network', network: 'incomplete', message: 'the stream ended before the model finished' });

const tooLong = (maxChars: number) => new ProviderError({ kind: 'too-long', message: `the answer passed ${maxChars} characters (text and tool-call arguments) and was cut there` });

/** `text` cut to at most `room` characters, never between the halves of a surrogate pair. */
function cutText(text: string, room: number): string {
  if (text.length <= room) return text;
  const high = room > 0 && text.charCodeAt(room - 1) >= 0xd800 && text.charCodeAt(room - 1) <= 0xdbff;
  return text.slice(0, high ? room - 1 : room);
}

/**
 * What every client shares: the caller's signal and an idle deadline abort
 * the request, every failure leaves as a coded ProviderError with the key
 * masked, and a consumer that stops reading early closes the connection.
 * The deadline pauses while the consumer handles an event, so a slow
 * consumer is never taken for a silent provider. An answer past
 * `maxAnswerChars` ends the request as soon as the chunk that passed it is
 * read, so neither this process nor the SDK holds more than about that much
 * of it, however long the provider would go on.
 */
export async function* guardedStream<Chunk>(options: GuardedStreamOptions<Chunk>): AsyncGenerator<StreamEvent> {
  const { signal, idleTimeoutMs, translator, context, maxAnswerChars } = options;
  let textChars = 0;
  /**
   * Text and refusal taken in so far (what the translator holds of tool
   * calls is its own count). Reasoning is not counted: past
   * MAX_REASONING_CHARS it is dropped as it comes (streamedAnswer.ts), so
   * it holds no more memory, and the answer after a long thought is kept.
   */
  let streamedChars = 0;
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, idleTimeoutMs);
  };
  const onAbort = () => controller.abort(signal?.reason);
  const stopped = (): ProviderError | undefined => {
    if (signal?.aborted) return new ProviderError({ kind: 'aborted', message: 'the request was stopped' });
    if (timedOut) return new ProviderError({ kind: 'network', network: 'timeout', message: `the provider sent nothing for ${Math.round(idleTimeoutMs / 1000)} s` });
    return undefined;
  };
  const fail = (error: unknown) => stopped() ?? classifyProviderError(error, context);

  if (signal?.aborted) throw stopped();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    arm();
    let chunks: AsyncIterator<Chunk>;
    const notices: string[] = [];
    try {
      chunks = (await options.open({ signal: controller.signal, timeout: idleTimeoutMs, notice: (text) => void notices.push(text) }))[Symbol.asyncIterator]();
    } catch (error) {
      throw fail(error);
    }
    for (const text of notices) yield { type: 'notice', text };
    for (;;) {
      arm();
      let next: IteratorResult<Chunk>;
      let events: StreamEvent[];
      try {
        next = await chunks.next();
        clearTimeout(timer);
        if (next.done) break;
        events = translator.push(next.value);
      } catch (error) {
        throw fail(error);
      }
      for (const event of events) if (event.type === 'text-delta' || event.type === 'refusal-delta') streamedChars += event.text.length;
      const over = streamedChars + translator.toolInputChars() > maxAnswerChars;
      for (const event of events) {
        if (event.type === 'text-delta') {
          const text = cutText(event.text, maxAnswerChars - textChars);
          textChars += text.length;
          if (text) yield text === event.text ? event : { type: 'text-delta', text };
        } else if (event.type === 'text-is-reasoning') {
          // The text so far was thinking, which the answer limit does not count.
          streamedChars -= textChars;
          textChars = 0;
          yield event;
        } else if (!over) yield event;
      }
      if (over) throw tooLong(maxAnswerChars);
    }
    // An abort can end an SDK stream quietly, as if it were complete.
    const halted = stopped();
    if (halted) throw halted;
    for (const event of translator.end()) yield event;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}
