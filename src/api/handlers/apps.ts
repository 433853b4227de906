import type { AppContribution } from '../../shared/appContribution.js';
import type { Host } from '../../core/host.js';
import { OperationError } from '../../core/facades/errors.js';
import { blockingProblems } from '../../core/facades/plugins.js';
import { ApiFailure } from '../apiErrors.js';
import type { HandlerContext, Handlers } from './types.js';

/** The app of a loaded plugin whose code may run now; else NOT_FOUND or the run gate's refusal. */
function runnableApp(host: Host, pluginId: string, appId: string): AppContribution {
  const app = host.tools.callers.findApp(pluginId, appId);
  host.tools.callers.requireRunnable(app);
  return app;
}

export function appHandlers({
  host,
  urls,
  emit,
  pickFolder,
}: HandlerContext): Handlers<
  | 'apps.list'
  | 'apps.rescan'
  | 'plugins.trust'
  | 'plugins.untrust'
  | 'plugins.install'
  | 'plugins.installPreview'
  | 'plugins.pickFolder'
  | 'plugins.uninstall'
  | 'plugins.uninstallPreview'
  | 'uiApps.open'
  | 'uiApps.invokeBackend'
  | 'uiApps.registry'
  | 'uiApps.registerMcpServer'
  | 'uiApps.registerPrompt'
  | 'plugins.devPreview'
  | 'plugins.devLink'
  | 'plugins.devUnlink'
> {
  const { plugins } = host;
  const changedTrust = () => emit({ type: 'plugins.changed', reread: [], removed: [], problems: plugins.catalog.problems.length });

  return {
    'apps.list': () => {
      const views = plugins.catalog.plugins.map((plugin) => plugins.view(plugin));
      return {
        apps: plugins.appViews(),
        plugins: views,
        problems: [...plugins.catalog.problems, ...views.flatMap((p) => blockingProblems(p.trust))],
      };
    },
    'apps.rescan': async () => {
      emit({ type: 'progress', op: 'rescan', phase: 'start' });
      try {
        const result = await plugins.rescanAndReload();
        emit({ type: 'progress', op: 'rescan', phase: 'done' });
        return { reread: result.stats.reread, removed: result.stats.removed, problems: result.problems.length };
      } catch (error) {
        emit({ type: 'progress', op: 'rescan', phase: 'error', message: (error as Error).message });
        throw error;
      }
    },
    'plugins.trust': ({ pluginId }) => {
      const { plugin, record } = plugins.trust(pluginId);
      return { trust: plugins.trustState(plugin), runPlan: record?.runPlan ?? plugins.runPlan(plugin) };
    },
    // Taking trust back stops what runs now, not only what starts later: its backend, its servers, its open pages.
    'plugins.untrust': ({ pluginId }) => plugins.untrust(pluginId),
    'plugins.installPreview': ({ source }) => plugins.previewInstall(source),
    // Only a path comes back: the install that follows checks the folder as it does a typed one.
    'plugins.pickFolder': async () => {
      if (!pickFolder) throw new ApiFailure('INVALID', 'this window has no folder picker: it runs in a browser', "type the plugin folder's path");
      return { dir: (await pickFolder()) ?? null };
    },
    'plugins.install': async ({ source, update }) => {
      emit({ type: 'progress', op: 'install', phase: 'start', message: source });
      const installed = await plugins.install(source, { update }).catch((error: unknown) => {
        emit({ type: 'progress', op: 'install', phase: 'error', message: (error as Error).message });
        throw error;
      });
      const { updated } = installed;
      emit({ type: 'progress', op: 'install', phase: 'done', message: installed.pluginId });
      return { pluginId: installed.pluginId, dir: installed.dir, leftOut: installed.leftOut, updated };
    },
    'plugins.uninstallPreview': ({ pluginId }) => {
      return plugins.previewUninstall(pluginId);
    },
    // Like untrust, and more: what it runs is stopped, and its registrations and the grants on them go.
    'plugins.uninstall': async ({ pluginId, purge }) => {
      await plugins.uninstall(pluginId, purge);
      return { removed: true };
    },
    'plugins.devPreview': ({ dir }) => plugins.previewDevLink(dir),
    'plugins.devLink': async ({ dir }) => {
      const { plugin, record, added } = await plugins.linkDev(dir);
      await host.mcp.reload();
      changedTrust();
      return { pluginId: plugin.id, dir: plugin.dir, added, runPlan: record.runPlan };
    },
    'plugins.devUnlink': async ({ target }) => {
      const result = await plugins.unlinkDev(target);
      await host.mcp.reload();
      emit({ type: 'registry.changed' });
      if (result.pluginId) emit({ type: 'uiApp.changed', pluginId: result.pluginId });
      return result;
    },
    'uiApps.open': ({ pluginId, appId, surface }) => {
      const app = runnableApp(host, pluginId, appId);
      const entry = surface === 'compact' ? app.entry.compactPath : app.entry.path;
      if (!entry && app.mcpApp) throw new OperationError('NOT_FOUND', `the page of app ${pluginId}/${appId} is an MCP App, not a module`, 'show it with uiApps.mcpAppView');
      if (!entry) throw new OperationError('NOT_FOUND', `app ${pluginId}/${appId} has no compact entry`, 'add "compact" to the app\'s entry in plugin.json, or open the full page');
      return { url: urls.uiAppUrl(pluginId, appId, surface), entry };
    },
    'uiApps.invokeBackend': async ({ pluginId, appId, method, params }) => {
      runnableApp(host, pluginId, appId);
      return plugins.backends.invoke(pluginId, method, params);
    },
    'uiApps.registry': ({ pluginId, appId }) => {
      const app = runnableApp(host, pluginId, appId);
      return plugins.pageRegistry(app);
    },
    'uiApps.registerMcpServer': async ({ pluginId, appId, providerAppId, server }) => {
      const pushed = plugins.pushRegistration(runnableApp(host, pluginId, appId), { kind: 'server', providerAppId, server });
      // The runtime defines servers from the registry's rows: the pushed one is callable (by whom it is granted to) after a reload.
      await host.mcp.reload();
      emit({ type: 'registry.changed' });
      return pushed;
    },
    'uiApps.registerPrompt': ({ pluginId, appId, providerAppId, prompt }) => {
      const pushed = plugins.pushRegistration(runnableApp(host, pluginId, appId), { kind: 'prompt', providerAppId, prompt });
      emit({ type: 'registry.changed' });
      return pushed;
    },
  };
}
