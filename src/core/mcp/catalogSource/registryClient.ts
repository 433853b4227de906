import { BodyTooLargeError, readBodyText, sizeText } from '../../net/boundedBody.js';
import { fetchFollowing, RedirectError } from '../../net/followRedirects.js';
import { CatalogError } from './catalogError.js';
import { ServerListSchema, ServerResponseSchema, type ServerResponse } from './serverJson.js';

/**
 * Reads an MCP Registry's API (`GET /v0/servers`, `GET /v0/servers/{name}/versions/latest`;
 * modelcontextprotocol/registry docs/reference/api/openapi.yaml) as data:
 * nothing it answers is run or trusted. Each request has a deadline, each
 * body a size limit, and an answer that is not the registry's JSON (a login
 * page, a proxy's error page) is refused by saying so, not parsed as best it
 * can. Errors name the registry's origin only.
 */

export interface RegistryClientOptions {
  /** Abort a request that has not answered (headers and body) in this time. */
  timeoutMs?: number;
  /** A page larger than this is not read further. */
  maxBytes?: number;
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** Redirects followed before the registry is given up (fetch's own limit is 20; a registry needs one or two). */
const MAX_REDIRECTS = 5;
/** The official registry's pages of 100 entries are well under 1 MiB; room for a company's richer entries. */
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

export interface RegistryPage {
  /** Valid entries, in the registry's order. */
  entries: ServerResponse[];
  refused: { name: string; reason: string }[];
  nextCursor?: string;
}

/** The registry's base URL, checked: http(s) only, no query, no credentials. */
export function registryBase(url: string): URL {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    throw new CatalogError('CATALOG_UNREACHABLE', `the MCP registry address "${url}" is not an http(s) URL`, 'set mcpRegistryUrl to e.g. https://registry.modelcontextprotocol.io');
  if (parsed.username || parsed.password) throw new CatalogError('CATALOG_UNREACHABLE', 'the MCP registry address must not carry a user name or password', 'remove them from mcpRegistryUrl');
  parsed.search = '';
  parsed.hash = '';
  if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
  return parsed;
}

export class RegistryClient {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly fetchImpl: typeof fetch;

  constructor(
    private readonly base: URL,
    options: RegistryClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** Where it reads, for a view: origin and path. */
  get shown(): string {
    return `${this.base.origin}${this.base.pathname.replace(/\/$/, '')}`;
  }

  /** One page of the latest versions, optionally searched by name. */
  async list(query: { search?: string; cursor?: string; limit?: number }): Promise<RegistryPage> {
    const url = new URL('v0/servers', this.base);
    url.searchParams.set('version', 'latest');
    url.searchParams.set('limit', String(query.limit ?? 30));
    if (query.search) url.searchParams.set('search', query.search);
    if (query.cursor) url.searchParams.set('cursor', query.cursor);
    const body = await this.getJson(url);
    const page = ServerListSchema.safeParse(body);
    if (!page.success) throw this.badAnswer(`its page is not a server list (${page.error.issues[0]?.path.join('.') || 'root'}: ${page.error.issues[0]?.message})`);
    const entries: ServerResponse[] = [];
    const refused: RegistryPage['refused'] = [];
    for (const raw of page.data.servers) {
      const entry = ServerResponseSchema.safeParse(raw);
      if (entry.success) entries.push(entry.data);
      else refused.push({ name: nameOf(raw), reason: entry.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
    }
    const next = page.data.metadata?.nextCursor ?? page.data.metadata?.next_cursor ?? undefined;
    // A cursor that leads back to itself would page forever: said, not followed.
    if (next && next === query.cursor)
      throw new CatalogError(
        'CATALOG_CURSOR_LOOP',
        `the MCP registry at ${this.base.origin} gave back the cursor it was asked with`,
        'the registry is broken or not an MCP registry: check mcpRegistryUrl',
      );
    return { entries, refused, ...(next ? { nextCursor: next } : {}) };
  }

  /** The latest version of one entry, or undefined when the registry has none of that name. */
  async latest(name: string): Promise<ServerResponse | undefined> {
    const url = new URL(`v0/servers/${encodeURIComponent(name)}/versions/latest`, this.base);
    const body = await this.getJson(url, true);
    if (body === undefined) return undefined;
    const entry = ServerResponseSchema.safeParse(body);
    if (!entry.success) throw this.badAnswer(`its entry ${JSON.stringify(name)} is not valid server.json (${entry.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`);
    return entry.data;
  }

  private async getJson(url: URL, notFoundIsNone = false): Promise<unknown> {
    const origin = this.base.origin;
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      // Redirects followed by hand: an https registry's answer never comes over a plain-http hop (followRedirects.ts).
      response = await fetchFollowing(url, { headers: { accept: 'application/json' }, signal }, { maxRedirects: MAX_REDIRECTS, fetchImpl: this.fetchImpl });
    } catch (error) {
      if (error instanceof RedirectError && error.code !== 'unreachable') throw unreachable(origin, `is not read: ${error.message}`);
      const cause = error instanceof RedirectError ? error.cause : error;
      throw unreachable(origin, signal.aborted ? `did not answer in ${this.timeoutMs / 1000} s` : `could not be reached (${(cause as Error).message})`);
    }
    if (notFoundIsNone && response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw unreachable(origin, `answered HTTP ${response.status}`);
    }
    const type = response.headers.get('content-type') ?? '';
    if (!/^application\/([\w.+-]+\+)?json\b/i.test(type.trim())) {
      await response.body?.cancel();
      throw this.badAnswer(`it answered ${type ? `"${type.split(';')[0]}"` : 'without a content type'}, not JSON (a sign-in or error page?)`);
    }
    let text: string;
    try {
      text = await readBodyText(response, { maxBytes: this.maxBytes });
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw this.badAnswer(`its answer is larger than ${sizeText(this.maxBytes)}`);
      throw unreachable(origin, signal.aborted ? `did not finish its answer in ${this.timeoutMs / 1000} s` : `broke off its answer (${(error as Error).message})`);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.badAnswer('its answer is not valid JSON');
    }
  }

  private badAnswer(what: string): CatalogError {
    return new CatalogError('CATALOG_BAD_ANSWER', `the MCP registry at ${this.base.origin} answered wrongly: ${what}`, 'check mcpRegistryUrl: it must be an MCP registry (GET /v0/servers)');
  }
}

const unreachable = (origin: string, what: string) => new CatalogError('CATALOG_UNREACHABLE', `the MCP registry at ${origin} ${what}`, 'check the network and mcpRegistryUrl, then try again');

/** An invalid entry's name for the refusal, if it has a readable one. */
function nameOf(raw: unknown): string {
  const server = (raw as { server?: { name?: unknown } } | null)?.server;
  const name = server && typeof server === 'object' && Object.hasOwn(server, 'name') ? server.name : undefined;
  return typeof name === 'string' ? name.slice(0, 200) : '(no name)';
}
