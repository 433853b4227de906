import type { ServerDefinition } from '../../../shared/mcp.js';
import type { SignInState } from '../../../shared/mcpAuth.js';
import { ownValue } from '../../../shared/ownKeys.js';
import type { Logger } from '../../ports.js';
import { suggestClosest } from '../../naming/suggest.js';
import type { ReadStoredValue } from '../config/envValues.js';
import { isRejectedServer } from '../config/mcpConfigLoader.js';
import type { OAuthService } from '../auth/oauthService.js';
import { oauthTargetOf } from '../auth/oauthTarget.js';
import { asStepError, type SignInOptions } from '../auth/signIn.js';
import { McpAdminError } from './mcpAdminError.js';
import { McpYamlFile } from './mcpYamlFile.js';

/**
 * Signing in to the user's remote servers (mcp.yaml `url:` entries), as
 * every face does it: the server card's Sign in / Sign out, `chatos mcp
 * login|logout`. The server is read from mcp.yaml as it is now; the tokens
 * go to the key store (OAuthService). A running host sees a sign-in at the
 * next request its connection makes: the token is read from the store on
 * every request.
 */
export class McpSignIn {
  private readonly file: McpYamlFile;
  /** Sign-ins in progress in this process, by server name: one at a time each, and cancellable. */
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly deps: { configFile: string; hostEnv: NodeJS.ProcessEnv; logger: Logger; oauth: OAuthService; readStoredValue: ReadStoredValue }) {
    this.file = new McpYamlFile(deps.configFile, deps.hostEnv, deps.logger);
  }

  private remote(name: string): ServerDefinition {
    const { load } = this.file.read();
    const servers = load.kind === 'loaded' ? load.servers : new Map();
    const found = servers.get(name);
    if (!found) {
      const close = suggestClosest(name, [...servers.keys()]);
      throw new McpAdminError(
        'MCP_SERVER_NOT_FOUND',
        `no server named "${name}" in ${this.deps.configFile}${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`,
        'list them with chatos mcp list (or see the MCP servers page)',
      );
    }
    if (isRejectedServer(found))
      throw new McpAdminError('MCP_SIGN_IN_UNSUPPORTED', `server "${name}" does not load as written, so it cannot be signed in to`, 'fix the problems chatos mcp list shows for it, then sign in');
    if (found.transport.kind !== 'streamable_http')
      throw new McpAdminError('MCP_SIGN_IN_UNSUPPORTED', `server "${name}" runs a local command; only remote (url) servers sign in`, 'give a local server its keys in env instead');
    return found;
  }

  async state(name: string): Promise<SignInState> {
    const def = this.remote(name);
    return this.deps.oauth.state({ serverId: def.id, serverUrl: (def.transport as { url: string }).url });
  }

  /**
   * Signs in: discovery, registration, the browser (`openBrowser`), the
   * loopback redirect, the token. Resolves with the new state; a failure is
   * MCP_SIGN_IN_FAILED naming the step and the fix, and stores nothing.
   */
  async signIn(name: string, options: Omit<SignInOptions, 'headers'>): Promise<SignInState> {
    const def = this.remote(name);
    this.running.get(name)?.abort();
    const controller = new AbortController();
    this.running.set(name, controller);
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    try {
      const target = await oauthTargetOf(def, this.deps.hostEnv, this.deps.readStoredValue).catch((error: unknown) => {
        throw asStepError(error, 'registration');
      });
      await this.deps.oauth.signIn(target, { ...options, signal, headers: await this.literalHeaders(def) });
      return await this.deps.oauth.state(target);
    } catch (error) {
      const step = asStepError(error, 'discovery');
      throw new McpAdminError('MCP_SIGN_IN_FAILED', `server "${name}": ${step.message}`, step.fix);
    } finally {
      if (this.running.get(name) === controller) this.running.delete(name);
    }
  }

  /** Ends a sign-in in progress (the browser tab may stay open; its answer is refused). True when there was one. */
  cancel(name: string): boolean {
    const controller = this.running.get(name);
    controller?.abort();
    return controller !== undefined;
  }

  /** Forgets the server's tokens and registration. True when there was something to forget. */
  async signOut(name: string): Promise<boolean> {
    const def = this.remote(name);
    this.cancel(name);
    return this.deps.oauth.signOut({ serverId: def.id, serverUrl: (def.transport as { url: string }).url });
  }

  /** The probe sends the server's own static headers (literal ones; a stored or env value is read as the connection does). */
  private async literalHeaders(def: ServerDefinition): Promise<Record<string, string>> {
    if (def.transport.kind !== 'streamable_http') return {};
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(def.transport.headers)) {
      const text = typeof value === 'string' ? value : 'env' in value ? ownValue(this.deps.hostEnv, value.env) : await this.deps.readStoredValue(value.secret);
      if (text !== undefined) Object.defineProperty(headers, key, { value: text, enumerable: true, writable: true, configurable: true });
    }
    return headers;
  }
}
