import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { checkResourceAllowed, resourceUrlFromServerUrl } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { clientOf, tokensOf, type OAuthRecord } from './oauthRecord.js';
import type { OAuthStore } from './oauthStore.js';
import { OAuthStepError, type OAuthStep } from './oauthStepError.js';
import { accountOf, audienceMismatch } from './tokenClaims.js';

/** A pre-registered client (mcp.yaml `oauth:` or the sign-in form), or a client ID metadata document url. */
export interface OAuthClientSettings {
  clientId?: string;
  clientSecret?: string;
  /** An https url of ChatOS's client ID metadata document, used where the authorization server supports them. */
  clientMetadataUrl?: string;
}

/** Thrown when a connection needs the user to sign in (or sign in again, or grant more): no browser is opened from a call. */
export class SignInNeededError extends Error {
  override readonly name = 'SignInNeededError';

  constructor(
    message: string,
    readonly scope?: string,
  ) {
    super(message);
  }
}

export interface ProviderContext {
  serverId: string;
  serverUrl: string;
  store: OAuthStore;
  client: OAuthClientSettings;
  now: () => number;
  /** Told as the flow moves on, so a failure names its step. */
  onStep?: (step: OAuthStep) => void;
  /** The first request authFetch refused in this flow (the SDK takes a failed metadata request for none; the flow stops instead). */
  refusal?: () => OAuthStepError | undefined;
}

export const CLIENT_NAME = 'ChatOS';

/**
 * The SDK's OAuthClientProvider for one server, over the host's key store.
 * Two uses:
 *
 * - `connect`: what a connection gives its transport. It sends the stored
 *   token, and lets the SDK refresh it once when the server answers 401;
 *   anything that would need the user (no token, refresh refused, more
 *   scope) ends in SignInNeededError, never in a browser opened by a call.
 * - `signIn`: the interactive sign-in (signIn.ts): a fresh authorization
 *   with the loopback redirect, PKCE and state.
 *
 * Both check what discovery found before anything is sent (saveDiscoveryState):
 * the resource must be this server, the authorization server's endpoints
 * must be on its own host; and every token before it is stored (saveTokens):
 * a JWT whose audience is another resource is refused.
 */
export class HostOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private resource: string | undefined;

  constructor(
    private readonly context: ProviderContext,
    private readonly mode: { kind: 'connect' } | { kind: 'signIn'; redirectUrl: string; state: string; openBrowser: (url: URL) => Promise<void> | void },
  ) {}

  get redirectUrl(): string {
    // A connection never redirects (redirectToAuthorization refuses), but the SDK takes a flow without one for client_credentials.
    return this.mode.kind === 'signIn' ? this.mode.redirectUrl : 'http://127.0.0.1/callback';
  }

  get clientMetadataUrl(): string | undefined {
    return this.context.client.clientMetadataUrl;
  }

  /** `application_type` is 2026-07-28's (SEP-837); the v1 SDK's type predates it and sends the metadata as given. */
  get clientMetadata(): OAuthClientMetadata & { application_type: 'native' } {
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // SEP-837 (MCP 2026-07-28): a client registering says what it is; a desktop app with a loopback redirect is `native` (OIDC Registration §2).
      application_type: 'native',
      // A desktop app is a public client (RFC 8252 §8.4): no secret is assumed; the server may still issue one.
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.mode.kind === 'signIn' ? this.mode.state : '';
  }

  private read(): Promise<OAuthRecord | undefined> {
    return this.context.store.read(this.context.serverId, this.context.serverUrl);
  }

  private update(change: (record: OAuthRecord) => OAuthRecord): Promise<OAuthRecord> {
    return this.context.store.update(this.context.serverId, this.context.serverUrl, change);
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const record = await this.read();
    if (this.mode.kind === 'connect') {
      // Without a token nothing but a sign-in helps: no registration is made from a call.
      const tokens = tokensOf(record);
      if (!tokens) throw new SignInNeededError(record?.again ?? 'the server asks you to sign in', record?.challenge?.scope);
    }
    const { clientId, clientSecret } = this.context.client;
    if (clientId) return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
    return clientOf(record);
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    // A pre-registered client lives in mcp.yaml and the key store's {secret:}, not here.
    if (this.context.client.clientId && information.client_id === this.context.client.clientId) return;
    await this.update((record) => ({ ...record, client: information }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // A sign-in starts afresh: a stored refresh token is not used in its place.
    if (this.mode.kind === 'signIn') return undefined;
    const record = await this.read();
    const tokens = tokensOf(record);
    if (!tokens || record?.again) return undefined;
    // More permissions are needed: a refresh would only renew the scope the server just refused.
    if (record?.challenge?.stepUp) {
      const { refresh_token: _dropped, ...rest } = tokens;
      return rest;
    }
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const accepted = [this.context.serverUrl, resourceUrlFromServerUrl(this.context.serverUrl).href, new URL(this.context.serverUrl).origin, ...(this.resource ? [this.resource] : [])];
    const other = audienceMismatch(tokens.access_token, accepted);
    if (other !== undefined) {
      throw new OAuthStepError(
        this.mode.kind === 'signIn' ? 'token' : 'refresh',
        `the authorization server issued a token for another resource (audience ${other}), not for ${this.context.serverUrl}; it was not stored`,
        'the authorization server is misconfigured for this server; tell its operator',
      );
    }
    const account = accountOf(tokens.id_token);
    await this.update((record) => {
      const stepUp = record.challenge?.stepUp === true;
      return {
        ...record,
        tokens,
        obtainedAt: this.context.now(),
        ...(account ? { account } : {}),
        again: undefined,
        // Each sign-in for more permissions counts, until the server asks for other ones (OAuthService.noteChallenge).
        stepUp: stepUp && this.mode.kind === 'signIn' && record.stepUp ? { ...record.stepUp, attempts: record.stepUp.attempts + 1 } : record.stepUp,
        challenge: this.mode.kind === 'signIn' ? undefined : record.challenge,
      };
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.mode.kind !== 'signIn') {
      const record = await this.read();
      throw new SignInNeededError(record?.challenge?.stepUp ? 'the server needs more permissions than you granted' : 'the token expired and could not be refreshed', record?.challenge?.scope);
    }
    if (authorizationUrl.protocol !== 'https:' && authorizationUrl.protocol !== 'http:') {
      throw new OAuthStepError('authorization-server', `its authorization endpoint is a ${authorizationUrl.protocol} url`, "the authorization server's metadata is wrong; tell the server's operator");
    }
    this.context.onStep?.('authorization');
    await this.mode.openBrowser(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new OAuthStepError('token', 'no sign-in was started in this process', 'sign in again');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'discovery') return;
    await this.update((record) => ({
      ...record,
      ...(scope === 'all' || scope === 'client' ? { client: undefined } : {}),
      ...(scope === 'all' || scope === 'tokens' ? { tokens: undefined, again: record.tokens ? 'the authorization server no longer accepts the stored sign-in' : record.again } : {}),
    }));
  }

  /** What this sign-in's discovery found (and saveDiscoveryState checked): the code's leg redeems it at the same authorization server. */
  private discovered: OAuthDiscoveryState | undefined;

  /**
   * The v2 SDK binds the code's exchange to the authorization server the first leg found (RFC 9207 issuer check,
   * MCP 2026-07-28): it reads the discovery back here. Kept for this provider's life only (one sign-in, one connection).
   */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovered;
  }

  /** Called by the SDK right after discovery, before anything is registered, opened or sent: the place to refuse what it found. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    const refused = this.context.refusal?.();
    if (refused) throw refused;
    checkDiscovery(this.context.serverUrl, state);
    this.discovered = state;
    this.resource = state.resourceMetadata?.resource;
    this.context.onStep?.('registration');
  }
}

/**
 * What discovery found, refused when it does not belong to this server:
 * a protected resource that is not this server (RFC 9728 §3.3), an
 * authorization server whose token, registration or authorization
 * endpoint is on another host than itself, or an endpoint that is not
 * http(s).
 */
export function checkDiscovery(serverUrl: string, state: OAuthDiscoveryState): void {
  const resource = state.resourceMetadata?.resource;
  if (resource !== undefined && !checkResourceAllowed({ requestedResource: resourceUrlFromServerUrl(serverUrl), configuredResource: resource })) {
    throw new OAuthStepError(
      'discovery',
      `the server's protected resource metadata is for ${resource}, not for ${serverUrl}`,
      "check the server's url (it may be a different server's address), or tell its operator that its metadata names the wrong resource",
    );
  }
  let issuer: URL;
  try {
    issuer = new URL(state.authorizationServerUrl);
  } catch {
    throw new OAuthStepError('discovery', `its authorization server "${state.authorizationServerUrl}" is not a url`, "tell the server's operator");
  }
  const metadata = state.authorizationServerMetadata;
  if (!metadata) return;
  for (const [field, value] of [
    ['authorization_endpoint', metadata.authorization_endpoint],
    ['token_endpoint', metadata.token_endpoint],
    ['registration_endpoint', metadata.registration_endpoint],
  ] as const) {
    if (value === undefined) continue;
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new OAuthStepError('authorization-server', `its ${field} is a ${url.protocol} url`, "the authorization server's metadata is wrong; tell the server's operator");
    }
    if (url.hostname !== issuer.hostname) {
      throw new OAuthStepError(
        'authorization-server',
        `its ${field} (${url.origin}) is on another host than the authorization server (${issuer.origin}); no code or token is sent there`,
        "the authorization server's metadata is wrong or hostile; tell the server's operator",
      );
    }
  }
}
