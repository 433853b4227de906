import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import type { PluginScanner, ScanResult } from '../plugins/pluginScanner.js';

/**
 * The in-memory view of every app contribution (docs/rules/names-and-exposure.md#where-the-contribution-lives,
 * `getAiContribution()`): works with no database, so an agent run can read
 * an app's server url and prompt text even when nothing was persisted.
 */
export class PluginCatalog {
  private last: ScanResult | undefined;
  private byKey = new Map<string, AppContribution>();
  private byServer = new Map<string, AppContribution>();
  private byDir = new Map<string, PluginRecord>();
  /** The loaded copy of each plugin id, else the first folder declaring it. */
  private byId = new Map<string, PluginRecord>();

  constructor(private readonly scanner: PluginScanner) {}

  /** Scans (re-reading only changed plugin folders) and replaces the view. */
  rescan(): ScanResult {
    const result = this.scanner.scan();
    this.last = result;
    this.byKey = new Map(result.apps.map((a) => [`${a.pluginId}/${a.appId}`, a]));
    this.byServer = new Map(result.apps.map((a) => [a.serverName, a]));
    this.byDir = new Map(result.plugins.map((p) => [p.dir, p]));
    this.byId = new Map();
    for (const plugin of result.plugins) {
      if (plugin.id === undefined) continue;
      const known = this.byId.get(plugin.id);
      if (!known || (known.status !== 'loaded' && plugin.status === 'loaded')) this.byId.set(plugin.id, plugin);
    }
    return result;
  }

  private current(): ScanResult {
    return this.last ?? this.rescan();
  }

  get plugins(): PluginRecord[] {
    return this.current().plugins;
  }

  get apps(): AppContribution[] {
    return this.current().apps;
  }

  get problems(): Problem[] {
    return this.current().problems;
  }

  /** Validates one folder as a scan would, without changing the catalog. */
  validateFolder(dir: string): ScanResult {
    return this.scanner.validateFolder(dir);
  }

  getAiContribution(pluginId: string, appId: string): AppContribution | undefined {
    this.current();
    return this.byKey.get(`${pluginId}/${appId}`);
  }

  /** The plugin scanned at this folder (O(1): asked on every tool call). */
  pluginAt(dir: string): PluginRecord | undefined {
    this.current();
    return this.byDir.get(dir);
  }

  /** The loaded plugin with this id, else any folder declaring it. */
  pluginById(pluginId: string): PluginRecord | undefined {
    this.current();
    return this.byId.get(pluginId);
  }

  findByServerName(serverName: string): AppContribution | undefined {
    this.current();
    return this.byServer.get(serverName);
  }
}
