import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import { HostApiMethods, type HostApiMethod, type HostApiParams, type HostApiResult } from '../../src/shared/hostApi.js';
import { startTestHost } from '../helpers/gatewayHost.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * Workspace roots over the HostApi (docs/reference/host-api.md#workspace-roots):
 * an agent saved with roots, a conversation's own set and cleared, and bad
 * folders refused as INVALID with a field each, nothing saved.
 */

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/artifacts${file}` };

async function call<M extends HostApiMethod>(api: ReturnType<typeof createHostApiService>, method: M, params: HostApiParams<M>): Promise<HostApiResult<M>> {
  const reply = await api.handle({ method, params });
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return HostApiMethods[method].result.parse(reply.result) as HostApiResult<M>;
}

describe('workspace roots over the HostApi', () => {
  it("an agent's roots, a Playground conversation's own, and bad folders refused naming each", async () => {
    const { host } = await startTestHost();
    const api = createHostApiService(host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
    const [a, b] = [tempDir('chatos-root-a-'), tempDir('chatos-root-b-')];
    await call(api, 'agents.save', { agent: { id: 'coder', name: 'Coder', roots: [a] } });

    expect(await call(api, 'conversations.roots', { conversationId: 'playground-1', agentId: 'coder' })).toEqual({ roots: [a], own: false });
    expect(await call(api, 'conversations.setRoots', { conversationId: 'playground-1', roots: [b] })).toEqual({ roots: [b], own: true });
    expect(await call(api, 'conversations.roots', { conversationId: 'playground-1' })).toEqual({ roots: [b], own: true });

    const missing = path.join(b, 'missing');
    expect(await api.handle({ method: 'conversations.setRoots', params: { conversationId: 'playground-1', roots: [a, 'docs', missing] } })).toEqual({
      ok: false,
      error: {
        code: 'INVALID',
        message: 'the roots are not valid: roots.1: must be an absolute folder path (starting with / or a drive letter such as C:\\)',
        fields: [{ path: 'roots.1', message: 'must be an absolute folder path (starting with / or a drive letter such as C:\\)' }],
      },
    });
    expect(await api.handle({ method: 'conversations.setRoots', params: { conversationId: 'playground-1', roots: [a, missing] } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID', fields: [{ path: 'roots.1', message: `${missing} does not exist; create the folder or remove it from the list` }] },
    });
    expect(await api.handle({ method: 'agents.save', params: { id: 'coder', agent: { name: 'Coder', roots: [a, a] } } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID', fields: [{ path: 'roots.1', message: `${a} is listed twice; list each folder once` }] },
    });
    // Nothing of a refused change was kept.
    expect(await call(api, 'conversations.roots', { conversationId: 'playground-1' })).toEqual({ roots: [b], own: true });
    expect(await call(api, 'conversations.setRoots', { conversationId: 'playground-1', roots: null })).toEqual({ roots: [a], own: false });
  });
});
