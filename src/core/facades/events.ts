import type { HostEvent } from '../hostEvents.js';

export type { HostEvent } from '../hostEvents.js';

/** The core's live events for the faces (UI, serve): reloads, rescans, trust changes, app calls. */
export interface HostEvents {
  /** Returns the function that stops listening. */
  on(listener: (event: HostEvent) => void): () => void;
}
