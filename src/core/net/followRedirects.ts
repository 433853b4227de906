/**
 * Following a download's redirects by hand, one hop at a time, each hop checked before it is asked: fetch's own
 * `redirect: 'follow'` goes from https down to plain http without a word, and anyone on the network path of that
 * plain-http hop could then change what the user asked for over https. Used where ChatOS downloads what it will
 * install or offer to install (an MCP Bundle, an MCP registry's catalog).
 */

/** Why a hop was not taken: `unreachable` (the fetch failed), `not-http`, `downgrade` (https to http), `refused` (the caller's own check), `too-many`. */
export type RedirectErrorCode = 'unreachable' | 'not-http' | 'downgrade' | 'refused' | 'too-many';

export class RedirectError extends Error {
  constructor(
    readonly code: RedirectErrorCode,
    /** The address asked (for `unreachable`) or the one that redirected. */
    readonly at: URL,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface FollowOptions {
  maxRedirects: number;
  /** The caller's own rule for a hop from `from` to `to` (an http(s) one that stays on https if it began there): a sentence refusing it, or undefined. */
  checkHop?: (from: URL, to: URL) => string | undefined;
  fetchImpl?: typeof fetch;
}

/** The answer at `url` (a GET with `init`), its redirects followed by hand: each hop checked, none from https down to http. */
export async function fetchFollowing(url: URL, init: RequestInit, options: FollowOptions): Promise<Response> {
  const fetchImpl = options.fetchImpl ?? fetch;
  let at = url;
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetchImpl(at, { ...init, redirect: 'manual' });
    } catch (error) {
      throw new RedirectError('unreachable', at, `${at.origin} could not be reached: ${(error as Error).message}`, { cause: error });
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel();
    const next = URL.canParse(location, at.href) ? new URL(location, at) : undefined;
    if (!next || (next.protocol !== 'https:' && next.protocol !== 'http:')) throw new RedirectError('not-http', at, `${at.origin} redirected to an address that is not http(s)`);
    if (at.protocol === 'https:' && next.protocol === 'http:') throw new RedirectError('downgrade', at, `${at.origin} redirected to ${next.origin} over plain http`);
    const refusal = options.checkHop?.(at, next);
    if (refusal !== undefined) throw new RedirectError('refused', at, refusal);
    if (hop >= options.maxRedirects) throw new RedirectError('too-many', at, `${url.origin} redirected more than ${options.maxRedirects} times`);
    at = next;
  }
}
