import type { HostEventMessage } from '../../../../src/shared/hostApi';
import { api, onReconnect } from '../../api/client';
import { runningTurnStore } from './runningTurnStore';

/**
 * The chat events of turns still running, kept from the moment they came.
 * A conversation opened in the middle of a turn (a new chat, shown once
 * `chat.send` answered with its id, by which time the first pieces of the
 * answer have streamed; or one the user comes back to) replays them on top
 * of what it loads: the stored messages carry what is finished, these the
 * answer and thinking still being written, which no load returns.
 */
const store = runningTurnStore();

let started = false;

/** Starts keeping events (once; at the chat code's first load, before any conversation is opened). */
export function keepRunningTurns(): void {
  if (started) return;
  started = true;
  api.onAny(store.keep);
  // Events sent while the stream was down are gone: a kept turn would replay with a hole in it.
  onReconnect(store.clear);
}

/** What `conversationId`'s running turn streamed so far, in order; empty when none runs (or it cannot be replayed whole). */
export function runningTurnEvents(conversationId: string): HostEventMessage[] {
  return store.events(conversationId);
}
