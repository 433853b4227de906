import { createHash, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { afterEachTest } from './afterEachTest.js';

/**
 * A remote MCP server behind sign-in, for tests: one real HTTP server on
 * 127.0.0.1 that is both the protected MCP server (streamable HTTP at /mcp,
 * the SDK's server transport; a `whoami` tool and a `write_note` tool that
 * needs more scope) and its authorization server (RFC 9728 and RFC 8414
 * metadata, dynamic registration, /authorize that approves at once with a
 * redirect, /token with PKCE S256 and refresh). Tokens are JWT-shaped
 * (unsigned: the server keeps the ones it issued) with `aud` = the resource.
 * Options make it misbehave the ways a hostile or broken server might.
 */

export interface OAuthServerOptions {
  /** Scope the 401's WWW-Authenticate asks for (default "mcp:read"). */
  scope?: string;
  /** Scope a write_note call needs beyond it: a 403 insufficient_scope asks for it (step-up). */
  writeScope?: string;
  /** Seconds an access token lives (expires_in; default 3600). */
  tokenTtlSeconds?: number;
  /** Hand out refresh tokens (default true). */
  refresh?: boolean;
  /** Point token_endpoint at this host name instead of 127.0.0.1 (another host). */
  tokenEndpointHost?: string;
  /** The resource the protected resource metadata names (default this server's /mcp). */
  resource?: string;
  /** The authorization server the metadata names (default this server). */
  authorizationServer?: string;
  /** The `aud` of issued tokens (default the resource). */
  audience?: string;
  /** How the protected resource metadata misbehaves. */
  metadata?: 'huge' | 'slow' | 'loop';
  /** The account the id_token names. */
  account?: string;
  /** Lives until close() (a file's tests share it), instead of ending after the test. */
  shared?: boolean;
}

export interface OAuthServer {
  /** The MCP endpoint (http://127.0.0.1:PORT/mcp). */
  url: string;
  origin: string;
  /** Every request: method and path (query left out), the Authorization header's scheme. */
  requests: { method: string; path: string; auth?: string }[];
  /** Authorization requests, with their query. */
  authorizations: URLSearchParams[];
  /** Token requests, by grant type. */
  tokenGrants: string[];
  /** Access tokens the MCP endpoint accepted. */
  accepted: string[];
  /** Makes every access token issued so far invalid (as if it expired): the next call gets 401. */
  expireAccessTokens(): void;
  /** Makes refresh tokens invalid too (invalid_grant): the user must sign in again. */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

const servers: OAuthServer[] = [];
afterEachTest(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: Record<string, unknown>) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.sig`;

async function bodyOf(request: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

export async function startOAuthServer(options: OAuthServerOptions = {}): Promise<OAuthServer> {
  const scope = options.scope ?? 'mcp:read';
  const clients = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<string, { challenge: string; redirectUri: string; scope: string; clientId: string; resource?: string }>();
  const access = new Map<string, { scope: string[] }>();
  const refreshTokens = new Map<string, { scope: string }>();
  let origin = '';
  const state: OAuthServer = {
    url: '',
    origin: '',
    requests: [],
    authorizations: [],
    tokenGrants: [],
    accepted: [],
    expireAccessTokens: () => access.clear(),
    revokeRefreshTokens: () => refreshTokens.clear(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const issue = (grantedScope: string) => {
    const resource = options.resource ?? `${origin}/mcp`;
    const token = jwt({ aud: options.audience ?? resource, scope: grantedScope, sub: 'user-1', jti: randomBytes(8).toString('hex') });
    access.set(token, { scope: grantedScope.split(' ').filter(Boolean) });
    const result: Record<string, unknown> = {
      access_token: token,
      token_type: 'Bearer',
      expires_in: options.tokenTtlSeconds ?? 3600,
      scope: grantedScope,
      id_token: jwt({ sub: 'user-1', email: options.account ?? 'ada@example.com' }),
    };
    if (options.refresh ?? true) {
      const refreshToken = randomBytes(16).toString('hex');
      refreshTokens.set(refreshToken, { scope: grantedScope });
      result.refresh_token = refreshToken;
    }
    return result;
  };

  const json = (response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const challenge = () => `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="${scope}"`;

  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const auth = request.headers.authorization;
    state.requests.push({ method: request.method ?? '', path: url.pathname, ...(auth ? { auth: auth.split(' ')[0] } : {}) });
    try {
      if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
        if (options.metadata === 'slow') return; // never answers
        if (options.metadata === 'loop') {
          response.writeHead(302, { location: url.pathname });
          return void response.end();
        }
        if (options.metadata === 'huge') {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write(`{"resource":"${origin}/mcp","authorization_servers":["${origin}"],"padding":"`);
          for (let i = 0; i < 64; i++) response.write('x'.repeat(64 * 1024));
          return void response.end('"}');
        }
        return json(response, 200, {
          resource: options.resource ?? `${origin}/mcp`,
          authorization_servers: [options.authorizationServer ?? origin],
          scopes_supported: [scope, ...(options.writeScope ? [options.writeScope] : [])],
        });
      }
      if (url.pathname === '/.well-known/oauth-authorization-server') {
        const tokenOrigin = options.tokenEndpointHost ? `http://${options.tokenEndpointHost}:${new URL(origin).port}` : origin;
        return json(response, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${tokenOrigin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      }
      if (url.pathname === '/register' && request.method === 'POST') {
        const body = JSON.parse(await bodyOf(request)) as { redirect_uris: string[] };
        const clientId = `client-${randomBytes(6).toString('hex')}`;
        clients.set(clientId, { redirectUris: body.redirect_uris });
        return json(response, 201, { ...body, client_id: clientId, token_endpoint_auth_method: 'none' });
      }
      if (url.pathname === '/authorize') {
        state.authorizations.push(url.searchParams);
        const q = url.searchParams;
        const clientId = q.get('client_id') ?? '';
        const redirectUri = q.get('redirect_uri') ?? '';
        // RFC 8252 §7.3: a loopback redirect may use any port.
        const registered = clients.get(clientId)?.redirectUris.some((uri) => new URL(uri).hostname === new URL(redirectUri).hostname) ?? false;
        if (!registered || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return json(response, 400, { error: 'invalid_request' });
        const code = randomBytes(12).toString('hex');
        codes.set(code, { challenge: q.get('code_challenge')!, redirectUri, scope: q.get('scope') ?? '', clientId, resource: q.get('resource') ?? undefined });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        if (q.get('state')) back.searchParams.set('state', q.get('state')!);
        response.writeHead(302, { location: back.href });
        return void response.end();
      }
      if (url.pathname === '/token' && request.method === 'POST') {
        const form = new URLSearchParams(await bodyOf(request));
        const grant = form.get('grant_type') ?? '';
        state.tokenGrants.push(grant);
        if (grant === 'authorization_code') {
          const code = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          if (!code || createHash('sha256').update(verifier).digest('base64url') !== code.challenge || form.get('redirect_uri') !== code.redirectUri)
            return json(response, 400, { error: 'invalid_grant' });
          return json(response, 200, issue(code.scope));
        }
        if (grant === 'refresh_token') {
          const known = refreshTokens.get(form.get('refresh_token') ?? '');
          if (!known) return json(response, 400, { error: 'invalid_grant', error_description: 'refresh token revoked' });
          refreshTokens.delete(form.get('refresh_token') ?? '');
          return json(response, 200, issue(known.scope));
        }
        return json(response, 400, { error: 'unsupported_grant_type' });
      }
      if (url.pathname === '/mcp') {
        const token = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
        const granted = token ? access.get(token) : undefined;
        if (!granted) return json(response, 401, { error: 'invalid_token' }, { 'www-authenticate': challenge() });
        const text = await bodyOf(request);
        const body = text ? (JSON.parse(text) as { method?: string; params?: { name?: string } }) : undefined;
        if (options.writeScope && body?.method === 'tools/call' && body.params?.name === 'write_note' && !granted.scope.includes(options.writeScope)) {
          const needed = [scope, options.writeScope].join(' ');
          return json(
            response,
            403,
            { error: 'insufficient_scope' },
            { 'www-authenticate': `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` },
          );
        }
        state.accepted.push(token!);
        const mcp = new McpServer({ name: 'oauth-test', version: '1.0.0' });
        mcp.registerTool('whoami', { description: 'Who the token belongs to', inputSchema: { greeting: z.string().optional() } }, async () => ({
          content: [{ type: 'text', text: `hello user-1 (scopes: ${granted.scope.join(' ')})` }],
        }));
        mcp.registerTool('write_note', { description: 'Needs the write scope', inputSchema: { text: z.string().optional() } }, async () => ({ content: [{ type: 'text', text: 'note written' }] }));
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        response.on('close', () => void transport.close());
        await mcp.connect(transport);
        return void (await transport.handleRequest(request, response, body));
      }
      json(response, 404, { error: 'not_found' });
    } catch (error) {
      if (!response.headersSent) json(response, 500, { error: 'server_error', error_description: (error as Error).message });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.origin = origin;
  state.url = `${origin}/mcp`;
  if (!options.shared) servers.push(state);
  return state;
}

/** Plays the browser: opens the authorization url, follows the authorization server's redirect back to the loopback listener, once. */
export async function approveInBrowser(authorizationUrl: URL): Promise<Response> {
  const answer = await fetch(authorizationUrl, { redirect: 'manual' });
  await answer.body?.cancel();
  const location = answer.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${answer.status} without a redirect`);
  return fetch(new URL(location, authorizationUrl), { redirect: 'manual' });
}
