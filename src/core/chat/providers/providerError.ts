import type { NetworkFailure, ProviderErrorKind, ProviderFailure } from '../../../shared/models.js';
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
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly network?: NetworkFailure;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** The tool the provider complains about, when its error names one of the request's tools. */
  readonly toolName?: string;

  constructor(failure: ProviderFailure, options?: { cause?: unknown }) {
    super(failure.message, options);
    this.kind = failure.kind;
    if (failure.network !== undefined) this.network = failure.network;
    if (failure.status !== undefined) this.status = failure.status;
    if (failure.retryAfterMs !== undefined) this.retryAfterMs = failure.retryAfterMs;
    if (failure.toolName !== undefined) this.toolName = failure.toolName;
  }

  get retryable(): boolean {
    return this.kind === 'rate-limited' || this.kind === 'server' || this.kind === 'network';
  }

  /** The plain data, for a HostApi reply or a problem. */
  toJSON(): ProviderFailure {
    const { kind, network, status, retryAfterMs, message, toolName } = this;
    return { kind, message, ...(network ? { network } : {}), ...(status !== undefined ? { status } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), ...(toolName ? { toolName } : {}) };
  }
}

/** What the clients know when they classify a failure. */
export interface ErrorContext {
  /** Masked out of every message. */
  secret?: string;
  /** The request's tool names, to find the one a rejection is about. */
  toolNames: readonly string[];
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
  if (error instanceof ProviderError) return error;
  const sdk = isSdkApiError(error) ? error : undefined;
  if (sdk?.status !== undefined) return fromStatus(sdk, context, error);
  // A stream that carried an error event (no HTTP status): its body says what kind.
  if (bodyOf(sdk?.error).type) return errorFromEvent(sdk!.error, context, error);
  const network = networkFailureOf(error);
  return new ProviderError({ kind: 'network', network, message: mask(describeNetwork(network, error), context) }, { cause: error });
}

/** An error a stream carried as an event (no HTTP status), e.g. Anthropic's `overloaded_error` or a Responses `response.failed`: its type says what kind. */
export function errorFromEvent(raw: unknown, context: ErrorContext, cause?: unknown): ProviderError {
  const body = bodyOf(raw);
  const kind = meaningOf(body) ?? (body.type ? kindOfErrorType(body.type) : 'server');
  return new ProviderError({ kind, message: mask(body.message ?? 'the provider reported an error in the stream', context) }, { cause });
}

const QUOTA_CODE = /insufficient_quota|billing|insufficient_balance|quota_exceeded|payment_required|arrearage/i;
const QUOTA_TEXT = /exceeded your current quota|credit balance is too low|insufficient balance|insufficient credits|check your plan and billing|account is in good standing|余额不足|欠费/i;
const CONTEXT_CODE = /context_length_exceeded|string_above_max_length|request_too_large|context_window_exceeded/i;
const CONTEXT_TEXT =
  /maximum context length|context length (of|is)|prompt is too long|context window|input token count.*exceeds|input is too long|too many input tokens|reduce the length of the (messages|prompt)/i;
const FILTER_CODE = /content_filter|content_policy_violation|responsibleaipolicyviolation|data_inspection_failed/i;
const FILTER_TEXT = /content management policy|content filter|may contain inappropriate content/i;

/**
 * A refusal's meaning, from what the body says, whatever the status (OpenAI
 * sends `insufficient_quota` as a 429, which is no rate limit: waiting does
 * not help; Anthropic's "prompt is too long" is a 400).
 */
function meaningOf(body: { message?: string; type?: string; code?: string }): ProviderErrorKind | undefined {
  const codes = [body.type, body.code].filter(Boolean).join(' ');
  const text = body.message ?? '';
  if (QUOTA_CODE.test(codes) || QUOTA_TEXT.test(text)) return 'quota';
  if (CONTEXT_CODE.test(codes) || CONTEXT_TEXT.test(text)) return 'context-too-long';
  if (FILTER_CODE.test(codes) || FILTER_TEXT.test(text)) return 'content-filter';
  return undefined;
}

function fromStatus(error: SdkApiError, context: ErrorContext, cause: unknown): ProviderError {
  const status = error.status!;
  const body = bodyOf(error.error);
  const message = mask(body.message ?? error.message, context);
  const base = { status, message };
  const meaning = status >= 400 && status < 500 && status !== 401 ? (meaningOf(body) ?? (status === 402 ? 'quota' : status === 413 ? 'context-too-long' : undefined)) : undefined;
  if (meaning) return new ProviderError({ ...base, kind: meaning }, { cause });
  if (status === 400 || status === 422) return new ProviderError({ ...base, kind: 'rejected', ...toolOf(body, message, context) }, { cause });
  if (status === 401 || status === 403) return new ProviderError({ ...base, kind: 'auth' }, { cause });
  if (status === 404) return new ProviderError({ ...base, kind: 'not-found' }, { cause });
  if (status === 429) {
    const retryAfterMs = retryAfterOf(error.headers);
    return new ProviderError({ ...base, kind: 'rate-limited', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }, { cause });
  }
  if (status === 408) return new ProviderError({ ...base, kind: 'network', network: 'timeout' }, { cause });
  if (status >= 500) {
    // A 503 may say when to come back (RFC 9110 Retry-After): honoured like a 429's.
    const retryAfterMs = retryAfterOf(error.headers);
    return new ProviderError({ ...base, kind: 'server', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }, { cause });
  }
  // Another 4xx (402 payment required, 413 too large…): the request as it is will not succeed.
  return new ProviderError({ ...base, kind: 'rejected', ...toolOf(body, message, context) }, { cause });
}

/**
 * `{ error: { message, type, param, code } }` (OpenAI), `{ type: 'error', error: { type, message } }`
 * (Anthropic), or the inner object itself; Azure's content filter names itself in `innererror.code`.
 */
function bodyOf(raw: unknown): { message?: string; type?: string; code?: string; param?: string } {
  if (raw === null || typeof raw !== 'object') return {};
  const record = raw as Record<string, unknown>;
  const inner = record.error !== null && typeof record.error === 'object' ? (record.error as Record<string, unknown>) : record;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const message = text(inner.message) ?? (inner.message !== undefined && inner.message !== null ? JSON.stringify(inner.message) : undefined);
  const result: { message?: string; type?: string; code?: string; param?: string } = {};
  if (message !== undefined) result.message = message;
  const type = text(inner.type) ?? text(inner.code);
  if (type !== undefined && type !== 'error') result.type = type;
  const innerError = inner.innererror !== null && typeof inner.innererror === 'object' ? (inner.innererror as Record<string, unknown>) : undefined;
  const code = [text(inner.code), text(innerError?.code)].filter(Boolean).join(' ');
  if (code) result.code = code;
  const param = text(inner.param);
  if (param !== undefined) result.param = param;
  return result;
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

/** The key never appears in a message, whoever echoed it. */
export function mask(text: string, context: Pick<ErrorContext, 'secret'>): string {
  const secret = context.secret;
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join('***');
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
