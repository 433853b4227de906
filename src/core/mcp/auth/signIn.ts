import { auth as exchangeWithIssuerCheck, discoverOAuthProtectedResourceMetadata, type OAuthClientProvider as ModernProvider } from '@modelcontextprotocol/client';
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { authFetch, type AuthFetchOptions } from './authFetch.js';
import { HostOAuthProvider, SignInNeededError, type ProviderContext } from './hostOAuthProvider.js';
import { startLoopbackCallback } from './loopbackCallback.js';
import { tokensOf } from './oauthRecord.js';
import { OAuthStepError, stepErrorIn, type OAuthStep } from './oauthStepError.js';

/** How a sign-in shows the authorization page: the system browser (desktop, CLI), a new tab of the user's page (serve), or a test. */
export type OpenBrowser = (url: URL) => Promise<void> | void;

export interface SignInOptions {
  openBrowser: OpenBrowser;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Static headers of the server (mcp.yaml `headers`), sent with the probe to its own url only. */
  headers?: Record<string, string>;
  /** For tests: how host names resolve, and how long one metadata or token request may take (see authFetch). */
  resolve?: AuthFetchOptions['resolve'];
  fetchTimeoutMs?: number;
}

/** What the server asked for the last time it refused (WWW-Authenticate), or the probe found. */
interface Challenge {
  scope?: string;
  resourceMetadataUrl?: string;
}

/**
 * The interactive sign-in, as a desktop app does it (RFC 8252): a loopback
 * redirect on 127.0.0.1 (random port, random state), the browser opened on
 * the authorization url, the code exchanged once it comes back. The SDK's
 * `auth()` does discovery (RFC 9728, RFC 8414 then OpenID), picks the client
 * (pre-registered, client ID metadata document, or dynamic registration),
 * PKCE S256, the `resource` parameter, the scope (the server's
 * WWW-Authenticate, else scopes_supported, else none) and the token
 * endpoint's auth method; HostOAuthProvider checks and stores what it finds.
 */
export async function signIn(context: ProviderContext, options: SignInOptions): Promise<void> {
  let step: OAuthStep = 'discovery';
  let refusal: OAuthStepError | undefined;
  const fetchFn = authFetch({ serverUrl: new URL(context.serverUrl), step: () => step, resolve: options.resolve, timeoutMs: options.fetchTimeoutMs, onRefusal: (error) => (refusal ??= error) });
  const record = await context.store.read(context.serverId, context.serverUrl);
  const challenge: Challenge | undefined = record?.challenge ?? (await probe(context.serverUrl, options.headers ?? {}, options.signal));
  // For more permissions, ask for what was granted as well (RFC 6749 scopes are a set).
  const granted = record?.challenge?.stepUp ? tokensOf(record)?.scope : undefined;
  const scope = union(granted, challenge?.scope);
  const callback = await startLoopbackCallback({ signal: options.signal, timeoutMs: options.timeoutMs });
  const provider = new HostOAuthProvider(
    { ...context, onStep: (next) => (step = next), refusal: () => refusal },
    { kind: 'signIn', redirectUrl: callback.redirectUrl, state: callback.state, openBrowser: options.openBrowser },
  );
  const resourceMetadataUrl = challenge?.resourceMetadataUrl ? new URL(challenge.resourceMetadataUrl) : undefined;
  try {
    // The authorization server's metadata must name the issuer it was asked for (RFC 8414 §3.3, MCP 2025-06-18 and
    // later), except for a 2025-03-26 server: it publishes no protected resource metadata, and its authorization
    // server is at its own origin, whose metadata may name another issuer path (the conformance suite's back-compat).
    const skipIssuerMetadataValidation = !(await discoverOAuthProtectedResourceMetadata(context.serverUrl, { resourceMetadataUrl }, fetchFn).then(
      () => true,
      () => false,
    ));
    const result = await exchangeWithIssuerCheck(provider as unknown as ModernProvider, { serverUrl: context.serverUrl, scope, resourceMetadataUrl, fetchFn, skipIssuerMetadataValidation });
    if (result === 'REDIRECT') {
      const code = await callback.code;
      step = 'token';
      // The code is redeemed by the v2 SDK's auth(), which checks the redirect's `iss` against the authorization server's
      // issuer first (RFC 9207, MCP 2026-07-28): a code from another server (a mix-up) is not redeemed.
      await exchangeWithIssuerCheck(provider as unknown as ModernProvider, {
        serverUrl: context.serverUrl,
        authorizationCode: code,
        iss: callback.iss(),
        scope,
        resourceMetadataUrl,
        fetchFn,
        skipIssuerMetadataValidation,
      });
    }
  } catch (error) {
    throw asStepError(error, step);
  } finally {
    callback.close();
  }
}

/** Any failure of a sign-in as a step's problem (the SDK's own errors name no step and no fix). */
export function asStepError(error: unknown, step: OAuthStep): OAuthStepError {
  const known = stepErrorIn(error);
  if (known) return known;
  if (error instanceof SignInNeededError) return new OAuthStepError(step, error.message, 'sign in again');
  const message = error instanceof Error ? error.message : String(error);
  const fix =
    step === 'registration'
      ? "the authorization server does not let ChatOS register itself: enter a client id (and secret) the server's operator gave you, under oauth: in the server's mcp.yaml entry, then sign in again"
      : step === 'token' || step === 'refresh'
        ? "sign in again; if it keeps failing, tell the server's operator"
        : "check the server's url and your network, then sign in again; if it keeps failing, tell the server's operator";
  return new OAuthStepError(step, message, fix);
}

const PROBE_TIMEOUT_MS = 15_000;

/**
 * Asks the server, without a token, what it wants: an `initialize` whose
 * 401 carries WWW-Authenticate (the resource metadata url, the scope).
 * Undefined when it answers without asking (it may need sign-in for some
 * calls only; discovery then starts at its well-known urls).
 */
export async function probe(serverUrl: string, headers: Record<string, string>, signal?: AbortSignal, timeoutMs = PROBE_TIMEOUT_MS): Promise<(Challenge & { status: number }) | undefined> {
  const deadline = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(serverUrl, {
      method: 'POST',
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'chatos', version: '0.1.0' } } }),
    });
  } catch (error) {
    throw new OAuthStepError('discovery', `the server at ${serverUrl} did not answer (${(error as Error).message})`, 'check that the url is right and the server is up, then sign in again');
  }
  await response.body?.cancel().catch(() => {});
  if (response.status !== 401 && response.status !== 403) return undefined;
  const params = extractWWWAuthenticateParams(response);
  return { status: response.status, scope: params.scope, resourceMetadataUrl: params.resourceMetadataUrl?.href };
}

/** Two space-separated scope lists as one, in order, without repeats. */
export function union(a: string | undefined, b: string | undefined): string | undefined {
  const all = [...new Set([...(a ?? '').split(' '), ...(b ?? '').split(' ')].filter(Boolean))];
  return all.length ? all.join(' ') : undefined;
}
