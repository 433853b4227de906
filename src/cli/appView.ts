import type { AppContribution, PluginRecord } from '../shared/appContribution.js';
import type { Problem } from '../shared/problems.js';
import type { ScanResult } from '../core/plugins/pluginScanner.js';
import { appServerProblems, type ServerTrouble } from '../core/mcp/serverTrouble.js';

/** `chatos apps --json`: one entry per app with what the host derived, plus each plugin with its problems. */
export function appsView(result: ScanResult, trouble: (serverId: string) => ServerTrouble | undefined = () => undefined) {
  const pluginByDir = new Map(result.plugins.map((p) => [p.dir, p]));
  return {
    apps: result.apps.map((app) => appView(app, pluginByDir.get(app.pluginDir), trouble)),
    plugins: result.plugins,
    problems: result.problems,
  };
}

/** An app's manifest problems, and its own server's trouble (a command not on PATH, a failed start). */
function problemsOfApp(app: AppContribution, plugin: PluginRecord | undefined, trouble: (serverId: string) => ServerTrouble | undefined): Problem[] {
  const index = plugin?.appIds.indexOf(app.appId) ?? -1;
  const manifest = plugin ? plugin.problems.filter((p) => p.path.startsWith(`apps[${index}]`)) : [];
  return [...manifest, ...appServerProblems(app, Math.max(index, 0), trouble)];
}

/** Every app's own server's trouble: problems beside the scan's (which hold the manifests'). */
export function serverProblemsOfApps(result: ScanResult, trouble: (serverId: string) => ServerTrouble | undefined): Problem[] {
  const pluginByDir = new Map(result.plugins.map((p) => [p.dir, p]));
  return result.apps.flatMap((app) => appServerProblems(app, Math.max(pluginByDir.get(app.pluginDir)?.appIds.indexOf(app.appId) ?? 0, 0), trouble));
}

export function appView(app: AppContribution, plugin: PluginRecord | undefined, trouble: (serverId: string) => ServerTrouble | undefined = () => undefined) {
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
    problems: problemsOfApp(app, plugin, trouble),
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
