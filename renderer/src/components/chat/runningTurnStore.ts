import type { HostEventMessage } from '../../../../src/shared/hostApi';
import { concerns } from './conversationState';

/**
 * Events and characters of text kept per running turn at most: past either (an answer of tens of thousands of pieces,
 * a tool's megabyte results) the turn is shown from its opening on, as before, rather than held in the window.
 */
export const MAX_EVENTS = 20_000;
export const MAX_CHARS = 8_000_000;

interface KeptTurn {
  events: HostEventMessage[];
  chars: number;
}

/** The text an event carries (its string fields, one level down: the pieces of an answer, a tool's result), roughly. */
function charsOf(event: HostEventMessage): number {
  let chars = 0;
  for (const value of Object.values(event)) {
    if (typeof value === 'string') chars += value.length;
    else if (value !== null && typeof value === 'object') for (const inner of Object.values(value)) if (typeof inner === 'string') chars += inner.length;
  }
  return chars;
}

/** The kept events of running turns (runningTurns.ts feeds it the window's events). */
export function runningTurnStore() {
  /** By conversation id; `undefined` once a turn outgrew its limits or the event stream broke (some of its events are missing). */
  const turns = new Map<string, KeptTurn | undefined>();
  return {
    keep(event: HostEventMessage): void {
      if (!('conversationId' in event) || typeof event.conversationId !== 'string' || !concerns(event, event.conversationId)) return;
      const id = event.conversationId;
      // A turn that ended is all in the stored messages: a load has it.
      if (event.type === 'chat.status' && event.status !== 'running') return void turns.delete(id);
      if (event.type === 'chat.status' && !turns.has(id)) turns.set(id, { events: [], chars: 0 });
      const turn = turns.get(id);
      if (!turn) return;
      turn.chars += charsOf(event);
      if (turn.events.length >= MAX_EVENTS || turn.chars > MAX_CHARS) turns.set(id, undefined);
      else turn.events.push(event);
    },
    clear: (): void => turns.clear(),
    /** What `conversationId`'s running turn streamed so far, in order; empty when none runs (or it cannot be replayed whole). */
    events: (conversationId: string): HostEventMessage[] => [...(turns.get(conversationId)?.events ?? [])],
  };
}
