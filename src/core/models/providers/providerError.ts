import type { NetworkFailure, ProviderErrorKind, ProviderFailure, ProviderRemedy } from '../../../shared/models.js';
import { bodyOf, rawBodyOf, type ErrorBody } from './errorBody.js';
import { networkFailureOf } from './networkFailure.js';

export type { NetworkFailure, ProviderErrorKind } from '../../../shared/models.js';

/**
 * A failed model request, coded for the loop's retry policy
 * (docs/rules/chat.md#stop-and-retry):
 *
 * | kind | when | retry? |
 * | --- | --- | --- |
 * | `rejected` | 400/422, an invalid request | no: stop, raise a problem |
 * | `quota` | no credit or quota used up (OpenAI `insufficient_quota`, even as a 429; 402) | no |
 * | `context-too-long` | the request is over the model's context window | no: summarize, then retry |
 * | `content-filter` | the provider's content filter refused the request | no |
 * | `auth` | 401/403 | no |
 * | `not-found` | 404 (unknown model, wrong base URL) | no |
 * | `rate-limited` | 429 (`retryAfterMs` from Retry-After) | yes, after the wait |
 * | `server` | 5xx, an overloaded or failed stream | yes, with backoff (or after its Retry-After) |
 * | `network` | DNS, TLS, refused, reset, timeout, a stream cut short | yes, with backoff |
 * | `aborted` | the caller's signal | no |
 *
 * `message` is the provider's own error text with the key masked.
 * `remedy`: a rejection the host can answer by itself, once (the model's
 * malformed tool call, a parameter the model does not take).
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly network?: NetworkFailure;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** The tool the provider complains about, when its error names one of the request's tools. */
  readonly toolName?: string;
  readonly remedy?: ProviderRemedy;

  constructor(failure: ProviderFailure, options?: { cause?: unknown }) {
    super(failure.message, options);
    this.kind = failure.kind;
    if (failure.network !== undefined) this.network = failure.network;
    if (failure.status !== undefined) this.status = failure.status;
    if (failure.retryAfterMs !== undefined) this.retryAfterMs = failure.retryAfterMs;
    if (failure.toolName !== undefined) this.toolName = failure.toolName;
    if (failure.remedy !== undefined) this.remedy = failure.remedy;
  }

  get retryable(): boolean {
    return this.kind === 'rate-limited' || this.kind === 'server' || this.kind === 'network';
  }

  /** The plain data, for a HostApi reply or a problem. */
  toJSON(): ProviderFailure {
    const { kind, network, status, retryAfterMs, message, toolName, remedy } = this;
    return {
      kind,
      message,
      ...(network ? { network } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(toolName ? { toolName } : {}),
      ...(remedy ? { remedy } : {}),
    };
  }
}

/** What the clients know when they classify a failure. */
export interface ErrorContext {
  /** Masked out of every message. */
  secret?: string;
  /** The request's tool names, to find the one a rejection is about. */
  toolNames: readonly string[];
  /** The last error body as the HTTP response carried it (boundedFetch keeps it), for when the SDK dropped it. */
  errorBody?(): KeptErrorBody | undefined;
}

export interface KeptErrorBody {
  status: number;
  contentType: string;
  text: string;
}

interface SdkApiError {
  status?: number;
  headers?: Headers | Record<string, string> | undefined;
  error?: unknown;
  message: string;
}

const isSdkApiError = (error: unknown): error is SdkApiError & Error => error instanceof Error && ('status' in error || 'headers' in error);

/** Any failure of the SDKs (or of fetch under them) as a ProviderError. */
export function classifyProviderError(error: unknown, context: ErrorContext): ProviderError {
  // Ours, maybe wrapped by an SDK (a failure thrown inside its fetch becomes the cause of its connection error).
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) if (current instanceof ProviderError) return current;
  const sdk = isSdkApiError(error) ? error : undefined;
  if (sdk?.status !== undefined) return fromStatus(sdk, context, error);
  // A stream that carried an error (no HTTP status, the response was a 200): its body says what kind.
  if (sdk?.error !== undefined && sdk.error !== null) return errorFromEvent(sdk.error, context, error);
  const network = networkFailureOf(error);
  return new ProviderError({ kind: 'network', network, message: mask(describeNetwork(network, error), context) }, { cause: error });
}

/**
 * An error a stream carried (no HTTP status), e.g. Anthropic's
 * `overloaded_error`, a Responses `response.failed`, or a chat-completions
 * chunk `{"error": …}`: a numeric code is the status it stands for
 * (OpenRouter's `{"error":{"code":400,…}}` after the model's last token is
 * a rejection, not a dropped connection); else its type says what kind.
 */
export function errorFromEvent(raw: unknown, context: ErrorContext, cause?: unknown): ProviderError {
  const body = bodyOf(raw);
  if (body.status !== undefined) return fromBody(body.status, body, undefined, context, cause, 'the provider reported an error in the stream');
  const kind = meaningOf(body) ?? (body.type ? kindOfErrorType(body.type) : 'server');
  return new ProviderError({ kind, message: mask(body.message ?? 'the provider reported an error in the stream', context), ...remedyOf(kind, body) }, { cause });
}

const QUOTA_CODE = /insufficient_quota|billing|insufficient_balance|quota_exceeded|payment_required|arrearage/i;
const QUOTA_TEXT = /exceeded your current quota|credit balance is too low|insufficient balance|insufficient credits|check your plan and billing|account is in good standing|余额不足|欠费/i;
/** Over the context window, in the codes providers use: OpenAI, llama.cpp (`exceed_context_size_error`), xAI (`input_too_large`)… */
const CONTEXT_CODE = /context_length_exceeded|string_above_max_length|request_too_large|context_window_exceeded|exceed_context_size|input_too_large|model_context_window_exceeded/i;
/**
 * …and in their words: OpenAI and vLLM ("maximum context length"), Anthropic ("prompt is too long", "input length
 * and `max_tokens` exceed context limit"), xAI ("maximum prompt length"), Moonshot ("exceeded model token limit"),
 * DashScope ("Range of input length should be [1, N]"), llama.cpp ("exceeds the available context size").
 */
const CONTEXT_TEXT = new RegExp(
  [
    'maximum context length',
    'context length (of|is)',
    'prompt is too long',
    'context window',
    'input token count.*exceeds',
    'input is too long',
    'too many input tokens',
    'reduce the length of the (messages|prompt)',
    'maximum prompt length',
    'exceeded model token limit',
    'range of input length',
    'input length and `?max_tokens`? exceed context limit',
    'exceeds the available context size',
    'input length \\(\\d+ tokens\\) exceeds the maximum allowed length',
    'model max length exceeded',
  ].join('|'),
  'i',
);
const FILTER_CODE = /content_filter|content_policy_violation|responsibleaipolicyviolation|data_inspection_failed/i;
const FILTER_TEXT = /content management policy|content filter|may contain inappropriate content/i;

/**
 * A refusal's meaning, from what the body says, whatever the status (OpenAI
 * sends `insufficient_quota` as a 429, which is no rate limit: waiting does
 * not help; Anthropic's "prompt is too long" is a 400; an older llama.cpp
 * says the context is exceeded with a 500, which no retry fixes).
 */
function meaningOf(body: ErrorBody): ProviderErrorKind | undefined {
  const text = body.message ?? '';
  // A code some providers put in their message's words, in brackets (xAI: "[input_too_large] Current message … exceeds budget").
  const bracketed = [...text.matchAll(/\[([a-z][a-z0-9_]*)\]/g)].map((match) => match[1]);
  const codes = [body.type, body.code, ...bracketed].filter(Boolean).join(' ');
  if (QUOTA_CODE.test(codes) || QUOTA_TEXT.test(text)) return 'quota';
  if (CONTEXT_CODE.test(codes) || CONTEXT_TEXT.test(text)) return 'context-too-long';
  if (FILTER_CODE.test(codes) || FILTER_TEXT.test(text)) return 'content-filter';
  return undefined;
}

function fromStatus(error: SdkApiError, context: ErrorContext, cause: unknown): ProviderError {
  const status = error.status!;
  // The body as it came, where the SDK kept none or less (an array, a bare string, HTML, nothing, JSON cut short).
  const kept = context.errorBody?.();
  const sdkBody = bodyOf(error.error);
  const body = kept && kept.status === status ? { ...sdkBody, ...rawBodyOf(kept.text, kept.contentType) } : sdkBody.message ? sdkBody : { ...sdkBody, message: error.message };
  return fromBody(status, body, error.headers, context, cause, error.message);
}

/** A failure with an HTTP status (or the numeric code a stream's error gave as one), by status and by what the body says. */
function fromBody(status: number, body: ErrorBody, headers: SdkApiError['headers'], context: ErrorContext, cause: unknown, fallback: string): ProviderError {
  // A body that is no API error is described, with the status it came with: "HTTP 502 with an HTML page (…)".
  const message = mask(body.foreign ? `HTTP ${status} with ${body.message}` : (body.message ?? fallback), context);
  const base = { status, message };
  const meaning = status >= 400 && status !== 401 && status !== 403 ? (meaningOf(body) ?? (status === 402 ? 'quota' : status === 413 ? 'context-too-long' : undefined)) : undefined;
  if (meaning) return new ProviderError({ ...base, kind: meaning }, { cause });
  if (status === 400 || status === 422) return new ProviderError({ ...base, kind: 'rejected', ...toolOf(body, message, context), ...remedyOf('rejected', body) }, { cause });
  if (status === 401 || status === 403) return new ProviderError({ ...base, kind: 'auth' }, { cause });
  if (status === 404) return new ProviderError({ ...base, kind: 'not-found' }, { cause });
  if (status === 429) {
    const retryAfterMs = retryAfterOf(headers);
    return new ProviderError({ ...base, kind: 'rate-limited', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }, { cause });
  }
  if (status === 408) return new ProviderError({ ...base, kind: 'network', network: 'timeout' }, { cause });
  if (status >= 500) {
    // A 503 may say when to come back (RFC 9110 Retry-After): honoured like a 429's.
    const retryAfterMs = retryAfterOf(headers);
    return new ProviderError({ ...base, kind: 'server', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }, { cause });
  }
  // Another 4xx (402 payment required, 413 too large…), or a 2xx that is no stream: the request as it is will not succeed.
  return new ProviderError({ ...base, kind: 'rejected', ...toolOf(body, message, context), ...remedyOf('rejected', body) }, { cause });
}

/** A tool call the provider could not read (Groq's `tool_use_failed`, "Failed to call a function", "Tool call validation failed"). */
const MALFORMED_CALL = /tool_use_failed|tool_call_failed|invalid_tool_call|failed to call a function|tool call validation failed|failed to parse tool call/i;
/** The parameters a reasoning model rejects by name, and what takes their place. */
const REJECTED_PARAM = /\b(max_tokens|temperature)\b/;
const UNSUPPORTED = /unsupported|not supported|does not support|only the default/i;

/**
 * What the host can do about a rejection by itself, once: show the model
 * its malformed tool call (the provider caught it, not us), or send the
 * request again without a parameter the model does not take (o-series and
 * GPT-5 reject `max_tokens` and `temperature`, naming them in `param`).
 */
function remedyOf(kind: ProviderErrorKind, body: ErrorBody): { remedy?: ProviderRemedy } {
  if (kind !== 'rejected' && kind !== 'server') return {};
  if (MALFORMED_CALL.test(`${body.code ?? ''} ${body.type ?? ''} ${body.message ?? ''}`) || body.generated !== undefined)
    return { remedy: { kind: 'tool-call', ...(body.generated ? { generated: body.generated } : {}) } };
  const param = REJECTED_PARAM.exec(body.param ?? '')?.[1] ?? (UNSUPPORTED.test(body.message ?? '') ? /'(max_tokens|temperature)'/.exec(body.message ?? '')?.[1] : undefined);
  if (kind === 'rejected' && (param === 'max_tokens' || param === 'temperature') && (UNSUPPORTED.test(`${body.code ?? ''} ${body.message ?? ''}`) || body.param === param))
    return { remedy: { kind: 'parameter', param } };
  return {};
}

function kindOfErrorType(type: string): ProviderErrorKind {
  if (/overloaded/.test(type)) return 'server';
  if (/invalid_request|bad_request/.test(type)) return 'rejected';
  if (/authentication|permission|invalid_api_key/.test(type)) return 'auth';
  if (/not_found|model_not_found/.test(type)) return 'not-found';
  if (/rate_limit/.test(type)) return 'rate-limited';
  return 'server';
}

/** Retry-After: seconds, or an HTTP date; `retry-after-ms` (OpenAI) wins when present. */
export function retryAfterOf(headers: SdkApiError['headers']): number | undefined {
  const get = (name: string): string | null | undefined => (headers instanceof Headers ? headers.get(name) : headers?.[name]);
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The tool a rejection is about: named by `param` (`tools[3]…`) or, longest name first, in the error text. */
function toolOf(body: { param?: string }, message: string, context: ErrorContext): { toolName?: string } {
  const index = /tools\[(\d+)\]/.exec(body.param ?? '') ?? /tools\.(\d+)\./.exec(message) ?? /tools\[(\d+)\]/.exec(message);
  const byIndex = index ? context.toolNames[Number(index[1])] : undefined;
  if (byIndex) return { toolName: byIndex };
  const named = [...context.toolNames].sort((a, b) => b.length - a.length).find((name) => new RegExp(`(^|[^A-Za-z0-9_-])${escapeRegExp(name)}($|[^A-Za-z0-9_-])`).test(message));
  return named ? { toolName: named } : {};
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A provider's error text kept at most: a message, not a document (a hostile provider may send megabytes). */
const MAX_MESSAGE_CHARS = 4000;

/** The key never appears in a message, whoever echoed it; the message is cut to MAX_MESSAGE_CHARS (after masking, so no part of the key is left). */
export function mask(text: string, context: Pick<ErrorContext, 'secret'>): string {
  const secret = context.secret;
  const masked = !secret || secret.length < 4 ? text : text.split(secret).join('***');
  return masked.length <= MAX_MESSAGE_CHARS ? masked : `${masked.slice(0, MAX_MESSAGE_CHARS)}… (${masked.length - MAX_MESSAGE_CHARS} more characters)`;
}

function describeNetwork(network: NetworkFailure, error: unknown): string {
  const detail = deepestMessage(error);
  const what: Record<NetworkFailure, string> = {
    dns: 'the host name could not be resolved (DNS)',
    tls: 'the TLS handshake failed',
    refused: 'the connection was refused',
    reset: 'the connection was closed unexpectedly',
    timeout: 'the request timed out',
    incomplete: 'the stream ended before the model finished',
    other: 'the request failed',
  };
  return detail ? `${what[network]}: ${detail}` : what[network];
}

/** The innermost cause's message (`getaddrinfo ENOTFOUND x.invalid`), which says the most. */
function deepestMessage(error: unknown): string {
  let current: unknown = error;
  let message = '';
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}
