import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { AppView } from '../../shared/hostApi.js';
import type { Problem } from '../../shared/problems.js';
import { appServerProblems, type ServerTrouble } from '../mcp/serverTrouble.js';
import { registryId } from '../registry/registryTables.js';

type TroubleOf = (serverId: string) => ServerTrouble | undefined;

/** An app's manifest problems, and its own server's trouble: an app whose server cannot start is not fine because its manifest is. */
function problemsOfApp(app: AppContribution, plugin: PluginRecord | undefined, trouble: TroubleOf): Problem[] {
  const index = plugin?.appIds.indexOf(app.appId) ?? -1;
  const manifest = plugin && index >= 0 ? plugin.problems.filter((p) => p.path.startsWith(`apps[${index}]`)) : [];
  return [...manifest, ...appServerProblems(app, Math.max(index, 0), trouble)];
}

/** One app as every face shows it (the Apps page, `chatos apps --json`, `chatos validate --json`). */
export function appView(app: AppContribution, plugin: PluginRecord | undefined, trouble: TroubleOf = () => undefined): AppView {
  const { chatos: _chatos, workdir, ...callMeta } = app.meta;
  return {
    pluginId: app.pluginId,
    appId: app.appId,
    providerAppId: app.providerAppId,
    name: app.name,
    ...(app.description ? { description: app.description } : {}),
    source: app.source,
    pluginDir: app.pluginDir,
    serverName: app.serverName,
    serverId: app.mcp ? registryId(app.providerAppId, app.serverName) : null,
    promptNames: app.promptNames,
    url: app.mcp?.url ?? null,
    transport: app.mcp?.transport ?? null,
    command: app.mcp?.command ? [app.mcp.command, ...(app.mcp.args ?? [])] : null,
    enabled: app.mcp?.enabled ?? null,
    allowMain: app.allowMain,
    allowSub: app.allowSub,
    callMeta,
    uiApp: app.uiApp,
    ...(typeof workdir === 'string' ? { workdir } : {}),
    exposure: app.exposure,
    prompt: app.prompt ? { title: app.prompt.title ?? null, zh: app.prompt.zh !== undefined, en: app.prompt.en !== undefined } : null,
    entry: app.entry,
    ...(app.mcpApp ? { mcpApp: app.mcpApp } : {}),
    hasIcon: app.iconPath !== undefined,
    problems: problemsOfApp(app, plugin, trouble),
  };
}
