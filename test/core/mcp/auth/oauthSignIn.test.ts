import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthService, type OAuthTarget } from '../../../../src/core/mcp/auth/oauthService.js';
import { OAuthStepError } from '../../../../src/core/mcp/auth/oauthStepError.js';
import { ServerConnection } from '../../../../src/core/mcp/connection/serverConnection.js';
import { McpRuntimeError } from '../../../../src/core/mcp/mcpRuntimeError.js';
import { ServerLog } from '../../../../src/core/mcp/process/serverLog.js';
import { RUN_ALLOWED } from '../../../../src/core/policy/runGate.js';
import { FileSecretStore } from '../../../../src/core/secrets/fileSecretStore.js';
import { approveInBrowser, startOAuthServer, type OAuthServer, type OAuthServerOptions } from '../../../helpers/oauthServer.js';
import { testServerDefinition } from '../../../helpers/serverDefinition.js';
import { tempDir } from '../../../helpers/tempDir.js';

/**
 * Sign-in to a remote MCP server against a local authorization server
 * (test/helpers/oauthServer.ts): the host's OAuthService and the real
 * ServerConnection, real HTTP, the real loopback redirect; the test plays
 * the browser.
 */

const connections: ServerConnection[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close(0);
});

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

async function world(options: OAuthServerOptions = {}) {
  const server = await startOAuthServer(options);
  const secretsFile = path.join(tempDir(), 'secrets.json');
  const oauth = new OAuthService({ secrets: new FileSecretStore(secretsFile, { logger: quiet }), now: () => Date.now(), fetchTimeoutMs: 2_000 });
  const definition = testServerDefinition('remote', { transport: { kind: 'streamable_http', url: server.url, headers: {} }, trulyStateless: true, timeoutMs: 10_000 });
  const target: OAuthTarget = { serverId: definition.id, serverUrl: server.url, client: {} };
  const connect = () => {
    const connection = new ServerConnection(definition, {
      log: new ServerLog(),
      hostEnv: process.env,
      clientInfo: { name: 'chatos', version: '0.1.0' },
      now: () => Date.now(),
      gate: () => RUN_ALLOWED,
      oauth,
    });
    connections.push(connection);
    return connection;
  };
  const secretsText = () => (fs.existsSync(secretsFile) ? fs.readFileSync(secretsFile, 'utf8') : '');
  return { server, oauth, target, connect, secretsText, secretsFile, signIn: (open = approveInBrowser) => oauth.signIn(target, { openBrowser: async (url) => void (await open(url)) }) };
}

async function failure<T>(promise: Promise<T>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

const codeOf = (error: Error) => (error instanceof McpRuntimeError ? error.code : error.name);

describe('signing in to a remote MCP server (OAuth)', () => {
  it('asks for sign-in, signs in through the loopback redirect with PKCE, state and resource, then calls with the token', async () => {
    const { server, oauth, target, connect, signIn, secretsText, secretsFile } = await world();
    const first = connect();
    const needed = await failure(first.start());
    expect(codeOf(needed)).toBe('SIGN_IN_NEEDED');
    expect(needed.message).toContain('mcp:read');
    expect(await oauth.state(target)).toEqual({ kind: 'needed', scope: 'mcp:read' });

    await signIn();
    const [authorization] = server.authorizations;
    expect(authorization!.get('code_challenge_method')).toBe('S256');
    expect(authorization!.get('resource')).toBe(server.url);
    expect(authorization!.get('scope')).toBe('mcp:read');
    expect(authorization!.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(new URL(authorization!.get('redirect_uri')!).hostname).toBe('127.0.0.1');
    const state = await oauth.state(target);
    expect(state).toMatchObject({ kind: 'signed-in', account: 'ada@example.com', scope: 'mcp:read', refreshable: true });
    expect((state as { expiresAt: number }).expiresAt).toBeGreaterThan(Date.now() + 3_000_000);

    const connection = connect();
    await connection.start();
    const result = await connection.callTool('whoami', {}, {});
    expect(result.content).toEqual([{ type: 'text', text: 'hello user-1 (scopes: mcp:read)' }]);
    // The token is in the key store (a 0600 file here), and went only to the server's own /mcp.
    expect(secretsText()).toContain('access_token');
    expect(fs.statSync(secretsFile).mode & 0o077).toBe(0);
    expect(server.requests.filter((r) => r.auth === 'Bearer').every((r) => r.path === '/mcp')).toBe(true);
  });

  it('refreshes an expired token once by itself; when the refresh is refused, asks to sign in again', async () => {
    const { server, oauth, target, connect, signIn } = await world();
    await signIn();
    const connection = connect();
    await connection.start();
    server.expireAccessTokens();
    const renewed = await connection.callTool('whoami', {}, {});
    expect(renewed.isError).toBeFalsy();
    expect(server.tokenGrants).toEqual(['authorization_code', 'refresh_token']);

    server.expireAccessTokens();
    server.revokeRefreshTokens();
    const again = await failure(connection.callTool('whoami', {}, {}));
    expect(codeOf(again)).toBe('SIGN_IN_NEEDED');
    expect(await oauth.state(target)).toMatchObject({ kind: 'again' });
    expect(server.tokenGrants).toEqual(['authorization_code', 'refresh_token', 'refresh_token']);
  });

  it('steps up on 403 insufficient_scope: the next sign-in asks for the granted and the new scope', async () => {
    const { server, oauth, target, connect, signIn } = await world({ writeScope: 'mcp:write' });
    await signIn();
    const connection = connect();
    await connection.start();
    const more = await failure(connection.callTool('write_note', { text: 'x' }, {}));
    expect(codeOf(more)).toBe('SIGN_IN_NEEDED');
    expect(more.message).toContain('mcp:read mcp:write');
    expect(await oauth.state(target)).toMatchObject({ kind: 'again', scope: 'mcp:read mcp:write' });

    await signIn();
    expect(server.authorizations[1]!.get('scope')).toBe('mcp:read mcp:write');
    const written = await connection.callTool('write_note', { text: 'x' }, {});
    expect(written.content).toEqual([{ type: 'text', text: 'note written' }]);
  });

  it('signs out: the tokens are forgotten, and the next call asks to sign in', async () => {
    const { oauth, target, connect, signIn, secretsText } = await world();
    await signIn();
    const connection = connect();
    await connection.start();
    expect(secretsText()).toContain('access_token');
    expect(await oauth.signOut(target)).toBe(true);
    expect(secretsText()).not.toContain('access_token');
    // Still known to ask for sign-in: its card offers Sign in again.
    expect(await oauth.state(target)).toEqual({ kind: 'needed' });
    expect(codeOf(await failure(connection.callTool('whoami', {}, {})))).toBe('SIGN_IN_NEEDED');
  });
});

describe('sign-in refusals: the step is named, nothing is sent where it should not go, no token is stored', () => {
  async function refused(options: OAuthServerOptions, open?: (url: URL) => Promise<unknown>) {
    const w = await world(options);
    const error = await failure(w.signIn(open ? async (url) => (await open(url)) as Response : undefined));
    expect(error).toBeInstanceOf(OAuthStepError);
    expect(w.secretsText()).not.toContain('access_token');
    return { ...w, error: error as OAuthStepError };
  }

  it('refuses a token endpoint on another host before any code is asked for', async () => {
    const { server, error } = await refused({ tokenEndpointHost: 'localhost' });
    expect(error.step).toBe('authorization-server');
    expect(error.message).toContain('token_endpoint');
    expect(error.message).toContain('another host');
    expect(server.authorizations).toEqual([]);
    expect(server.tokenGrants).toEqual([]);
  });

  it("refuses a redirect whose state is not this sign-in's (another process, a stale tab)", async () => {
    const { server, error } = await refused({}, async (url) => {
      const answer = await fetch(url, { redirect: 'manual' });
      const back = new URL(answer.headers.get('location')!);
      back.searchParams.set('state', 'forged-by-someone-else');
      const page = await fetch(back);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('does not belong to the sign-in');
    });
    expect(error.step).toBe('authorization');
    expect(error.message).toContain('state');
    expect(server.tokenGrants).toEqual([]);
  });

  it('takes a callback once: a second hit is refused and nothing is exchanged twice', async () => {
    const { server, signIn } = await world();
    let second: Response | undefined;
    await signIn(async (url) => {
      const answer = await fetch(url, { redirect: 'manual' });
      const back = new URL(answer.headers.get('location')!);
      const first = await fetch(back);
      expect(await first.text()).toContain('You can close this tab');
      second = await fetch(back).catch(() => new Response(null, { status: 599 }));
      return first;
    });
    expect([400, 599]).toContain(second!.status);
    expect(server.tokenGrants).toEqual(['authorization_code']);
  });

  it('refuses protected resource metadata for another resource', async () => {
    const { error } = await refused({ resource: 'https://evil.example.com/mcp' });
    expect(error.step).toBe('discovery');
    expect(error.message).toContain('https://evil.example.com/mcp');
  });

  it('refuses a token issued for another audience, and stores nothing', async () => {
    const { error, server } = await refused({ audience: 'https://other.example.com/api' });
    expect(error.step).toBe('token');
    expect(error.message).toContain('another resource');
    expect(server.tokenGrants).toEqual(['authorization_code']);
  });

  it("refuses an authorization server on a private address that is not the server's own host, without connecting", async () => {
    const { error } = await refused({ authorizationServer: 'https://10.1.2.3/' });
    expect(error.message).toContain('private');
  });

  it('refuses an authorization server given as a file: url', async () => {
    const { error, server } = await refused({ authorizationServer: 'file:///etc/passwd' });
    expect(error.step).toBe('discovery');
    expect(server.authorizations).toEqual([]);
  });

  it('refuses huge metadata at its size limit', async () => {
    const { error } = await refused({ metadata: 'huge' });
    expect(error.step).toBe('discovery');
    expect(error.message).toContain('larger than');
  });

  it('gives up on metadata that never answers', async () => {
    const { error } = await refused({ metadata: 'slow' });
    expect(error.step).toBe('discovery');
    expect(error.message).toContain('did not answer');
  });

  it('ends a redirect loop in the metadata instead of following it forever', async () => {
    const { server, error } = await refused({ metadata: 'loop' });
    expect(error.step).toBe('discovery');
    expect(error.message).toContain('redirects in a loop');
    const hits = server.requests.filter((r) => r.path === '/.well-known/oauth-protected-resource/mcp').length;
    expect(hits).toBeLessThanOrEqual(2);
    expect(server.authorizations).toEqual([]);
  });
});
