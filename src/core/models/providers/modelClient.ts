import type { ApiKind, ModelEntry } from '../../../shared/models.js';
import * as anthropic from './anthropicMessages.js';
import { boundedFetch, DEFAULT_MAX_EVENT_BYTES } from './boundedFetch.js';
import { guardedStream, type StreamTranslator, type WireOptions } from './guardedStream.js';
import type { ModelRequest } from './modelRequest.js';
import * as openaiChat from './openaiChat.js';
import { openaiChatTranslator } from './openaiChatStream.js';
import * as openaiResponses from './openaiResponses.js';
import { ProviderError, type ErrorContext, type KeptErrorBody } from './providerError.js';
import { resolveRequest, type ResolvedRequest } from './requestParts.js';
import type { StreamEvent } from './streamEvent.js';
import { sdkClient } from './sdkClients.js';

export interface StreamOptions {
  /** Stop: aborts the request; the stream throws a ProviderError of kind `aborted`. */
  signal?: AbortSignal;
  /** No answer or no chunk for this long fails the request (`network`/`timeout`). Default 5 minutes: a reasoning model may think a while before its first token. */
  idleTimeoutMs?: number;
  /** An answer (text and tool-call arguments; reasoning is bounded apart) longer than this stops the request (`too-long`), its text kept up to here. Default DEFAULT_MAX_ANSWER_CHARS. */
  maxAnswerChars?: number;
  /** One server-sent event longer than this (in bytes) ends the request (`too-long`). Default DEFAULT_MAX_EVENT_BYTES. */
  maxEventBytes?: number;
}

/**
 * The provider port (docs/rules/chat.md#model-clients): one streamed request
 * to one model, in vendor-neutral events. Failures are thrown from the
 * iteration as a ProviderError, coded for the retry policy. A client holds
 * no conversation state and never retries: the loop owns both.
 */
export interface ModelClient {
  readonly apiKind: ApiKind;
  readonly model: string;
  stream(request: ModelRequest, options?: StreamOptions): AsyncIterable<StreamEvent>;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;
/** 1 MiB of text: a long answer is a few ten thousand characters; a provider streaming on without end is stopped here. */
export const DEFAULT_MAX_ANSWER_CHARS = 1024 * 1024;

/** One API's wire format: how to start its stream, and how to read it. */
interface Wire<Chunk> {
  /** `fetch`: what the SDK client must stream through (boundedFetch). */
  open(request: ResolvedRequest, options: WireOptions, fetch: typeof globalThis.fetch): Promise<AsyncIterable<Chunk>>;
  translator(context: ErrorContext): StreamTranslator<Chunk>;
}

/** What a client tells its owner about the model as it learns it. */
export interface ClientLearning {
  /** The provider rejected this parameter by name for the model: the entry should remember it (rejectedParams). */
  rejectedParam?(param: RejectedParam): void;
}

type RejectedParam = NonNullable<ModelEntry['rejectedParams']>[number];

/**
 * The one request a client sends again by itself: a 400 naming a parameter
 * the model does not take (o4-mini: "Unsupported parameter: 'max_tokens' …
 * Use 'max_completion_tokens' instead"; gpt-5-nano: "'temperature' does not
 * support 0.7"), before anything streamed. It goes again once per
 * parameter, without it (or with its replacement), and the owner is told,
 * so the entry sends it right from then on. Every other failure is the
 * loop's to retry or not.
 */
async function* adapting(entry: ModelEntry, run: (entry: ModelEntry) => AsyncIterable<StreamEvent>, learning: ClientLearning): AsyncGenerator<StreamEvent> {
  let current = entry;
  for (;;) {
    let answered = false;
    try {
      for await (const event of run(current)) {
        answered ||= event.type !== 'notice';
        yield event;
      }
      return;
    } catch (error) {
      const param = error instanceof ProviderError && error.remedy?.kind === 'parameter' ? error.remedy.param : undefined;
      if (answered || !param || current.rejectedParams?.includes(param) || !(error instanceof ProviderError)) throw error;
      current = { ...current, rejectedParams: [...(current.rejectedParams ?? []), param] };
      learning.rejectedParam?.(param);
      const instead = param === 'max_tokens' ? 'max_completion_tokens in its place' : 'none';
      yield { type: 'notice', text: `${entry.model} does not take ${param} (the provider said: ${error.message}); the request went again with ${instead}, and the model entry remembers it` };
    }
  }
}

function clientOn<Chunk>(entry: ModelEntry, apiKey: string | undefined, wire: Wire<Chunk>, learning: ClientLearning): ModelClient {
  return {
    apiKind: entry.api,
    model: entry.model,
    stream: (request, options = {}) => adapting(entry, (current) => streamOn(current, apiKey, wire, request, options), learning),
  };
}

/** One request to the entry as it is now: its error body kept for the classifier (the SDKs drop one that is not the shape they expect). */
function streamOn<Chunk>(entry: ModelEntry, apiKey: string | undefined, wire: Wire<Chunk>, request: ModelRequest, options: StreamOptions): AsyncIterable<StreamEvent> {
  const resolved = resolveRequest(entry, request);
  let kept: KeptErrorBody | undefined;
  const context: ErrorContext = { toolNames: resolved.tools.map((t) => t.name), ...(apiKey ? { secret: apiKey } : {}), errorBody: () => kept };
  const fetch = boundedFetch({ maxEventBytes: options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES, keep: (body) => void (kept = body), context });
  return guardedStream({
    open: (wireOptions) => wire.open(resolved, wireOptions, fetch),
    translator: wire.translator(context),
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    maxAnswerChars: options.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS,
    context,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/**
 * The client for an entry, on the official SDKs: `openai` for chat
 * completions and Responses, `@anthropic-ai/sdk` for Messages. Everything
 * the SDKs would otherwise take from the environment is set here, so the
 * entry alone decides where a request goes and with which key: the base
 * URL, the key (none: no Authorization header at all), no retries
 * (`maxRetries: 0`: the loop owns them), no SDK logging (a debug log would
 * print requests). `fetch` is the platform's, bounded (boundedFetch).
 */
export function createModelClient(entry: ModelEntry, apiKey: string | undefined, learning: ClientLearning = {}): ModelClient {
  const common = { baseURL: entry.baseUrl, maxRetries: 0, logLevel: 'off' as const };
  // The SDKs refuse to start without a key; a keyless entry passes a placeholder and removes the headers it would make.
  const auth = apiKey ? { apiKey } : { apiKey: 'unused', defaultHeaders: { authorization: null, 'x-api-key': null } };
  switch (entry.api) {
    case 'openai': {
      const client = sdkClient('openai', { ...common, ...auth, organization: null, project: null });
      return clientOn(entry, apiKey, { open: async (r, o, f) => openaiChat.openStream((await client()).withOptions({ fetch: f }), r, o), translator: () => openaiChatTranslator() }, learning);
    }
    case 'openai-responses': {
      const client = sdkClient('openai', { ...common, ...auth, organization: null, project: null });
      return clientOn(
        entry,
        apiKey,
        {
          open: async (r, o, f) => openaiResponses.openStream((await client()).withOptions({ fetch: f }), r, o),
          translator: (context) => openaiResponses.responsesTranslator(context),
        },
        learning,
      );
    }
    case 'anthropic': {
      const client = sdkClient('anthropic', { ...common, ...auth });
      return clientOn(entry, apiKey, { open: async (r, o, f) => anthropic.openStream((await client()).withOptions({ fetch: f }), r, o), translator: () => anthropic.anthropicTranslator() }, learning);
    }
  }
}
