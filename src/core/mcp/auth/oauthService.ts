import { extractWWWAuthenticateParams, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SignInState } from '../../../shared/mcpAuth.js';
import type { SecretStore } from '../../secrets/secretStore.js';
import { authFetch, type AuthFetchOptions } from './authFetch.js';
import { HostOAuthProvider, type OAuthClientSettings, type ProviderContext } from './hostOAuthProvider.js';
import { expiresAtOf, tokensOf } from './oauthRecord.js';
import { OAuthStore } from './oauthStore.js';
import type { OAuthStepError } from './oauthStepError.js';
import { probe, signIn, union, type SignInOptions } from './signIn.js';

/** How often a sign-in for more permissions may be answered by the same refusal before ChatOS stops asking (the step-up retry limit). */
export const STEP_UP_LIMIT = 2;

/** A remote server as sign-in sees it: which server, at which url, with which client. */
export interface OAuthTarget {
  serverId: string;
  serverUrl: string;
  client: OAuthClientSettings;
}

/** What a connection gives its StreamableHTTPClientTransport: the SDK's authProvider, and the fetch it uses. */
export interface ConnectionAuth {
  authProvider: OAuthClientProvider;
  fetch: FetchLike;
}

/**
 * Sign-in to remote MCP servers (the MCP authorization spec), over the
 * host's key store: what a connection sends, the interactive sign-in, sign
 * out, and the state each face shows. See docs in hostOAuthProvider.ts and
 * signIn.ts.
 */
export class OAuthService {
  private readonly store: OAuthStore;

  constructor(private readonly options: { secrets: SecretStore; now: () => number; resolve?: AuthFetchOptions['resolve']; fetchTimeoutMs?: number }) {
    this.store = new OAuthStore(options.secrets);
  }

  private context(target: OAuthTarget): ProviderContext {
    return { serverId: target.serverId, serverUrl: target.serverUrl, client: target.client, store: this.store, now: this.options.now };
  }

  /**
   * The transport's auth for one connection. The fetch sends the server's
   * static headers to its own url only, notes every WWW-Authenticate
   * challenge (401, 403 insufficient_scope) for the next sign-in, and sends
   * everything else the SDK fetches (discovery, refresh) through authFetch.
   */
  forConnection(target: OAuthTarget, headers: Record<string, string>): ConnectionAuth {
    const endpoint = new URL(target.serverUrl);
    let refusal: OAuthStepError | undefined;
    const guarded = authFetch({ serverUrl: endpoint, step: () => 'refresh', resolve: this.options.resolve, timeoutMs: this.options.fetchTimeoutMs, onRefusal: (error) => (refusal ??= error) });
    const fetchFn: FetchLike = async (input, init) => {
      const url = new URL(String(input));
      if (url.origin !== endpoint.origin || url.pathname !== endpoint.pathname) return guarded(input, init);
      const merged = new Headers(init?.headers);
      for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
      const response = await fetch(url, { ...init, headers: merged });
      if (response.status === 401 || response.status === 403) await this.noteChallenge(target, response);
      return response;
    };
    return { authProvider: new HostOAuthProvider({ ...this.context(target), refusal: () => refusal }, { kind: 'connect' }), fetch: fetchFn };
  }

  /** Keeps what the server asked for: the next sign-in asks for that scope, at that metadata url. */
  private async noteChallenge(target: OAuthTarget, response: Response): Promise<void> {
    const params = extractWWWAuthenticateParams(response);
    const stepUp = response.status === 403 && params.error === 'insufficient_scope';
    if (response.status === 403 && !stepUp) return;
    await this.store.update(target.serverId, target.serverUrl, (record) => {
      const granted = stepUp ? tokensOf(record)?.scope : undefined;
      const scope = stepUp ? union(granted, params.scope) : params.scope;
      return {
        ...record,
        challenge: { scope, resourceMetadataUrl: params.resourceMetadataUrl?.href ?? record.challenge?.resourceMetadataUrl, ...(stepUp ? { stepUp: true } : {}) },
        // Other permissions asked for start the count again; the same ones keep it (each sign-in for them adds one).
        stepUp: !stepUp ? record.stepUp : record.stepUp?.scope === scope ? record.stepUp : { scope, attempts: 0 },
      };
    });
  }

  /**
   * Asks a just added (or imported) server, without a token, whether it
   * needs sign-in, and keeps what it asked for: its card then says "Sign
   * in". A server that does not answer is left as it is (its start says why).
   */
  async discover(target: Pick<OAuthTarget, 'serverId' | 'serverUrl'>, timeoutMs = 5_000): Promise<SignInState> {
    const asked = await probe(target.serverUrl, {}, undefined, timeoutMs).catch(() => undefined);
    if (asked?.status === 401) {
      await this.store.update(target.serverId, target.serverUrl, (record) => ({ ...record, challenge: { scope: asked.scope, resourceMetadataUrl: asked.resourceMetadataUrl } }));
    }
    return this.state(target);
  }

  /** Whether the server asked for more permissions more often than the limit allows: then ChatOS stops asking. */
  async stepUpExhausted(target: OAuthTarget): Promise<string | undefined> {
    const record = await this.store.read(target.serverId, target.serverUrl);
    return record?.challenge?.stepUp && (record.stepUp?.attempts ?? 0) >= STEP_UP_LIMIT ? (record.challenge.scope ?? '') : undefined;
  }

  signIn(target: OAuthTarget, options: SignInOptions): Promise<void> {
    return signIn(this.context(target), { resolve: this.options.resolve, fetchTimeoutMs: this.options.fetchTimeoutMs, ...options });
  }

  /**
   * Forgets the server's tokens and registration (the authorization
   * server's own session, in the browser, is the user's). The server is
   * still known to need sign-in, so its card offers Sign in again.
   */
  async signOut(target: Pick<OAuthTarget, 'serverId' | 'serverUrl'>): Promise<boolean> {
    const record = await this.store.read(target.serverId, target.serverUrl);
    if (!record) return this.store.remove(target.serverId);
    await this.store.remove(target.serverId);
    await this.store.update(target.serverId, target.serverUrl, (fresh) => ({
      ...fresh,
      challenge: {
        ...(record.challenge?.scope && !record.challenge.stepUp ? { scope: record.challenge.scope } : {}),
        ...(record.challenge?.resourceMetadataUrl ? { resourceMetadataUrl: record.challenge.resourceMetadataUrl } : {}),
      },
    }));
    return record.tokens !== undefined || record.client !== undefined;
  }

  /** Forgets everything of the server (it was removed). */
  forget(target: Pick<OAuthTarget, 'serverId'>): Promise<boolean> {
    return this.store.remove(target.serverId);
  }

  async state(target: Pick<OAuthTarget, 'serverId' | 'serverUrl'>): Promise<SignInState> {
    const record = await this.store.read(target.serverId, target.serverUrl);
    const tokens = tokensOf(record);
    if (!record) return { kind: 'none' };
    if (record.challenge?.stepUp && tokens) return { kind: 'again', reason: 'the server needs more permissions', ...(record.challenge.scope ? { scope: record.challenge.scope } : {}) };
    if (record.again) return { kind: 'again', reason: record.again };
    if (!tokens) return record.challenge ? { kind: 'needed', ...(record.challenge.scope ? { scope: record.challenge.scope } : {}) } : { kind: 'none' };
    const expiresAt = expiresAtOf(record);
    const refreshable = tokens.refresh_token !== undefined;
    if (expiresAt !== undefined && expiresAt <= this.options.now() && !refreshable) return { kind: 'again', reason: 'the sign-in expired' };
    return {
      kind: 'signed-in',
      refreshable,
      ...(record.account ? { account: record.account } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
    };
  }
}
