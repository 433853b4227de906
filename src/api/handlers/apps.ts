import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { AppView, PluginView } from '../../shared/hostApi.js';
import type { Host } from '../../core/host.js';
import { appView } from '../../core/contributions/appView.js';
import { userCopyOf } from '../../core/plugins/pluginLifecycle.js';
import { grantsDroppedByUninstall, previewInstall } from '../../core/plugins/pluginUpdate.js';
import { blockingProblems } from '../../core/trust/pluginTrust.js';
import { runPlanOf } from '../../core/trust/runPlan.js';
import { pageRegistryView } from '../../core/uiApps/pageRegistryView.js';
import { linkDevPlugin, previewDevLink, unlinkDevPlugin } from '../../core/plugins/devLinks.js';
import { OperationError } from '../../core/operations/operationError.js';
import type { HandlerContext, Handlers } from './types.js';

function pluginView(host: Host, plugin: PluginRecord): PluginView {
  const runPlan = runPlanOf(plugin, host.catalog.apps, plugin.backendEntry, host.hostModules);
  const trust = host.trust.stateOf(plugin);
  const runnable = plugin.id !== undefined && host.runGate.check({ pluginId: plugin.id, pluginDir: plugin.dir }, 'plugin').ok;
  return { ...plugin, problems: [...plugin.problems, ...blockingProblems(trust)], trust, runPlan, runnable };
}

/** The app of a loaded plugin whose code may run now; else NOT_FOUND or the run gate's refusal. */
function runnableApp(host: Host, pluginId: string, appId: string): AppContribution {
  const app = host.operations.callers.findApp(pluginId, appId);
  host.operations.callers.requireRunnable(app);
  return app;
}

export function appHandlers({
  host,
  urls,
  emit,
}: HandlerContext): Handlers<
  | 'apps.list'
  | 'apps.rescan'
  | 'plugins.trust'
  | 'plugins.untrust'
  | 'plugins.install'
  | 'plugins.installPreview'
  | 'plugins.uninstall'
  | 'plugins.uninstallPreview'
  | 'uiApps.open'
  | 'uiApps.invokeBackend'
  | 'uiApps.registry'
  | 'plugins.devPreview'
  | 'plugins.devLink'
  | 'plugins.devUnlink'
> {
  const changedTrust = () => emit({ type: 'plugins.changed', reread: [], removed: [], problems: host.catalog.problems.length });

  return {
    'apps.list': () => {
      const byDir = new Map(host.catalog.plugins.map((p) => [p.dir, p]));
      const plugins = host.catalog.plugins.map((plugin) => pluginView(host, plugin));
      return {
        apps: host.catalog.apps.map((app) => appView(app, byDir.get(app.pluginDir), (id) => host.serverTrouble(id))),
        plugins,
        problems: [...host.catalog.problems, ...plugins.flatMap((p) => blockingProblems(p.trust))],
      };
    },
    'apps.rescan': async () => {
      emit({ type: 'progress', op: 'rescan', phase: 'start' });
      try {
        const result = await host.operations.rescan.rescanAndReload();
        emit({ type: 'progress', op: 'rescan', phase: 'done' });
        return { reread: result.stats.reread, removed: result.stats.removed, problems: result.problems.length };
      } catch (error) {
        emit({ type: 'progress', op: 'rescan', phase: 'error', message: (error as Error).message });
        throw error;
      }
    },
    'plugins.trust': ({ pluginId }) => {
      const { plugin, record } = host.operations.plugins.trust(pluginId);
      return { trust: host.trust.stateOf(plugin), runPlan: record?.runPlan ?? runPlanOf(plugin, host.catalog.apps, plugin.backendEntry, host.hostModules) };
    },
    // Taking trust back stops what runs now, not only what starts later: its backend, its servers, its open pages.
    'plugins.untrust': ({ pluginId }) => host.operations.plugins.untrust(pluginId),
    'plugins.installPreview': ({ source }) => previewInstall(host, source),
    'plugins.install': async ({ source, update }) => {
      emit({ type: 'progress', op: 'install', phase: 'start', message: source });
      const installed = await host.operations.plugins.install(source, { update }).catch((error: unknown) => {
        emit({ type: 'progress', op: 'install', phase: 'error', message: (error as Error).message });
        throw error;
      });
      const { updated } = installed;
      emit({ type: 'progress', op: 'install', phase: 'done', message: installed.pluginId });
      return { pluginId: installed.pluginId, dir: installed.dir, leftOut: installed.leftOut, updated };
    },
    'plugins.uninstallPreview': ({ pluginId }) => {
      const installed = userCopyOf(host, pluginId);
      return { dir: installed.dir, grants: grantsDroppedByUninstall(host, installed) };
    },
    // Like untrust, and more: what it runs is stopped, and its registrations and the grants on them go.
    'plugins.uninstall': async ({ pluginId, purge }) => {
      await host.operations.plugins.uninstall(pluginId, purge);
      return { removed: true };
    },
    'plugins.devPreview': ({ dir }) => previewDevLink(host, dir),
    'plugins.devLink': async ({ dir }) => {
      const { plugin, record, added } = await linkDevPlugin(host, dir);
      await host.reloadMcp();
      changedTrust();
      return { pluginId: plugin.id, dir: plugin.dir, added, runPlan: record.runPlan };
    },
    'plugins.devUnlink': async ({ target }) => {
      const result = await unlinkDevPlugin(host, target);
      await host.reloadMcp();
      emit({ type: 'registry.changed' });
      if (result.pluginId) emit({ type: 'uiApp.changed', pluginId: result.pluginId });
      return result;
    },
    'uiApps.open': ({ pluginId, appId, surface }) => {
      const app = runnableApp(host, pluginId, appId);
      const entry = surface === 'compact' ? app.entry.compactPath : app.entry.path;
      if (!entry) throw new OperationError('NOT_FOUND', `app ${pluginId}/${appId} has no compact entry`, 'add "compact" to the app\'s entry in plugin.json, or open the full page');
      return { url: urls.uiAppUrl(pluginId, appId, surface), entry };
    },
    'uiApps.invokeBackend': async ({ pluginId, appId, method, params }) => {
      runnableApp(host, pluginId, appId);
      return host.backends.invoke(pluginId, method, params);
    },
    'uiApps.registry': ({ pluginId, appId }) => {
      const app = runnableApp(host, pluginId, appId);
      return pageRegistryView({ registry: host.registry, runGate: host.runGate, apps: host.catalog.apps }, app);
    },
  };
}
