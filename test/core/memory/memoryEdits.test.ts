import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../../src/api/hostApiService.js';
import { MemoryStore } from '../../../src/core/memory/memoryStore.js';
import { silentLogger } from '../../../src/core/ports.js';
import { HostApiMethods } from '../../../src/shared/hostApi.js';
import { MAX_MEMORY_CHARS } from '../../../src/shared/memory.js';
import { startTestHost, textOf } from '../../helpers/gatewayHost.js';

/**
 * Memories the user edits (docs/using/memory.md): an edit records who made
 * it beside who first saved the memory, on disk; a memory of 1 MB reaches
 * the core through the HostApi and is refused there with the limit, not by
 * a bare schema error, and nothing is stored.
 */

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/artifacts${file}` };

async function hostWithMemory() {
  const { host } = await startTestHost();
  const helper = host.agents.create({ id: 'helper', name: 'Helper', memory: { enabled: true, shared: false } });
  const caller = host.agents.resolve(helper).callerFor('main', 'c1');
  const api = createHostApiService(host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
  return { host, caller, api };
}

describe('memory edits', () => {
  it('keep who first saved a memory and record who changed it, on disk', async () => {
    const { host, caller, api } = await hostWithMemory();
    const saved = await host.tools.call(caller, 'memory_remember', { text: 'The user prefers short answers.' });
    expect(textOf(saved.result)).toMatch(/^Remembered as m_/);
    const [memory] = (await host.agents.memory.list('helper')).memories;
    expect(memory).toMatchObject({ by: 'helper', text: 'The user prefers short answers.' });
    expect(memory!.changedBy).toBeUndefined();

    const reply = await api.handle({ method: 'memory.update', params: { agentId: 'helper', id: memory!.id, text: 'The user prefers short answers, in English.' } });
    expect(reply.ok).toBe(true);
    const edited = HostApiMethods['memory.update'].result.parse(reply.ok ? reply.result : undefined).memory;
    expect(edited).toMatchObject({ id: memory!.id, by: 'helper', changedBy: 'user', text: 'The user prefers short answers, in English.' });

    // Read back from the file by a store of its own: the editor is kept, not only shown.
    const fresh = new MemoryStore({ dir: host.setup.home.memoryDir, now: () => Date.now(), logger: silentLogger });
    expect(fresh.list({ kind: 'agent', id: 'helper' })[0]).toMatchObject({ by: 'helper', changedBy: 'user' });

    // The agent saving the same text again is a change by the agent: it is named, the user's edit no longer is.
    await host.tools.call(caller, 'memory_remember', { text: 'The user prefers short answers, in English.' });
    expect((await host.agents.memory.list('helper')).memories[0]).toMatchObject({ by: 'helper', changedBy: 'helper' });
    // Recall finds the edited text.
    const recalled = await host.tools.call(caller, 'memory_recall', { query: 'English answers' });
    expect(textOf(recalled.result)).toContain('The user prefers short answers, in English.');
  });

  it('refuse a memory of 1 MB in the core with the limit and its size, storing nothing', async () => {
    const { host, api } = await hostWithMemory();
    const huge = 'x'.repeat(1024 * 1024);
    const added = await api.handle({ method: 'memory.remember', params: { agentId: 'helper', text: huge } });
    expect(added).toMatchObject({ ok: false, error: { code: 'MEMORY_TOO_LARGE' } });
    expect(added.ok ? '' : added.error.message).toContain(`at most ${MAX_MEMORY_CHARS} characters; this one has ${huge.length}`);
    expect((await host.agents.memory.list('helper')).total).toBe(0);

    const kept = await host.agents.memory.remember('helper', 'Stand-up is at 9:30.');
    const edited = await api.handle({ method: 'memory.update', params: { agentId: 'helper', id: kept.id, text: huge } });
    expect(edited).toMatchObject({ ok: false, error: { code: 'MEMORY_TOO_LARGE' } });
    expect((await host.agents.memory.list('helper')).memories.map((m) => m.text)).toEqual(['Stand-up is at 9:30.']);
    expect((await host.agents.memory.list('helper')).maxChars).toBe(MAX_MEMORY_CHARS);
  });
});
