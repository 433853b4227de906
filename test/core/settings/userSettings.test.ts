import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../../src/api/hostApiService.js';
import { createHost } from '../../../src/core/host.js';
import { HostApiMethods } from '../../../src/shared/hostApi.js';
import { startTestHost } from '../../helpers/gatewayHost.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/**
 * The user's settings (docs/using/settings.md) through the HostApi as the
 * window sends them: stored in the admin DB and read back by a new host on
 * the same home; every change checked in the core (an unknown field, a
 * value out of range, an agent or model that does not exist, a model that
 * cannot embed), a refused patch storing nothing.
 */

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/artifacts${file}` };

async function settingsHost() {
  const started = await startTestHost();
  const { host } = started;
  await host.models.create({ id: 'gpt', name: 'GPT', api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt' });
  await host.models.create({ id: 'claude', name: 'Claude', api: 'anthropic', baseUrl: 'http://127.0.0.1:9', model: 'claude' });
  host.agents.create({ id: 'helper', name: 'Helper' });
  const api = createHostApiService(host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
  const update = async (patch: Record<string, unknown>) => api.handle({ method: 'settings.update', params: { patch } });
  const read = async () => {
    const reply = await api.handle({ method: 'settings.get', params: {} });
    if (!reply.ok) throw new Error(reply.error.message);
    return HostApiMethods['settings.get'].result.parse(reply.result);
  };
  return { ...started, update, read };
}

describe('the user settings', () => {
  it('are stored in the core, read back by a new host on the same home, and unset with null', async () => {
    const { host, update, read } = await settingsHost();
    expect((await read()).settings).toEqual({});
    expect((await read()).limits.memoryChars).toBe(4000);
    const changed = await update({ language: 'zh', theme: 'dark', fontSize: 16, defaultAgentId: 'helper', defaultModelId: 'gpt', memoryEmbeddingModel: 'gpt' });
    expect(changed).toMatchObject({ ok: true, result: { settings: { language: 'zh', theme: 'dark', fontSize: 16, defaultAgentId: 'helper', defaultModelId: 'gpt', memoryEmbeddingModel: 'gpt' } } });
    await host.save();

    const again = createHost({ home: host.setup.home.root, appRoot: repoRoot, builtinPluginsDir: tempDir('chatos-settings-builtin-'), defaultsDir: tempDir('chatos-settings-defaults-') });
    await again.start();
    try {
      expect(again.settings.get()).toMatchObject({ language: 'zh', theme: 'dark', fontSize: 16, defaultAgentId: 'helper' });
    } finally {
      await again.dispose();
    }

    expect(await update({ theme: null, fontSize: null })).toMatchObject({ ok: true, result: { settings: { language: 'zh', defaultAgentId: 'helper' } } });
    expect((await read()).settings).not.toHaveProperty('theme');
    // An agent deleted later: the default reads as unset, not as a dangling id.
    host.agents.delete('helper');
    expect((await read()).settings).not.toHaveProperty('defaultAgentId');
  });

  it('refuses what the page should never send, each with its field, and stores nothing of a refused patch', async () => {
    const { update, read } = await settingsHost();
    await update({ language: 'en' });
    const refusals: [Record<string, unknown>, string][] = [
      [{ language: 'fr' }, 'language'],
      [{ fontSize: 99 }, 'fontSize'],
      [{ fontSize: 14.5 }, 'fontSize'],
      [{ theme: 'dark', telemetry: true }, 'telemetry'],
      [{ language: 'zh', defaultAgentId: 'nobody' }, 'defaultAgentId'],
      [{ defaultModelId: 'missing' }, 'defaultModelId'],
      [{ memoryEmbeddingModel: 'claude' }, 'memoryEmbeddingModel'],
    ];
    for (const [patch, field] of refusals) {
      const reply = await update(patch);
      expect(reply, JSON.stringify(patch)).toMatchObject({ ok: false, error: { code: 'INVALID' } });
      expect(reply.ok ? [] : reply.error.fields?.map((f) => f.path), JSON.stringify(patch)).toContain(field);
    }
    // A `__proto__` key is data: it sets nothing here, and no object gains a theme.
    await update(JSON.parse('{"__proto__": {"theme": "dark"}}') as Record<string, unknown>);
    expect((await read()).settings).toEqual({ language: 'en' });
    expect(({} as Record<string, unknown>).theme).toBeUndefined();
  });
});
