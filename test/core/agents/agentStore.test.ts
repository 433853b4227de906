import { describe, expect, it } from 'vitest';
import { AgentError } from '../../../src/core/agents/agentError.js';
import { createHost, type Host } from '../../../src/core/host.js';
import { waitUntil } from '../../helpers/gatewayHost.js';
import { tempDir } from '../../helpers/tempDir.js';

const hosts: Host[] = [];

async function hostOn(home: string): Promise<Host> {
  // No built-in plugins or defaults: the store needs only the admin DB.
  const host = createHost({ home, builtinPluginsDir: tempDir('chatos-agents-builtin-'), defaultsDir: tempDir('chatos-agents-defaults-') });
  hosts.push(host);
  await host.start();
  return host;
}

async function disposeAll() {
  for (const host of hosts.splice(0)) await host.dispose();
}

function thrown(fn: () => unknown): AgentError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected an AgentError, and nothing was thrown');
}

describe('AgentStore', () => {
  it('creates with the defaults filled in, gets, lists, updates and deletes', async () => {
    const host = await hostOn(tempDir());
    try {
      const created = host.agents.create({ id: 'writer', name: 'Writer', uiApps: [{ pluginId: 'chatos.notes', appId: 'notes', mcp: true }] });
      expect(created).toEqual({
        id: 'writer',
        name: 'Writer',
        description: '',
        hostAppId: 'chatos',
        language: 'zh',
        uiApps: [{ pluginId: 'chatos.notes', appId: 'notes', mcp: true, prompt: false, mcpServerIds: [], promptIds: [] }],
        systemPrompt: '',
        subAgents: [],
        knowledgeBases: [],
        roots: [],
      });
      expect(host.agents.get('writer')).toEqual(created);
      expect(host.agents.get('nobody')).toBeUndefined();
      expect(host.agents.list().map((a) => a.id)).toEqual(['writer']);

      // Update replaces every field; the id stays, even if the input names another.
      const updated = host.agents.update('writer', { id: 'other', name: 'Writer 2', language: 'en' });
      expect(updated).toEqual({ id: 'writer', name: 'Writer 2', description: '', hostAppId: 'chatos', language: 'en', uiApps: [], systemPrompt: '', subAgents: [], knowledgeBases: [], roots: [] });
      expect(host.agents.get('writer')).toEqual(updated);
      expect(host.agents.get('other')).toBeUndefined();

      expect(host.agents.delete('writer')).toBe(true);
      expect(host.agents.delete('writer')).toBe(false);
      expect(host.agents.list()).toEqual([]);
    } finally {
      await disposeAll();
    }
  });

  it('derives an id from the name, unique, and refuses a taken explicit id', async () => {
    const host = await hostOn(tempDir());
    try {
      expect(host.agents.create({ name: 'Note Keeper' }).id).toBe('note_keeper');
      expect(host.agents.create({ name: 'Note Keeper' }).id).toBe('note_keeper-2');
      expect(host.agents.create({ name: 'note keeper' }).id).toBe('note_keeper-3');
      expect(host.agents.create({ name: '笔记助手' }).id).toBe('agent');
      expect(host.agents.create({ name: '--Git Helper!' }).id).toBe('git_helper');
      const taken = thrown(() => host.agents.create({ id: 'note_keeper', name: 'Again' }));
      expect(taken.code).toBe('AGENT_EXISTS');
      expect(taken.message).toContain('"note_keeper"');
      expect(host.agents.get('note_keeper')!.name).toBe('Note Keeper');
    } finally {
      await disposeAll();
    }
  });

  it('reports every invalid field with its path, and writes nothing', async () => {
    const host = await hostOn(tempDir());
    try {
      const invalid = thrown(() => host.agents.create({ id: 'bad id!', name: '', language: 'fr', uiApps: [{ pluginId: '', appId: 'x', mcp: 'yes', mcpServerIds: ['a', 3] }] }));
      expect(invalid.code).toBe('AGENT_INVALID');
      expect(invalid.fields.map((f) => f.path).sort()).toEqual(['id', 'language', 'name', 'uiApps.0.mcp', 'uiApps.0.mcpServerIds.1', 'uiApps.0.pluginId']);
      expect(invalid.fields.find((f) => f.path === 'id')!.message).toContain('letter or digit');
      expect(host.agents.list()).toEqual([]);

      expect(thrown(() => host.agents.create([])).fields).toEqual([{ path: '(root)', message: expect.any(String) }]);

      host.agents.create({ id: 'ok', name: 'OK' });
      const badUpdate = thrown(() => host.agents.update('ok', { name: 'OK', uiApps: [{ appId: 'x' }] }));
      expect(badUpdate.code).toBe('AGENT_INVALID');
      expect(badUpdate.fields.map((f) => f.path)).toEqual(['uiApps.0.pluginId']);
      expect(host.agents.get('ok')!.name).toBe('OK');
      expect(thrown(() => host.agents.update('nobody', { name: 'X' })).code).toBe('AGENT_NOT_FOUND');
    } finally {
      await disposeAll();
    }
  });

  it('keeps ids that name nothing in the registry exactly as written', async () => {
    const host = await hostOn(tempDir());
    try {
      // The host's own ids, under ChatOS's own entry, even when they name nothing registered.
      const uiApps = [{ pluginId: 'chatos', appId: 'chatos', mcp: true, prompt: true, mcpServerIds: ['chatos::gone', 'chatos::gone'], promptIds: ['chatos::gone_prompt__en'] }];
      host.agents.create({ id: 'stale', name: 'Stale', uiApps });
      expect(host.agents.get('stale')!.uiApps).toEqual(uiApps);
    } finally {
      await disposeAll();
    }
  });

  it('persists across a new host on the same home, and two hosts at once see each other’s writes', async () => {
    const home = tempDir();
    const first = await hostOn(home);
    first.agents.create({ id: 'kept', name: 'Kept', language: 'en', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcpServerIds: ['chatos::y'] }] });
    await disposeAll();

    const second = await hostOn(home);
    const third = await hostOn(home);
    try {
      expect(second.agents.get('kept')).toMatchObject({ name: 'Kept', language: 'en', uiApps: [{ mcpServerIds: ['chatos::y'] }] });
      // Both write while both are open (writes reach the file after a short batching window): neither write is lost.
      second.agents.create({ id: 'from-second', name: 'S' });
      third.agents.create({ id: 'from-third', name: 'T' });
      const ids = (host: Host) =>
        host.agents
          .list()
          .map((a) => a.id)
          .sort();
      await waitUntil(() => ids(second).length === 3 && ids(third).length === 3, 'both hosts to see both writes');
      expect(ids(second)).toEqual(['from-second', 'from-third', 'kept']);
      expect(ids(third)).toEqual(['from-second', 'from-third', 'kept']);
      third.agents.delete('kept');
      await waitUntil(() => second.agents.get('kept') === undefined, 'the delete to reach the other host');
    } finally {
      await disposeAll();
    }
    const fourth = await hostOn(home);
    try {
      expect(
        fourth.agents
          .list()
          .map((a) => a.id)
          .sort(),
      ).toEqual(['from-second', 'from-third']);
    } finally {
      await disposeAll();
    }
  });
});
