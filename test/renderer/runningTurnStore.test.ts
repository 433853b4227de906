import { describe, expect, it } from 'vitest';
import { MAX_CHARS, MAX_EVENTS, runningTurnStore } from '../../renderer/src/components/chat/runningTurnStore.js';
import type { HostEventMessage } from '../../src/shared/hostApi.js';

const running = (conversationId: string): HostEventMessage => ({ type: 'chat.status', conversationId, status: 'running' }) as HostEventMessage;
const ended = (conversationId: string): HostEventMessage => ({ type: 'chat.status', conversationId, status: 'done' }) as HostEventMessage;
const delta = (conversationId: string, text: string): HostEventMessage => ({ type: 'chat.delta', conversationId, messageId: 'm1', text });

describe('the kept events of running turns', () => {
  it('keeps a running turn whole, in order, per conversation, and forgets it when the turn ends', () => {
    const store = runningTurnStore();
    store.keep(delta('c1', 'before the turn'));
    store.keep(running('c1'));
    store.keep(delta('c1', 'one '));
    store.keep(running('c2'));
    store.keep(delta('c1', 'two'));
    expect(store.events('c1').map((e) => (e.type === 'chat.delta' ? e.text : e.type))).toEqual(['chat.status', 'one ', 'two']);
    expect(store.events('c2')).toHaveLength(1);
    store.keep(ended('c1'));
    expect(store.events('c1')).toEqual([]);
    expect(store.events('c2')).toHaveLength(1);
  });

  it('gives a turn up, rather than half of it, past its count of events or its characters, until the next turn', () => {
    const store = runningTurnStore();
    store.keep(running('many'));
    for (let i = 0; i < MAX_EVENTS + 1; i++) store.keep(delta('many', 'x'));
    expect(store.events('many')).toEqual([]);

    store.keep(running('big'));
    const piece = 'y'.repeat(1_000_000);
    for (let i = 0; i * piece.length <= MAX_CHARS; i++) store.keep(delta('big', piece));
    expect(store.events('big')).toEqual([]);
    // A tool's large result counts too: its text sits one level down.
    store.keep(running('tool'));
    store.keep({ type: 'chat.message', conversationId: 'tool', message: { id: 't', parentId: null, at: 1, role: 'tool', text: 'z'.repeat(MAX_CHARS + 1) } } as unknown as HostEventMessage);
    expect(store.events('tool')).toEqual([]);

    store.keep(ended('big'));
    store.keep(running('big'));
    store.keep(delta('big', 'small'));
    expect(store.events('big')).toHaveLength(2);
  });

  it('drops every kept turn when the stream broke', () => {
    const store = runningTurnStore();
    store.keep(running('c1'));
    store.clear();
    store.keep(delta('c1', 'after the break'));
    expect(store.events('c1')).toEqual([]);
  });
});
