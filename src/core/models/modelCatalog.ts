import type { ApiKind, ModelCatalog } from '../../shared/models.js';
import { readBodyText } from '../net/boundedBody.js';
import { rawBodyOf } from './providers/errorBody.js';
import { classifyProviderError, ProviderError } from './providers/providerError.js';

/**
 * The model names a provider offers, for the model picker (which still
 * takes a typed name: a list may be partial, or a server may have none).
 * OpenAI-compatible servers answer `GET {base}/models`; Anthropic
 * `GET {base}/v1/models` (paged, with its own headers); Ollama, when its
 * OpenAI-compatible `/v1/models` is missing (older versions), its own
 * `GET /api/tags`. Names are data from a server: bounded in number and
 * length, and the body in size, before anything is kept.
 */

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MAX_NAMES = 2000;
const MAX_PAGES = 10;
const TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 5;

interface Where {
  api: ApiKind;
  baseUrl: string;
  apiKey?: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** A GET's JSON body, or a ProviderError that says what failed (with the key masked). */
async function getJson(url: string, headers: Record<string, string>, secret: string | undefined, signal?: AbortSignal): Promise<unknown> {
  const context = { toolNames: [], ...(secret ? { secret } : {}) };
  let response: Response;
  try {
    response = await fetchSameOrigin(url, { headers, signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw classifyProviderError(error, context);
  }
  const bytes = await readBodyText(response, {
    maxBytes: MAX_BODY_BYTES,
    tooLarge: () => new ProviderError({ kind: 'rejected', status: response.status, message: `the model list is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB; type the model name instead` }),
  });
  let body: unknown;
  try {
    body = JSON.parse(bytes);
  } catch {
    body = undefined;
  }
  // The body as it came, for the classifier: a proxy's HTML page, nothing, or JSON cut short says so, with the status.
  const kept = { status: response.status, contentType: response.headers.get('content-type') ?? '', text: bytes };
  if (!response.ok) {
    const failure = Object.assign(new Error(`HTTP ${response.status} from ${url}`), { status: response.status, headers: response.headers, error: body });
    throw classifyProviderError(failure, { ...context, errorBody: () => kept });
  }
  // A 200 that is no JSON: most often a web page at a base URL without its /v1.
  if (body === undefined) throw new ProviderError({ kind: 'rejected', status: response.status, message: `${url} did not answer with JSON: it sent ${rawBodyOf(kept.text, kept.contentType).message}` });
  return body;
}

/**
 * A GET that follows redirects within the url's origin only: fetch drops
 * `Authorization` on a redirect to another origin but not Anthropic's
 * `x-api-key`, so a base url that redirects elsewhere would hand the key on.
 */
async function fetchSameOrigin(url: string, init: RequestInit): Promise<Response> {
  let at = new URL(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await fetch(at, { ...init, redirect: 'manual' });
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel();
    const next = new URL(location, at);
    if (next.origin !== at.origin)
      throw new ProviderError({ kind: 'rejected', status: response.status, message: `${at.origin} redirects the model list to another origin (${next.origin}); the key is not sent there` });
    at = next;
  }
  throw new ProviderError({ kind: 'rejected', message: `${url} redirects more than ${MAX_REDIRECTS} times` });
}

/**
 * `data[].id` (OpenAI, Anthropic) or `models[].name` (Ollama's tags), as
 * strings of sane length; a bare array of them is the list itself
 * (Together's /v1/models answers `[{ "id": … }, …]`).
 */
function namesIn(body: unknown, list: 'data' | 'models', field: 'id' | 'name'): string[] {
  const items = Array.isArray(body) ? body : body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[list] : undefined;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    const value = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[field] : undefined;
    return typeof value === 'string' && value && value.length <= 256 ? [value] : [];
  });
}

const sorted = (names: string[]) => [...new Set(names)].slice(0, MAX_NAMES).sort((a, b) => a.localeCompare(b));

async function anthropicNames(where: Where, signal?: AbortSignal): Promise<ModelCatalog> {
  const headers: Record<string, string> = { 'anthropic-version': '2023-06-01', ...(where.apiKey ? { 'x-api-key': where.apiKey } : {}) };
  const names: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES && names.length < MAX_NAMES; page++) {
    const url = `${trimSlash(where.baseUrl)}/v1/models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`;
    const body = (await getJson(url, headers, where.apiKey, signal)) as { has_more?: unknown; last_id?: unknown };
    names.push(...namesIn(body, 'data', 'id'));
    if (body.has_more !== true || typeof body.last_id !== 'string') break;
    after = body.last_id;
  }
  return { names: sorted(names), source: 'anthropic-models' };
}

/** The names the provider at `where` offers. Throws a ProviderError when it cannot tell (the picker then takes a typed name). */
export async function listModelNames(where: Where, signal?: AbortSignal): Promise<ModelCatalog> {
  if (where.api === 'anthropic') return anthropicNames(where, signal);
  const headers: Record<string, string> = where.apiKey ? { authorization: `Bearer ${where.apiKey}` } : {};
  try {
    return { names: sorted(namesIn(await getJson(`${trimSlash(where.baseUrl)}/models`, headers, where.apiKey, signal), 'data', 'id')), source: 'models' };
  } catch (error) {
    // An Ollama too old for /v1/models still lists its models as tags, at the server's root.
    if (!(error instanceof ProviderError) || error.kind !== 'not-found' || !/\/v1$/.test(trimSlash(where.baseUrl))) throw error;
    const root = trimSlash(where.baseUrl).replace(/\/v1$/, '');
    return { names: sorted(namesIn(await getJson(`${root}/api/tags`, headers, where.apiKey, signal), 'models', 'name')), source: 'ollama-tags' };
  }
}
