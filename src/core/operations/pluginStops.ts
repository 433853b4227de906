import type { Logger } from '../ports.js';

export interface PluginStopsDeps {
  /** Ends a plugin's backend process (its next call starts one from its current files). */
  stopBackend(pluginId: string): Promise<void>;
  /** Ends every instance of a server (its next use starts one). */
  retireServer(serverId: string): Promise<void>;
  /** Ends whatever the run gate no longer allows, and tells the faces (the trust watch's stop). */
  stopNotRunnable(): Promise<void>;
  logger: Pick<Logger, 'warn'>;
}

/**
 * What a rescan stops, and when: a plugin edited in place (a development
 * link re-pinned) has its backend and its servers' instances ended at once,
 * so the next use runs the edited code; and after every rescan whatever may
 * no longer run (an edited plugin is now changed, a vanished one gone) ends
 * now rather than at its next call. A failure to stop is logged: it never
 * fails the rescan that found the change.
 */
export class PluginStops {
  constructor(private readonly deps: PluginStopsDeps) {}

  /** Ends what runs of an edited plugin: its backend and these servers' instances. */
  async edited(pluginId: string, serverIds: readonly string[]): Promise<void> {
    await Promise.all([this.deps.stopBackend(pluginId), ...serverIds.map((id) => this.deps.retireServer(id))]);
  }

  /** Starts ending what may no longer run; the rescan does not wait for it. */
  notRunnable(): void {
    this.deps.stopNotRunnable().catch((error: unknown) => this.deps.logger.warn(`stopping what a plugin that may no longer run ran failed: ${(error as Error).message}`));
  }
}
