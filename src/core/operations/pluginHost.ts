import type { PluginCatalog } from '../contributions/pluginCatalog.js';
import type { DataHome } from '../dataHome.js';
import type { ConnectionManager } from '../mcp/connection/connectionManager.js';
import type { RegistryCenter } from '../registry/registryCenter.js';
import type { PluginTrust } from '../trust/pluginTrust.js';
import type { PluginBackends } from '../uiApps/pluginBackends.js';
import type { HostModules } from '../runtime/hostModules.js';
import type { PluginRoot, ScanResult } from '../contributions/pluginScanner.js';
import type { FolderListFile, RememberedRoots } from '../plugins/rememberedRoots.js';

/**
 * What the plugin operations (install, trust, uninstall, links, roots) use
 * of the host. The host satisfies it; naming it here keeps these modules
 * from importing the composition root that imports them.
 */
export interface PluginHost {
  readonly home: DataHome;
  readonly hostModules: HostModules;
  readonly pluginRoots: readonly PluginRoot[];
  readonly rememberedRoots: RememberedRoots;
  readonly devLinks: FolderListFile;
  readonly catalog: PluginCatalog;
  readonly registry: RegistryCenter;
  readonly trust: PluginTrust;
  readonly backends: Pick<PluginBackends, 'stop'>;
  readonly mcp: { readonly connections: Pick<ConnectionManager, 'retire'> };
  /** Scans the plugin roots and syncs the registry with the result. */
  rescan(): ScanResult;
}
