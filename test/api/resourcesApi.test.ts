import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import { HostApiMethods, type HostApiMethod, type HostApiParams, type HostApiResult } from '../../src/shared/hostApi.js';
import { EVERYTHING_SERVER, startTestHost, writeMcpYaml } from '../helpers/gatewayHost.js';

/**
 * Resources over the HostApi (docs/reference/host-api.md): an agent granted
 * the reference server lists, completes and reads through it; one that is
 * not granted is refused NOT_GRANTED with the fix.
 */

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/artifacts${file}` };
const SERVER = 'chatos::everything';

async function call<M extends HostApiMethod>(api: ReturnType<typeof createHostApiService>, method: M, params: HostApiParams<M>): Promise<HostApiResult<M>> {
  const reply = await api.handle({ method, params });
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return HostApiMethods[method].result.parse(reply.result) as HostApiResult<M>;
}

describe('resources over the HostApi', () => {
  it('lists, completes and reads for a granted agent; refuses one that is not', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }));
    const api = createHostApiService(host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
    await call(api, 'agents.save', { agent: { id: 'reader', name: 'Reader', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: [SERVER] }] } });
    const asker = { agentId: 'reader', conversationId: 'playground-r', serverId: SERVER };

    const listing = await call(api, 'resources.list', asker);
    expect(listing.templates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    expect(await call(api, 'resources.complete', { ...asker, uriTemplate: 'demo://resource/dynamic/text/{resourceId}', name: 'resourceId', value: '12' })).toEqual({ values: ['12'] });
    const read = await call(api, 'resources.read', { ...asker, uri: 'demo://resource/dynamic/text/12' });
    expect(read.contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/12', mimeType: 'text/plain' });
    expect(await call(api, 'resources.subscribe', { ...asker, uri: 'demo://resource/dynamic/text/12', subscribed: true })).toEqual({ subscribed: true });

    await call(api, 'agents.save', {
      agent: { id: 'outsider', name: 'Outsider', hostAppId: 'com.example.other', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: [SERVER] }] },
    });
    const refused = await api.handle({ method: 'resources.read', params: { agentId: 'outsider', conversationId: 'playground-o', serverId: SERVER, uri: 'demo://resource/dynamic/text/12' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_GRANTED' } });
  });
});
