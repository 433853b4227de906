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
