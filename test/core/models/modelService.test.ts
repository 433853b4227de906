import * as fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgent } from '../../../src/core/agents/agentResolver.js';
import { ModelError } from '../../../src/core/models/modelError.js';
import { createHost, type Host } from '../../../src/core/host.js';
import { startProviderServer } from '../../helpers/providerServer.js';
import { tempDir } from '../../helpers/tempDir.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

const hosts: Host[] = [];

async function hostOn(home: string, env: NodeJS.ProcessEnv = {}): Promise<Host> {
  const host = createHost({ home, env, builtinPluginsDir: tempDir('chatos-models-builtin-'), defaultsDir: tempDir('chatos-models-defaults-') });
  hosts.push(host);
  await host.start();
  return host;
}

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
});

async function modelError(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

const KEY = 'sk-service-test-9f8e7d6c';
const base = { name: 'Local', api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } as const;

describe('ModelService: entries in the admin DB, keys in the SecretStore', () => {
  it('a stored key goes to the secrets file and never into the row; the view says only that it is set', async () => {
    const home = tempDir();
    const host = await hostOn(home);
    const entry = await host.models.create({ ...base, id: 'gpt' }, { apiKey: `  ${KEY}\n` });
    expect(entry.key).toEqual({ kind: 'stored' });
    await host.save();
    expect(fs.readFileSync(host.setup.home.adminDb()).includes(Buffer.from(KEY))).toBe(false);
    expect(JSON.parse(fs.readFileSync(host.setup.home.secretsFile, 'utf8')).secrets).toEqual({ 'model:gpt': KEY });
    const [view] = await host.models.list();
    expect(view!.keyState).toEqual({ source: 'stored', set: true });
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(await host.models.keyFor(entry)).toBe(KEY);
  });

  it('derives an id from the name, refuses a taken one, and reports invalid fields by path', async () => {
    const host = await hostOn(tempDir());
    expect((await host.models.create({ ...base, name: 'My GPT 4!' })).id).toBe('my_gpt_4');
    expect((await host.models.create({ ...base, name: 'My GPT 4!' })).id).toBe('my_gpt_4-2');
    // A name with nothing Latin in it: the provider's model name, not a bare "model".
    expect((await host.models.create({ ...base, name: '深度求索', model: 'deepseek-chat' })).id).toBe('deepseek-chat');
    expect((await host.models.create({ ...base, name: '深度求索', model: 'deepseek-chat' })).id).toBe('deepseek-chat-2');
    expect((await modelError(host.models.create({ ...base, id: 'my_gpt_4' }))).code).toBe('MODEL_EXISTS');
    const invalid = await modelError(host.models.create({ ...base, baseUrl: 'ftp://x', api: 'gemini', key: { kind: 'env', name: '1BAD' } }));
    expect(invalid.code).toBe('MODEL_INVALID');
    expect(invalid.fields.map((f) => f.path).sort()).toEqual(['api', 'baseUrl', 'key.name']);
    expect((await modelError(host.models.create({ ...base, baseUrl: 'https://user:pw@example.com/v1' }))).fields.map((f) => f.path)).toEqual(['baseUrl']);
  });

  it('an update keeps a stored key it is not given, replaces it when given, and forgets it when the entry stops using it', async () => {
    const host = await hostOn(tempDir(), { MY_KEY: 'from-env' });
    await host.models.create({ ...base, id: 'gpt' }, { apiKey: KEY });
    await host.models.update('gpt', { ...base, name: 'Renamed', key: { kind: 'stored' } });
    expect(await host.models.keyFor(host.models.require('gpt'))).toBe(KEY);
    await host.models.update('gpt', { ...base, key: { kind: 'stored' } }, { apiKey: 'sk-new' });
    expect(await host.models.keyFor(host.models.require('gpt'))).toBe('sk-new');
    await host.models.update('gpt', { ...base, key: { kind: 'env', name: 'MY_KEY' } });
    expect(await internalsOf(host).secrets.has('model:gpt')).toBe(false);
    expect(await host.models.keyFor(host.models.require('gpt'))).toBe('from-env');
    expect((await host.models.view(host.models.require('gpt'))).keyState).toEqual({ source: 'env', env: 'MY_KEY', set: true });
    // Back to stored without a value: there is none to use.
    const noKey = await modelError(host.models.update('gpt', { ...base, key: { kind: 'stored' } }));
    expect(noKey.fields).toEqual([{ path: 'apiKey', message: 'no key is stored yet' }]);
    expect((await modelError(host.models.update('nope', base))).code).toBe('MODEL_NOT_FOUND');
  });

  it('remove takes the stored key with it', async () => {
    const host = await hostOn(tempDir());
    await host.models.create({ ...base, id: 'gpt' }, { apiKey: KEY });
    expect(await host.models.remove('gpt')).toBe(true);
    expect(host.models.get('gpt')).toBeUndefined();
    expect(fs.readFileSync(host.setup.home.secretsFile, 'utf8')).not.toContain(KEY);
  });

  it('a key that should be there and is not is MODEL_KEY_MISSING, naming the variable or the store', async () => {
    const host = await hostOn(tempDir(), {});
    await host.models.create({ ...base, id: 'env', key: { kind: 'env', name: 'UNSET_KEY' } });
    const missing = await modelError(internalsOf(host).models.service.client('env'));
    expect(missing.code).toBe('MODEL_KEY_MISSING');
    expect(missing.message).toContain('UNSET_KEY, which is not set');
    expect((await host.models.view(host.models.require('env'))).keyState).toEqual({ source: 'env', env: 'UNSET_KEY', set: false });
  });

  it('an unsafe secrets file shows as a problem on the key, and the list still works', async () => {
    const host = await hostOn(tempDir());
    await host.models.create({ ...base, id: 'gpt' }, { apiKey: KEY });
    fs.chmodSync(host.setup.home.secretsFile, 0o644);
    const [view] = await host.models.list();
    expect(view!.keyState.set).toBe(false);
    expect(view!.keyState.problem).toContain(`chmod 600 ${host.setup.home.secretsFile}`);
  });

  it('test sends one tiny streamed request with the key and reports the answer, or the coded failure', async () => {
    const server = await startProviderServer();
    const host = await hostOn(tempDir());
    await host.models.create({ ...base, id: 'local', baseUrl: server.openaiUrl }, { apiKey: KEY });
    server.enqueue({ kind: 'reply', text: 'OK', usage: { input: 9, output: 1 } }, { kind: 'error', status: 401, message: 'Incorrect API key' });
    const ok = await host.models.test('local');
    expect(ok).toMatchObject({ ok: true, text: 'OK', usage: { inputTokens: 9, outputTokens: 1 } });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]!.body.max_tokens).toBe(32);
    expect(await host.models.test('local')).toMatchObject({ ok: false, error: { kind: 'auth', status: 401, message: 'Incorrect API key' } });
  });

  it('an agent naming a model that does not exist has an AGENT_MODEL_MISSING problem; an existing one none', async () => {
    const host = await hostOn(tempDir());
    await host.models.create({ ...base, id: 'gpt' });
    const deps = { registry: host.registry, catalog: host.plugins.catalog, models: host.models };
    const withModel = host.agents.create({ name: 'A', modelId: 'gpt', systemPrompt: 'Be kind.', subAgents: ['b'] });
    expect(withModel).toMatchObject({ modelId: 'gpt', systemPrompt: 'Be kind.', subAgents: ['b'] });
    expect(resolveAgent(withModel, deps).problems).toEqual([]);
    const missing = resolveAgent(host.agents.create({ name: 'B', modelId: 'gtp' }), deps).problems;
    expect(missing.map((p) => `${p.code} ${p.path}`)).toEqual(['AGENT_MODEL_MISSING modelId']);
    // An agent stored before models existed still reads, with the new fields defaulted.
    expect(host.agents.create({ name: 'Old' })).toMatchObject({ systemPrompt: '', subAgents: [] });
    expect(host.agents.get('old')!.modelId).toBeUndefined();
  });
});
