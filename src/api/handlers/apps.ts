import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { AppView, PluginView } from '../../shared/hostApi.js';
import type { Host } from '../../core/host.js';
import { installPlugin } from '../../core/plugins/pluginInstaller.js';
import { appView } from '../../core/contributions/appView.js';
import { serverIdsOf, stopPlugin, trustPlugin, uninstallPlugin, userCopyOf } from '../../core/plugins/pluginLifecycle.js';
import { grantsDroppedByUninstall, previewInstall } from '../../core/plugins/pluginUpdate.js';
import { blockingProblems } from '../../core/trust/pluginTrust.js';
import { runPlanOf } from '../../core/trust/runPlan.js';
import { pageRegistryView } from '../../core/uiApps/pageRegistryView.js';
import { linkDevPlugin, previewDevLink, unlinkDevPlugin } from '../../core/plugins/devLinks.js';
import { ApiFailure } from '../apiErrors.js';
import type { HandlerContext, Handlers } from './types.js';

function pluginView(host: Host, plugin: PluginRecord): PluginView {
  const runPlan = runPlanOf(plugin, host.catalog.apps, plugin.backendEntry, host.hostModules);
  const trust = host.trust.stateOf(plugin);
  const runnable = plugin.status === 'loaded' && (trust.state === 'builtin' || trust.state === 'trusted');
  return { ...plugin, problems: [...plugin.problems, ...blockingProblems(trust)], trust, runPlan, runnable };
}

/** The app of a loaded plugin, or a NOT_FOUND that names what is installed. */
export function findApp(host: Host, pluginId: string, appId: string): AppContribution {
  const app = host.catalog.apps.find((a) => a.pluginId === pluginId && a.appId === appId);
  if (!app) throw new ApiFailure('NOT_FOUND', `no app ${pluginId}/${appId} is installed`, 'see the Apps page for what is installed');
  return app;
}

/** Nothing of an untrusted plugin runs: not its page, not its backend, not its server (the gateway checks that too). */
export function requireRunnable(host: Host, app: AppContribution): void {
  const allowed = host.runGate.check({ pluginId: app.pluginId, pluginDir: app.pluginDir }, 'plugin');
  if (!allowed.ok) throw new ApiFailure('NOT_ALLOWED', allowed.message, allowed.fix);
}

export function appHandlers({ host, urls, emit }: HandlerContext): Handlers<'apps.list' | 'apps.rescan' | 'plugins.trust' | 'plugins.untrust' | 'plugins.install' | 'plugins.installPreview' | 'plugins.uninstall' | 'plugins.uninstallPreview' | 'uiApps.open' | 'uiApps.invokeBackend' | 'uiApps.registry' | 'plugins.devPreview' | 'plugins.devLink' | 'plugins.devUnlink'> {
  /** Rescans, and reloads the servers when plugins came, went or changed (their server definitions did too). */
  const rescanAndReload = async () => {
    const result = host.rescan();
    if (result.stats.reread.length || result.stats.removed.length) await host.reloadMcp();
    return result;
  };
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
        const result = await rescanAndReload();
        emit({ type: 'progress', op: 'rescan', phase: 'done' });
        return { reread: result.stats.reread, removed: result.stats.removed, problems: result.problems.length };
      } catch (error) {
        emit({ type: 'progress', op: 'rescan', phase: 'error', message: (error as Error).message });
        throw error;
      }
    },
    'plugins.trust': ({ pluginId }) => {
      const { plugin, record } = trustPlugin(host, pluginId);
      changedTrust();
      return { trust: host.trust.stateOf(plugin), runPlan: record?.runPlan ?? runPlanOf(plugin, host.catalog.apps, plugin.backendEntry, host.hostModules) };
    },
    // Taking trust back stops what runs now, not only what starts later: its backend, its servers, its open pages.
    'plugins.untrust': async ({ pluginId }) => {
      const changed = host.trust.untrust(pluginId);
      if (!changed) return { changed };
      await stopPlugin(host, pluginId);
      changedTrust();
      emit({ type: 'uiApp.changed', pluginId });
      return { changed };
    },
    'plugins.installPreview': ({ source }) => previewInstall(host, source),
    'plugins.install': async ({ source, update }) => {
      emit({ type: 'progress', op: 'install', phase: 'start', message: source });
      const installed = await installPlugin(source, host.home.userPluginsDir, { update }).catch((error: unknown) => {
        emit({ type: 'progress', op: 'install', phase: 'error', message: (error as Error).message });
        throw error;
      });
      const updated = installed.replaced === true;
      // The old code may still run here: its servers and backend end, its pages reload (and find it untrusted).
      if (updated) await stopPlugin(host, installed.pluginId, serverIdsOf(host.catalog.apps, (app) => app.pluginDir === installed.dir));
      await rescanAndReload();
      if (updated) emit({ type: 'uiApp.changed', pluginId: installed.pluginId });
      changedTrust();
      emit({ type: 'progress', op: 'install', phase: 'done', message: installed.pluginId });
      return { pluginId: installed.pluginId, dir: installed.dir, leftOut: installed.leftOut, updated };
    },
    'plugins.uninstallPreview': ({ pluginId }) => {
      const installed = userCopyOf(host, pluginId);
      return { dir: installed.dir, grants: grantsDroppedByUninstall(host, installed) };
    },
    // Like untrust, and more: what it runs is stopped, and its registrations and the grants on them go.
    'plugins.uninstall': async ({ pluginId, purge }) => {
      const { serverIds } = uninstallPlugin(host, pluginId, purge);
      await stopPlugin(host, pluginId, serverIds);
      await host.reloadMcp();
      emit({ type: 'uiApp.changed', pluginId });
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
      const app = findApp(host, pluginId, appId);
      requireRunnable(host, app);
      const entry = surface === 'compact' ? app.entry.compactPath : app.entry.path;
      if (!entry) throw new ApiFailure('NOT_FOUND', `app ${pluginId}/${appId} has no compact entry`, 'add "compact" to the app\'s entry in plugin.json, or open the full page');
      return { url: urls.uiAppUrl(pluginId, appId, surface), entry };
    },
    'uiApps.invokeBackend': async ({ pluginId, appId, method, params }) => {
      requireRunnable(host, findApp(host, pluginId, appId));
      return host.backends.invoke(pluginId, method, params);
    },
    'uiApps.registry': ({ pluginId, appId }) => {
      const app = findApp(host, pluginId, appId);
      requireRunnable(host, app);
      return pageRegistryView({ registry: host.registry, runGate: host.runGate, apps: host.catalog.apps }, app);
    },
  };
}
