import { describe, expect, it } from 'vitest';
import { SidePanelStore } from '../../renderer/src/components/sidePanel/sidePanelState.js';

/** A Storage of one process: what the store wrote is what the next store reads. */
function memoryStorage(initial?: string) {
  let saved = initial ?? null;
  return {
    getItem: () => saved,
    setItem: (_key: string, value: string) => void (saved = value),
    get saved() {
      return saved;
    },
  };
}

/** The side panel's memory (docs/using/side-panel.md#how-it-behaves): per conversation, across reloads, bounded. */
describe('the side panels of the conversations', () => {
  it('keeps each conversation its own panel, and the next page load finds it as it was left', () => {
    const storage = memoryStorage();
    const store = new SidePanelStore(storage);
    let changes = 0;
    store.subscribe(() => (changes += 1));
    store.open('a', { kind: 'canvas', instanceId: 'signup' });
    store.open('b', { kind: 'uiApp', pluginId: 'chatos.notes', appId: 'notes' });
    store.close('b');
    // The same content again is no change.
    store.open('a', { kind: 'canvas', instanceId: 'signup' });
    expect(changes).toBe(3);

    const next = new SidePanelStore(storage);
    expect(next.get('a')).toEqual({ open: true, content: { kind: 'canvas', instanceId: 'signup' }, instance: 'signup' });
    expect(next.get('b')).toEqual({ open: false, last: { kind: 'uiApp', pluginId: 'chatos.notes', appId: 'notes' } });
    expect(next.get('never-seen')).toEqual({ open: false });
  });

  it('remembers the Canvas instance while another app is shown', () => {
    const store = new SidePanelStore(memoryStorage());
    store.open('a', { kind: 'canvas', instanceId: 'signup' });
    store.open('a', { kind: 'uiApp', pluginId: 'chatos.notes', appId: 'notes' });
    store.close('a');
    expect(store.get('a').instance).toBe('signup');
  });

  it('drops what it cannot read back (another version, a hand edit), keeps the rest, and remembers at most 100 conversations', () => {
    const storage = memoryStorage(
      JSON.stringify([
        ['ok', { open: true, content: { kind: 'canvas', instanceId: 'x' } }],
        ['unknown-kind', { open: true, content: { kind: 'iframe', url: 'https://evil.example' } }],
        ['missing-field', { open: true, content: { kind: 'uiApp', pluginId: 'p' } }],
        ['__proto__', { open: true, content: { kind: 'canvas', instanceId: 'y' } }],
        [42, { open: true }],
      ]),
    );
    const store = new SidePanelStore(storage);
    expect(store.get('ok').open).toBe(true);
    expect(store.get('unknown-kind').open).toBe(false);
    expect(store.get('missing-field').open).toBe(false);
    // An id is data, never a property lookup.
    expect(store.get('__proto__')).toEqual({ open: true, content: { kind: 'canvas', instanceId: 'y' } });
    expect(new SidePanelStore(memoryStorage('{not json')).get('ok')).toEqual({ open: false });

    for (let i = 0; i < 150; i += 1) store.open(`c${i}`, { kind: 'canvas', instanceId: 'i' });
    const saved = JSON.parse(storage.saved!) as [string, unknown][];
    expect(saved).toHaveLength(100);
    expect(saved.at(-1)![0]).toBe('c149');
    expect(new SidePanelStore(storage).get('c49').open).toBe(false);
    expect(new SidePanelStore(storage).get('c50').open).toBe(true);
  });
});
