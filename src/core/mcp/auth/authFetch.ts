import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { readBodyBytes } from '../../net/boundedBody.js';
import { checkedLookup, systemResolve } from '../../net/checkedLookup.js';
import { isLoopbackName } from '../../net/loopback.js';
import { isPrivateAddress } from '../../net/privateAddress.js';
import { lookupFetch } from '../../net/lookupFetch.js';
import { OAuthStepError, type OAuthStep } from './oauthStepError.js';

/**
 * The fetch every sign-in request goes through (metadata, registration,
 * token, refresh): the SDK's auth functions take it as `fetchFn`. What it
 * adds to the SDK, which already follows redirects only within an origin
 * (at most 5, so a redirect loop ends):
 *
 * - only http(s); plain http only to the MCP server's own host or loopback;
 * - no private, loopback or link-local address unless it is the MCP
 *   server's own host (a metadata document cannot point ChatOS at the
 *   user's router or cloud metadata service), checked again on the
 *   address the request connects to (checkedLookup: a name that answers
 *   a public address first and a private one next cannot get around it);
 * - a deadline per request, body included (a slow document fails);
 * - a size limit on every body (a huge document fails before it is parsed);
 * - a redirect back to a url already fetched (a loop) fails.
 *
 * The SDK reads a failed protected resource metadata request as "no
 * metadata" and falls back to older discovery; `onRefusal` hears every
 * refusal, so the sign-in can stop there instead (HostOAuthProvider).
 */

export const AUTH_FETCH_TIMEOUT_MS = 15_000;
export const AUTH_FETCH_MAX_BYTES = 256 * 1024;
const NO_BODY = [101, 204, 205, 304];

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

export interface AuthFetchOptions {
  /** The MCP server's url: its own host may be private (a server on this machine or the LAN), no other may. */
  serverUrl: URL;
  /** Which step a refusal names (requests before the token exchange are discovery). */
  step?: () => OAuthStep;
  timeoutMs?: number;
  maxBytes?: number;
  /** Resolves a host name, for the check and for the connection (tests may point one at loopback). */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** What requests are sent with; default a fetch that connects through the checked lookup. */
  base?: FetchLike;
  /** Told of every refusal, before it is thrown. */
  onRefusal?: (error: OAuthStepError) => void;
}

const PRIVATE_REFUSAL = {
  why: "it points at a private or loopback address that is not the MCP server's own host",
  fix: "only the MCP server's own host may be on a private network; the server's metadata is wrong or hostile, tell its operator",
};

export function authFetch(options: AuthFetchOptions): FetchLike {
  const timeoutMs = options.timeoutMs ?? AUTH_FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? AUTH_FETCH_MAX_BYTES;
  const resolve = options.resolve ?? systemResolve;
  const stepOf = options.step ?? (() => 'discovery' as const);
  const own = options.serverUrl.hostname;
  const fetched = new Set<string>();

  return async (input, init) => {
    const url = new URL(String(input));
    const refuse = (why: string, fix: string) => {
      const error = new OAuthStepError(stepOf(), `${why} (${url.origin}${url.pathname})`, fix);
      options.onRefusal?.(error);
      return error;
    };
    // The connection's own lookup checks the address it connects to (the MCP server's own host may be private).
    let refusedAtConnect: OAuthStepError | undefined;
    const base =
      options.base ??
      lookupFetch(
        checkedLookup({
          resolve,
          refuse: (address) => (url.hostname === own || !isPrivateAddress(address) ? undefined : refuse(PRIVATE_REFUSAL.why, PRIVATE_REFUSAL.fix)),
          onRefused: (error) => (refusedAtConnect = error as OAuthStepError),
        }),
      );
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw refuse(`a ${url.protocol} url is not fetched`, 'the server or its authorization server is misconfigured: its metadata must name https urls; tell its operator');
    const ownHost = url.hostname === own;
    if (url.protocol === 'http:' && !ownHost && !isLoopbackName(url.hostname)) {
      throw refuse('plain http to a host other than the MCP server is refused', "the authorization server must be reached over https; tell the server's operator");
    }
    if (!ownHost) {
      let addresses: string[];
      try {
        addresses = isIP(bare(url.hostname)) ? [bare(url.hostname)] : (await resolve(url.hostname)).map((entry) => entry.address);
      } catch (error) {
        throw refuse(`its host could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`, 'check your network connection, then sign in again');
      }
      if (addresses.some(isPrivateAddress)) throw refuse(PRIVATE_REFUSAL.why, PRIVATE_REFUSAL.fix);
    }
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    let response: Response;
    try {
      response = await base(url, { ...init, redirect: 'manual', signal });
      fetched.add(url.href);
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location && URL.canParse(location, url.href) && fetched.has(new URL(location, url).href)) {
        await response.body?.cancel();
        throw refuse('it redirects in a loop', "the server's metadata is misconfigured; tell its operator");
      }
      const head = { status: response.status, statusText: response.statusText, headers: response.headers };
      // A Response with one of these statuses refuses a body.
      if (NO_BODY.includes(response.status)) {
        await response.body?.cancel();
        return new Response(null, head);
      }
      // Read here, within the deadline, not later by the SDK.
      const tooLarge = () => refuse(`its answer is larger than ${maxBytes} bytes`, "the server's metadata is not a sign-in document; tell its operator");
      return new Response(await readBodyBytes(response, { maxBytes, tooLarge }), head);
    } catch (error) {
      if (error instanceof OAuthStepError) throw error;
      if (refusedAtConnect) throw refusedAtConnect;
      if (deadline.aborted) throw refuse(`it did not answer within ${timeoutMs / 1000} s`, 'check your network connection and that the server is up, then sign in again');
      throw error;
    }
  };
}
