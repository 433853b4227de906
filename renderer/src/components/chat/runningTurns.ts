import type { HostEventMessage } from '../../../../src/shared/hostApi';
import { api, onReconnect } from '../../api/client';
import { concerns } from './conversationState';

/**
 * The chat events of turns still running, kept from the moment they came.
 * A conversation opened in the middle of a turn (a new chat, shown once
 * `chat.send` answered with its id, by which time the first pieces of the
 * answer have streamed; or one the user comes back to) replays them on top
 * of what it loads: the stored messages carry what is finished, these the
 * answer and thinking still being written, which no load returns.
 */

/** Events kept per running turn at most: past it (an answer of tens of thousands of pieces) the turn is shown from its opening on, as before. */
const MAX_EVENTS = 20_000;

/** By conversation id; `undefined` once a turn outgrew MAX_EVENTS or the event stream broke (some of its events are missing). */
const turns = new Map<string, HostEventMessage[] | undefined>();

function keep(event: HostEventMessage): void {
  if (!('conversationId' in event) || typeof event.conversationId !== 'string' || !concerns(event, event.conversationId)) return;
  const id = event.conversationId;
  // A turn that ended is all in the stored messages: a load has it.
  if (event.type === 'chat.status' && event.status !== 'running') return void turns.delete(id);
  if (event.type === 'chat.status' && !turns.has(id)) turns.set(id, []);
  const events = turns.get(id);
  if (!events) return;
  if (events.length >= MAX_EVENTS) turns.set(id, undefined);
  else events.push(event);
}

let started = false;

/** Starts keeping events (once; at the chat code's first load, before any conversation is opened). */
export function keepRunningTurns(): void {
  if (started) return;
  started = true;
  api.onAny(keep);
  // Events sent while the stream was down are gone: a kept turn would replay with a hole in it.
  onReconnect(() => turns.clear());
}

/** What `conversationId`'s running turn streamed so far, in order; empty when none runs (or it cannot be replayed whole). */
export function runningTurnEvents(conversationId: string): HostEventMessage[] {
  return [...(turns.get(conversationId) ?? [])];
}
