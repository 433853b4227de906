import type { HostEvent } from '../hostEvents.js';
import type { HostEvents } from '../facades/events.js';

/** The host's live events: modules emit, faces listen. */
export class HostEventBus implements HostEvents {
  private readonly listeners = new Set<(event: HostEvent) => void>();

  on(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether anyone listens: an event that costs work to build (every app call) is built only then. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  emit(event: HostEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
