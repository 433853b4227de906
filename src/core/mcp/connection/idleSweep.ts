import type { Scheduler } from '../../ports.js';
import type { ConnectionManager } from './connectionManager.js';

/** How often to look for idle instances: a tenth of the idle time, between 1 s and a minute. */
export const sweepIntervalOf = (idleMs: number) => Math.min(60_000, Math.max(1_000, Math.floor(idleMs / 10)));

/**
 * Releases instances left unused for the idle time, on the host's
 * scheduler (a test moves its time instead of waiting). The idle time is
 * read at every look, so a change to mcp.yaml's `leases.idleMinutes` counts
 * from the next one. Each release is audited where every release is.
 */
export class IdleSweep {
  private timer: unknown;
  private running = false;

  constructor(
    private readonly deps: {
      scheduler: Scheduler;
      /** What is swept: server instances, or (the same rule) plugin backends. */
      connections: Pick<ConnectionManager, 'sweepIdle'>;
      idleMs: () => number;
      onError?: (error: unknown) => void;
    },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  private schedule(): void {
    this.timer = this.deps.scheduler.setTimeout(() => this.tick(), sweepIntervalOf(this.deps.idleMs()));
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.running) return;
    // The next look is booked before this one ends its instances: closing one may take seconds.
    this.schedule();
    this.deps.connections.sweepIdle(this.deps.idleMs()).catch((error: unknown) => this.deps.onError?.(error));
  }

  dispose(): void {
    this.running = false;
    if (this.timer !== undefined) this.deps.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
