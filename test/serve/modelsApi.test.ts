import * as fs from 'node:fs';
import * as path from 'node:path';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { HostApiMethods, HostEventSchema } from '../../src/shared/hostApi.js';
import { waitUntil } from '../helpers/gatewayHost.js';
import { startProviderServer } from '../helpers/providerServer.js';
import { tempDir } from '../helpers/tempDir.js';
import { api, lineMatching, serve } from './serveProcess.js';

/**
 * The models methods of a real `chatos serve`, over HTTP and the events
 * socket: a key given to models.save reaches the provider and nothing else:
 * not a reply, not an event, not serve's output, not a file under the data
 * home but the secrets file.
 */

const KEY = 'sk-serve-api-HhT4r9Qw2mZ';

describe('HostApi models over chatos serve', () => {
  it('saves, lists (masked), tests and removes a model; the key is in no reply, event, log or other file', async () => {
    const provider = await startProviderServer();
    const home = tempDir();
    const served = serve(['--port', '0', '--home', home, '--json', '--no-watch']);
    const [line] = await lineMatching(served, /^\{"url".*\}$/m);
    const url = new URL(JSON.parse(line).url);
    const token = url.searchParams.get('token')!;

    const events: string[] = [];
    const socket = new WebSocket(`ws://${url.host}/events?token=${token}`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.on('message', (data) => events.push(data.toString()));

    const replies: string[] = [];
    const call = async (method: keyof typeof HostApiMethods, params: unknown = {}) => {
      const reply = await api(url, token, method, params);
      replies.push(JSON.stringify(reply));
      return reply;
    };

    const presets = await call('models.presets');
    expect(presets.result.presets.map((p: { id: string }) => p.id)).toContain('lmstudio');
    const saved = await call('models.save', { model: { id: 'local', name: 'Local', api: 'openai-responses', baseUrl: provider.openaiUrl, model: 'test-model', vision: true }, apiKey: KEY });
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
    expect(HostApiMethods['models.save'].result.parse(saved.result).model).toMatchObject({ id: 'local', key: { kind: 'stored' }, keyState: { source: 'stored', set: true } });

    const listed = await call('models.list');
    expect(listed.result.keyStore).toEqual({ kind: 'private-file', file: path.join(home, 'chatos', 'secrets.json') });
    expect(listed.result.models).toHaveLength(1);

    provider.enqueue({ kind: 'reply', text: 'OK' }, { kind: 'error', status: 401, message: `invalid key ${KEY}` });
    expect((await call('models.test', { id: 'local' })).result).toMatchObject({ ok: true, text: 'OK' });
    expect(provider.requests[0]!.path).toBe('/v1/responses');
    expect(provider.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    const failed = HostApiMethods['models.test'].result.parse((await call('models.test', { id: 'local' })).result);
    expect(failed).toMatchObject({ ok: false, error: { kind: 'auth', status: 401, message: 'invalid key ***' } });

    // Edited without a key: the stored one stays; an invalid edit names its field.
    const edited = await call('models.save', { id: 'local', model: { name: 'Renamed', api: 'openai-responses', baseUrl: provider.openaiUrl, model: 'test-model', key: { kind: 'stored' } } });
    expect(edited.result.model).toMatchObject({ name: 'Renamed', keyState: { set: true } });
    const invalid = await call('models.save', { id: 'local', model: { name: 'x', api: 'openai', baseUrl: 'nope', model: 'm' } });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID', fields: [{ path: 'baseUrl' }] } });
    expect((await call('models.save', { model: { name: 'x' }, apiKey: '' })).error.code).toBe('BAD_REQUEST');

    expect((await call('models.remove', { id: 'local' })).result).toEqual({ removed: true });
    expect((await call('models.remove', { id: 'local' })).error.code).toBe('MODEL_NOT_FOUND');

    await waitUntil(() => events.filter((e) => e.includes('models.changed')).length >= 3, 'three models.changed events');
    for (const event of events) expect(HostEventSchema.safeParse(JSON.parse(event)).success).toBe(true);
    socket.close();
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);

    for (const text of [...replies, ...events, served.stdout(), served.stderr()]) expect(text).not.toContain(KEY);
    const secrets = path.join(home, 'chatos', 'secrets.json');
    for (const entry of fs.readdirSync(home, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (entry.isFile() && file !== secrets) expect(fs.readFileSync(file).includes(Buffer.from(KEY)), file).toBe(false);
    }
  }, 300_000);
});
