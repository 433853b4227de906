import type { LookupAddress } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../net/privateAddress.js';
import { checkedLookup, systemResolve } from '../net/checkedLookup.js';

/**
 * The built-in fetch tool's HTTP (docs/using/mcp-servers.md#built-in-tools):
 * one GET per hop with node:http / node:https, never a shell or a browser.
 *
 * - http(s) only; every redirect is a new hop checked as the first was
 *   (scheme, address), at most MAX_REDIRECTS of them;
 * - no private, loopback or link-local address unless the user switched
 *   "allow private addresses" on for the server: a page on the internet must
 *   not turn the model into a probe of the user's router, LAN or cloud
 *   metadata service;
 * - the address checked is the address connected to: the check runs inside
 *   the `lookup` the request connects with (node:http's option, passed to
 *   net.connect), which hands back only the address it checked, so DNS
 *   cannot answer differently between the check and the connect (rebinding);
 * - the body is read up to a cap, then the connection is closed and the
 *   page answered with what was read; a deadline covers the whole fetch.
 */

export const MAX_REDIRECTS = 5;
export const FETCH_MAX_BYTES = 5 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 30_000;

export type FetchErrorCode = 'FETCH_URL_INVALID' | 'FETCH_SCHEME' | 'FETCH_PRIVATE_ADDRESS' | 'FETCH_TOO_MANY_REDIRECTS' | 'FETCH_TIMEOUT' | 'FETCH_FAILED' | 'FETCH_NOT_TEXT';

export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface PageFetchOptions {
  allowPrivateAddresses: boolean;
  maxBytes?: number;
  timeoutMs?: number;
  /** Resolves a host name to its addresses; default the system resolver (what the OS and /etc/hosts say). */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** Which addresses count as private; default isPrivateAddress. */
  isPrivate?: (address: string) => boolean;
}

export interface FetchedPage {
  /** The url of the last hop (after redirects). */
  url: string;
  status: number;
  contentType: string;
  /** The body, decoded by its charset (utf-8 when none or unknown). */
  text: string;
  /** The body was longer than the cap: `text` is its first part. */
  cut: boolean;
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

const PRIVATE_FIX = 'private, loopback and link-local addresses are refused; if you trust this address, switch "allow private addresses" on for the fetch tool in the MCP servers page (Built-in tab)';

/** Fetches `url` (GET), following up to MAX_REDIRECTS redirects, each hop checked. */
export async function fetchPage(url: string, options: PageFetchOptions): Promise<FetchedPage> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS);
  let current = parseUrl(url);
  const seen: string[] = [];
  for (;;) {
    seen.push(current.href);
    const hop = await fetchOnce(current, options, deadline);
    if (hop.kind === 'page') return hop.page;
    if (seen.length > MAX_REDIRECTS) throw new FetchError('FETCH_TOO_MANY_REDIRECTS', `${url} redirected more than ${MAX_REDIRECTS} times (${seen.join(' → ')})`);
    if (!URL.canParse(hop.location, current.href)) throw new FetchError('FETCH_URL_INVALID', `${current.href} redirected to "${hop.location}", which is not a url`);
    current = parseUrl(new URL(hop.location, current).href, current.href);
  }
}

function parseUrl(text: string, redirectedFrom?: string): URL {
  const from = redirectedFrom ? ` (a redirect from ${redirectedFrom})` : '';
  if (!URL.canParse(text)) throw new FetchError('FETCH_URL_INVALID', `"${text}" is not a url${from}; give a full http(s) url such as https://example.com/page`);
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError('FETCH_SCHEME', `${url.protocol} urls are not fetched${from}: only http and https`);
  if (url.username || url.password) throw new FetchError('FETCH_URL_INVALID', `the url carries a user name or password${from}; they are not sent`);
  return url;
}

type Hop = { kind: 'page'; page: FetchedPage } | { kind: 'redirect'; location: string };

function fetchOnce(url: URL, options: PageFetchOptions, deadline: AbortSignal): Promise<Hop> {
  const isPrivate = options.isPrivate ?? isPrivateAddress;
  const resolve = options.resolve ?? systemResolve;
  const maxBytes = options.maxBytes ?? FETCH_MAX_BYTES;
  const refusePrivate = (address: string) => new FetchError('FETCH_PRIVATE_ADDRESS', `${url.hostname} is at ${address}, a private, loopback or link-local address (${url.href}); ${PRIVATE_FIX}`);

  const literal = bare(url.hostname);
  if (isIP(literal) && !options.allowPrivateAddresses && isPrivate(literal)) return Promise.reject(refusePrivate(literal));

  /** Set when the lookup refused: the request's error is then this, whatever net wrapped it in. */
  let refusal: Error | undefined;
  // net.connect asks this for a host name (never for an IP literal, checked above); the address it checked is the one connected to.
  const lookup = checkedLookup({
    resolve,
    refuse: (address) => (options.allowPrivateAddresses || !isPrivate(address) ? undefined : refusePrivate(address)),
    onRefused: (error) => (refusal = error),
  });

  return new Promise<Hop>((done, fail) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'GET',
      agent: false,
      lookup,
      signal: deadline,
      headers: {
        'user-agent': 'ChatOS-fetch/0.1 (+https://github.com/chatos)',
        accept: 'text/html,application/xhtml+xml,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.5',
        'accept-encoding': 'identity',
      },
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (refusal) fail(refusal);
      else if (deadline.aborted) fail(new FetchError('FETCH_TIMEOUT', `${url.href} did not answer in full within ${(options.timeoutMs ?? FETCH_TIMEOUT_MS) / 1000} s`));
      else fail(new FetchError('FETCH_FAILED', `${url.href} could not be fetched: ${error.code ?? error.message}`));
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.destroy();
        done({ kind: 'redirect', location });
        return;
      }
      const contentType = response.headers['content-type'] ?? '';
      const chunks: Buffer[] = [];
      let size = 0;
      let cut = false;
      const finish = () => done({ kind: 'page', page: { url: url.href, status, contentType, text: decode(Buffer.concat(chunks), contentType), cut } });
      response.on('data', (chunk: Buffer) => {
        if (cut) return;
        const room = maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          cut = true;
          // Enough read: the connection is closed, so the server stops sending (an endless body ends here).
          request.destroy();
          finish();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', () => {
        if (!cut) finish();
      });
      response.on('error', () => {});
    });
    request.end();
  });
}

/** The body as text in its declared charset; a label TextDecoder does not know reads as utf-8. */
function decode(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
