import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { DataHome } from '../dataHome.js';
import { refusalText, type RunGate } from '../policy/runGate.js';
import type { BackendResolution } from './pluginBackends.js';

export interface BackendResolverDeps {
  /** The loaded copy of each plugin id, and the apps the catalog holds now. */
  catalog: { pluginById(pluginId: string): PluginRecord | undefined; readonly apps: readonly AppContribution[] };
  runGate: Pick<RunGate, 'check'>;
  home: Pick<DataHome, 'pluginDataDir' | 'pluginStateDir'>;
  /** The folders a plugin without a UI app works in. */
  sessionRoot: string;
  projectRoot: string;
}

/**
 * The host's answer to "may this plugin's backend run now, and with what",
 * asked on every backend call: nothing of an untrusted, removed or broken
 * plugin runs. A plugin that declares no backend is told so first, trusted
 * or not (trusting would not help); then the run gate; then the entry and
 * the folders it gets (its UI app's, else the plugin's own under the data
 * home).
 */
export class BackendResolver {
  constructor(private readonly deps: BackendResolverDeps) {}

  resolve(pluginId: string): BackendResolution {
    const { catalog, home } = this.deps;
    const plugin = catalog.pluginById(pluginId);
    if (plugin?.status === 'loaded' && !plugin.backendEntry) return { ok: false, message: `plugin ${pluginId} declares no backend` };
    const allowed = this.deps.runGate.check({ pluginId }, 'backend');
    if (!allowed.ok) return { ok: false, message: refusalText(allowed) };
    if (!plugin?.backendEntry) return { ok: false, message: `plugin ${pluginId} declares no backend` };
    const uiApp = catalog.apps.find((a) => a.pluginDir === plugin.dir)?.uiApp;
    const ctx = uiApp
      ? { pluginId, pluginDir: uiApp.pluginDir, dataDir: uiApp.dataDir, stateDir: uiApp.stateDir, sessionRoot: uiApp.sessionRoot, projectRoot: uiApp.projectRoot }
      : { pluginId, pluginDir: plugin.dir, dataDir: home.pluginDataDir(pluginId), stateDir: home.pluginStateDir(pluginId), sessionRoot: this.deps.sessionRoot, projectRoot: this.deps.projectRoot };
    return { ok: true, entry: plugin.backendEntry, ctx };
  }
}
