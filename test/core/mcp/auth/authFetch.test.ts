import { describe, expect, it } from 'vitest';
import { AUTH_FETCH_MAX_BYTES, authFetch } from '../../../../src/core/mcp/auth/authFetch.js';
import { OAuthStepError } from '../../../../src/core/mcp/auth/oauthStepError.js';
import { startEndlessServer } from '../../../helpers/endlessServer.js';

/** The sign-in fetch against an authorization server whose answers never end: each is refused at the limit, the connection closed there. */
describe('the sign-in fetch bounds every body', { timeout: 60_000 }, () => {
  it('a metadata document that never ends is refused at its limit; the host stops reading', async () => {
    const server = await startEndlessServer({ head: '{"issuer":"', piece: 'x'.repeat(16 * 1024) });
    const refusals: OAuthStepError[] = [];
    const fetch = authFetch({ serverUrl: new URL(server.url), step: () => 'authorization-server', onRefusal: (refusal) => refusals.push(refusal) });
    const error = await fetch(`${server.url}/.well-known/oauth-authorization-server`).catch((e: unknown) => e);
    await server.closed;
    expect(error).toBeInstanceOf(OAuthStepError);
    expect(error).toMatchObject({ step: 'authorization-server' });
    expect((error as Error).message).toContain(`its answer is larger than ${AUTH_FETCH_MAX_BYTES} bytes`);
    expect(refusals).toEqual([error]);
    expect(server.written).toBeLessThan(16 * 1024 * 1024);
  });

  it('a document within the limit is handed on whole, with its status and headers', async () => {
    const server = await startEndlessServer({ status: 201, headers: { 'x-marker': 'kept' }, head: '{"issuer":"', piece: 'y'.repeat(1024), total: 100 * 1024 });
    const response = await authFetch({ serverUrl: new URL(server.url) })(`${server.url}/register`, { method: 'POST' });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-marker')).toBe('kept');
    expect(await response.text()).toBe(`{"issuer":"${'y'.repeat(100 * 1024)}`);
  });
});

/** DNS rebinding: the address checked is the address connected to (docs/rules/security.md#outgoing-requests). */
describe('the sign-in fetch connects to the address it checked', { timeout: 60_000 }, () => {
  it('a name that answers a public address to the check and loopback next is refused at the connection, and nothing is sent', async () => {
    const server = await startEndlessServer({ head: '{"issuer":"x"}', total: 0 });
    const port = new URL(server.url).port;
    let lookups = 0;
    // The first answer passes the check; the next (the connection's) points at this machine.
    const resolve = async () => [{ address: lookups++ === 0 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    const fetch = authFetch({ serverUrl: new URL('https://mcp.example.com/mcp'), step: () => 'authorization-server', resolve });
    const error = await fetch(`https://rebind.test:${port}/.well-known/oauth-authorization-server`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthStepError);
    expect((error as Error).message).toContain("it points at a private or loopback address that is not the MCP server's own host");
    expect(lookups).toBe(2);
    expect(server.requests).toBe(0);
  });

  it("the MCP server's own host name is connected to at the address its lookup gave", async () => {
    const server = await startEndlessServer({ head: '{"issuer":"own"}', total: 0 });
    const port = new URL(server.url).port;
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const response = await authFetch({ serverUrl: new URL(`http://own.test:${port}/mcp`), resolve })(`http://own.test:${port}/.well-known/oauth-protected-resource/mcp`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"issuer":"own"}');
    expect(server.requests).toBe(1);
  });
});
