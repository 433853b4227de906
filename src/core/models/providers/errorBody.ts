/**
 * What a provider's error body says, whatever shape it comes in
 * (docs/rules/chat.md#stop-and-retry). Real providers use many:
 *
 * - `{ error: { message, type, param, code } }` (OpenAI and most compatible
 *   servers), `{ type: 'error', error: { type, message } }` (Anthropic), or
 *   the inner object itself (an error event in a stream);
 * - `code` as a number, the HTTP status it stands for (OpenRouter, llama.cpp,
 *   Google), also inside a 200 stream, where it is the only status there is;
 * - `"error"` as a plain string beside a `code` in words (xAI);
 * - the upstream provider's own words in `error.metadata.raw`, often JSON in
 *   a string, and its name in `metadata.provider_name` (OpenRouter);
 * - a JSON array holding the error (Gemini's OpenAI endpoint);
 * - Azure's filter naming itself in `innererror.code`; Groq's malformed call
 *   in `failed_generation`;
 * - and bodies that are no API error at all: an HTML page from a proxy, a
 *   bare string, nothing, or JSON cut short.
 */
export interface ErrorBody {
  message?: string;
  /** The error's type, or its code in words when it has no type. */
  type?: string;
  /** Every code in words (`code`, Azure's `innererror.code`, the upstream's). */
  code?: string;
  /** A numeric `code`: the HTTP status it stands for. */
  status?: number;
  param?: string;
  /** What the model generated that the provider could not read as a tool call (Groq's `failed_generation`). */
  generated?: string;
  /** No API error at all (HTML, nothing, JSON cut short, JSON naming no error): `message` describes the body. */
  foreign?: true;
}

type Json = Record<string, unknown>;

const record = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined);
/** At most this much of an upstream cause or an unknown body is kept in a message. */
const MAX_QUOTE = 1000;
const quote = (value: string) => (value.length > MAX_QUOTE ? `${value.slice(0, MAX_QUOTE)}…` : value);

/** The error a parsed body holds (see ErrorBody); `{}` when it holds none. */
export function bodyOf(raw: unknown, depth = 0): ErrorBody {
  if (depth > 4) return {};
  if (typeof raw === 'string') return text(raw) ? { message: quote(raw.trim()) } : {};
  // Gemini's OpenAI endpoint: `[{ "error": { "code": 400, … } }]`.
  if (Array.isArray(raw)) return raw.length ? bodyOf(raw.find((item) => record(item)) ?? raw[0], depth + 1) : {};
  const outer = record(raw);
  if (!outer) return {};
  // xAI: `{ "code": "Client specified an invalid argument", "error": "This model's maximum prompt length is …" }`.
  if (typeof outer.error === 'string') return withCodes({ message: quote(outer.error) }, [text(outer.code)], outer.code);
  const inner = record(outer.error) ?? outer;
  const message = text(inner.message) ?? (inner.message !== undefined && inner.message !== null && typeof inner.message !== 'string' ? JSON.stringify(inner.message) : undefined);
  const innerError = record(inner.innererror);
  const upstream = upstreamOf(record(inner.metadata), depth);
  const body: ErrorBody = {};
  const said = [message, upstream.said].filter(Boolean).join(' ');
  if (said) body.message = quote(said);
  const type = text(inner.type) ?? text(inner.code) ?? text(inner.status);
  if (type !== undefined && type !== 'error') body.type = type;
  const param = text(inner.param);
  if (param !== undefined) body.param = param;
  const generated = typeof inner.failed_generation === 'string' ? inner.failed_generation : undefined;
  if (generated !== undefined) body.generated = quote(generated);
  return withCodes(body, [text(inner.code), text(innerError?.code), text(inner.status), upstream.body.code, upstream.body.type], inner.code ?? upstream.body.status);
}

function withCodes(body: ErrorBody, codes: (string | undefined)[], numeric: unknown): ErrorBody {
  const code = [...new Set(codes.filter((c): c is string => Boolean(c)))].join(' ');
  if (code) body.code = code;
  const status = typeof numeric === 'number' ? numeric : typeof numeric === 'string' && /^\d{3}$/.test(numeric) ? Number(numeric) : undefined;
  if (status !== undefined && status >= 400 && status <= 599) body.status = status;
  return body;
}

/** OpenRouter's upstream cause: `metadata.raw` (JSON in a string, an object, or words; sometimes an SSE `data:` line) and who said it. */
function upstreamOf(metadata: Json | undefined, depth: number): { said?: string; body: ErrorBody } {
  if (!metadata) return { body: {} };
  const raw = metadata.raw;
  let body: ErrorBody = {};
  if (typeof raw === 'string') {
    const trimmed = raw.trim().replace(/^data:\s*/, '');
    body = parseJson(trimmed, depth + 1) ?? (trimmed ? { message: quote(trimmed) } : {});
  } else if (raw !== undefined && raw !== null) body = bodyOf(raw, depth + 1);
  const provider = text(metadata.provider_name);
  const cause = body.message;
  if (!cause) return { body };
  return { said: `(${provider ? `${provider}: ` : 'upstream: '}${cause})`, body };
}

function parseJson(raw: string, depth: number): ErrorBody | undefined {
  try {
    return bodyOf(JSON.parse(raw) as unknown, depth);
  } catch {
    return undefined;
  }
}

/**
 * A raw error body as the HTTP response carried it (what the SDKs drop when
 * it is not the shape they expect: "400 status code (no body)"). Never
 * empty-handed: a body that holds no API error says what it was instead.
 */
export function rawBodyOf(raw: string, contentType = ''): ErrorBody {
  const trimmed = raw.trim();
  if (!trimmed) return { message: 'an empty body', foreign: true };
  const parsed = parseJson(trimmed, 0);
  if (parsed) return parsed.message ? parsed : { ...parsed, message: `a JSON body that names no error: ${quote(trimmed)}`, foreign: true };
  if (/html/i.test(contentType) || /^<(!doctype|html|head|body)\b/i.test(trimmed)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
    const heading = /<h1[^>]*>([^<]*)<\/h1>/i.exec(trimmed)?.[1]?.trim();
    const named = title || heading;
    return { message: `an HTML page${named ? ` ("${quote(named)}")` : ''}, not an API error (a proxy or a wrong base URL answered)`, foreign: true };
  }
  if (/^[[{]/.test(trimmed)) {
    // JSON cut short (by the size bound, or by the provider): what its message says, if that much came.
    const said = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(trimmed)?.[1];
    const message = said ? (parseJson(`"${said}"`, 0)?.message ?? said) : undefined;
    return { message: `a JSON body cut short after ${raw.length} characters${message ? `: ${quote(message)}` : `: ${quote(trimmed.slice(0, 200))}`}`, foreign: true };
  }
  return { message: quote(trimmed) };
}
