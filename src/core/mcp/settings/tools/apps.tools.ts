import type { PluginRecord } from '../../../../shared/appContribution.js';
import type { Problem } from '../../../../shared/problems.js';
import { dataResult } from '../toolResults.js';
import { defineTool, type SettingsContext, type ToolModule } from '../types.js';

/** A plugin's problems at `apps[i]…` belong to its i-th app. */
const appIndexOf = (problem: Problem): number | undefined => {
  const match = /^apps\[(\d+)\]/.exec(problem.path);
  return match ? Number(match[1]) : undefined;
};

const problemKey = (p: Problem) => `${p.file}\u0000${p.path}\u0000${p.code}\u0000${p.message}`;

/** Apps with their own problems, plugins with the rest of theirs, and problems of no plugin (an unreadable root). */
function appsView(ctx: SettingsContext) {
  const plugins = ctx.plugins.list();
  const pluginByDir = new Map(plugins.map((p) => [p.dir, p]));
  // A problem is shown once: with its app when the app made it into the list, else with its plugin.
  const shownWithApp = new Set<Problem>();
  const problemsOfApp = (plugin: PluginRecord | undefined, appId: string): Problem[] => {
    const index = plugin?.appIds.indexOf(appId) ?? -1;
    const own = index < 0 ? [] : plugin!.problems.filter((p) => appIndexOf(p) === index);
    for (const problem of own) shownWithApp.add(problem);
    return own;
  };
  const apps = ctx.plugins.apps().map((app) => ({
    pluginId: app.pluginId,
    appId: app.appId,
    name: app.name,
    description: app.description ?? null,
    source: app.source,
    serverName: app.serverName,
    server: app.mcp ? { url: app.mcp.url, enabled: app.mcp.enabled } : null,
    hasPrompt: app.prompt !== undefined,
    allowMain: app.allowMain,
    allowSub: app.allowSub,
    problems: problemsOfApp(pluginByDir.get(app.pluginDir), app.appId),
  }));
  const pluginViews = plugins.map((plugin) => ({
    id: plugin.id ?? null,
    name: plugin.name ?? null,
    version: plugin.version ?? null,
    dir: plugin.dir,
    source: plugin.source,
    status: plugin.status,
    appIds: plugin.appIds,
    problems: plugin.problems.filter((p) => !shownWithApp.has(p)),
  }));
  const ofPlugins = new Set(plugins.flatMap((p) => p.problems.map(problemKey)));
  const otherProblems = ctx.plugins.problems().filter((p) => !ofPlugins.has(problemKey(p)));
  return { apps, plugins: pluginViews, otherProblems };
}

function countProblems(view: ReturnType<typeof appsView>): number {
  return view.apps.reduce((n, a) => n + a.problems.length, 0) + view.plugins.reduce((n, p) => n + p.problems.length, 0) + view.otherProblems.length;
}

function sentence(view: ReturnType<typeof appsView>): string {
  const notLoaded = view.plugins.filter((p) => p.status !== 'loaded').length;
  const problems = countProblems(view);
  return `${view.apps.length} app${view.apps.length === 1 ? '' : 's'} from ${view.plugins.length} plugin folder${view.plugins.length === 1 ? '' : 's'}${notLoaded ? ` (${notLoaded} not loaded)` : ''}; ${problems} problem${problems === 1 ? '' : 's'}.`;
}

export const appsModule: ToolModule = {
  domain: 'apps',
  tools: [
    defineTool({
      name: 'list_apps',
      description:
        "List the installed UI apps (from plugins) with their MCP server and prompt, and every problem found in them: each app's own, each plugin's (invalid, overridden or shadowed plugins included), and any others.",
      permission: 'read',
      inputSchema: {},
      async handler(_args, ctx) {
        const view = appsView(ctx);
        return dataResult(sentence(view), view);
      },
    }),
    defineTool({
      name: 'rescan_apps',
      description: 'Scan the plugin folders again (after installing, editing or removing a plugin) and update the registry; returns what list_apps returns.',
      permission: 'write',
      // No arguments: a rescan registers what is on disk, and a new plugin's code runs only once the user trusts it.
      lowRisk: {},
      inputSchema: {},
      async handler(_args, ctx) {
        await ctx.plugins.rescan();
        const view = appsView(ctx);
        return dataResult(`Rescanned: ${sentence(view)}`, view);
      },
    }),
  ],
};
