import type { AppContribution, PluginRecord } from '../shared/appContribution.js';
import type { Problem } from '../shared/problems.js';
import type { ScanResult } from '../core/plugins/pluginScanner.js';

/** `chatos apps --json`: one entry per app with what the host derived, plus each plugin with its problems. */
export function appsView(result: ScanResult) {
  const pluginByDir = new Map(result.plugins.map((p) => [p.dir, p]));
  return {
    apps: result.apps.map((app) => appView(app, pluginByDir.get(app.pluginDir))),
    plugins: result.plugins,
    problems: result.problems,
  };
}

function problemsOfApp(plugin: PluginRecord | undefined, appId: string): Problem[] {
  if (!plugin) return [];
  const index = plugin.appIds.indexOf(appId);
  return plugin.problems.filter((p) => p.path.startsWith(`apps[${index}]`));
}

export function appView(app: AppContribution, plugin: PluginRecord | undefined) {
  const { chatos: _chatos, workdir: _workdir, ...callMeta } = app.meta;
  return {
    pluginId: app.pluginId,
    appId: app.appId,
    providerAppId: app.providerAppId,
    name: app.name,
    source: app.source,
    pluginDir: app.pluginDir,
    serverName: app.serverName,
    promptNames: app.promptNames,
    url: app.mcp?.url ?? null,
    transport: app.mcp?.transport ?? null,
    command: app.mcp?.command ? [app.mcp.command, ...(app.mcp.args ?? [])] : null,
    enabled: app.mcp?.enabled ?? null,
    allowMain: app.allowMain,
    allowSub: app.allowSub,
    callMeta,
    uiApp: app.uiApp,
    workdir: app.meta.workdir,
    exposure: app.exposure,
    prompt: app.prompt ? { title: app.prompt.title ?? null, zh: app.prompt.zh !== undefined, en: app.prompt.en !== undefined } : null,
    entry: app.entry,
    problems: problemsOfApp(plugin, app.appId),
  };
}

function exposureText(e: AppContribution['exposure']['mcpServers']): string {
  const { exposure, source } = e;
  const what = exposure.mode === 'list' ? `[${exposure.names.join(', ')}]` : exposure.mode;
  return `${what} (${source})`;
}

export function appText(app: AppContribution): string {
  const lines = [
    `  ${app.pluginId}/${app.appId}  "${app.name}"  provider=${app.providerAppId}`,
    `    server:   ${app.serverName}${app.mcp ? `  ${app.mcp.url}` : '  (no own server)'}`,
    `    prompts:  ${app.promptNames.zh}, ${app.promptNames.en}${app.prompt ? '' : '  (no own prompt)'}`,
    `    flags:    allowMain=${app.allowMain} allowSub=${app.allowSub}${app.mcp && !app.mcp.enabled ? ' disabled' : ''}`,
    `    exposes:  mcpServers=${exposureText(app.exposure.mcpServers)} prompts=${exposureText(app.exposure.prompts)}`,
    `    workdir:  ${app.meta.workdir}`,
  ];
  return lines.join('\n');
}
