import type { Callers } from './callers.js';
import type { PluginOperations } from './pluginOperations.js';
import type { RescanPlugins } from './rescanPlugins.js';
import type { ServerAdministration } from './serverAdministration.js';

/**
 * The multi-step flows of the core, one place each; every face (HostApi
 * handlers, CLI commands, the settings tools, the host's watcher) calls
 * these rather than composing the services itself.
 */
export interface HostOperations {
  /** scan → registry sync → reload what changed → events. */
  readonly rescan: RescanPlugins;
  /** trust, untrust with its cascade, install, uninstall. */
  readonly plugins: PluginOperations;
  /** list, tools, restart, log, switches. */
  readonly servers: ServerAdministration;
  /** agent, app and page callers. */
  readonly callers: Callers;
}
