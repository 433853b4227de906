import { describe, expect, it } from 'vitest';
import { createUiAppsBackend } from '../../../plugins/canvas/backend/index.mjs';
import { CanvasStore } from '../../../plugins/canvas/mcp/store.mjs';
import { tempDir } from '../../helpers/tempDir.js';

function backendFor(dataDir: string) {
  return createUiAppsBackend({ pluginId: 'chatos.canvas', pluginDir: '/unused', dataDir, stateDir: tempDir(), sessionRoot: dataDir, projectRoot: dataDir });
}

describe('the canvas backend', () => {
  it("reads an instance's history, newest first, with who sent each call and its result", async () => {
    const dataDir = tempDir();
    const store = new CanvasStore(dataDir);
    await store.patch({ instance_id: 'demo', patches: [{ op: 'set', path: 'meta.status', value: 'submitted' }] }, { kind: 'page', appId: 'chatos.canvas', conversationId: 'ui-1', flow: 'main' });
    await store.patch({ instance_id: '__CREATE__', new_instance_id: 'other', patches: [] }, { kind: 'agent', agentId: 'a1', appId: 'chatos', conversationId: 'c1', flow: 'main' });
    await store.patch({ instance_id: 'demo', patches: [{ op: 'set', path: 'meta.status', value: 'done' }] }, { kind: 'agent', agentId: 'a1', appId: 'chatos', conversationId: 'c1', flow: 'main' });
    const backend = backendFor(dataDir);
    const { entries } = await backend.methods.history({ instance_id: 'demo' });
    expect(entries.map((e: any) => [e.caller.kind, e.result.status, e.result.code ?? e.result.revision])).toEqual([
      ['agent', 'error', 'INVALID_STRUCTURE'],
      ['page', 'success', 2],
    ]);
    backend.dispose();
  });

  it('waitForChange answers when another writer changes the folder, and after its timeout when nothing does', async () => {
    const dataDir = tempDir();
    const backend = backendFor(dataDir);
    const { stamp } = await backend.methods.waitForChange({});
    const quiet = await backend.methods.waitForChange({ since: stamp, timeoutMs: 50 });
    expect(quiet).toEqual({ stamp, changed: false });
    const waiting = backend.methods.waitForChange({ since: stamp });
    await new CanvasStore(dataDir).patch({ instance_id: 'demo', patches: [{ op: 'set', path: 'state.params.x', value: 1 }] }, { kind: 'client' });
    const woke = await waiting;
    expect(woke.changed).toBe(true);
    expect(woke.stamp).not.toBe(stamp);
    backend.dispose();
  });
});
