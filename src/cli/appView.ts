import type { AppContribution } from '../shared/appContribution.js';
import type { Problem } from '../shared/problems.js';
import { appView } from '../core/contributions/appView.js';
import type { ScanResult } from '../core/contributions/pluginScanner.js';
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

/** Every app's own server's trouble: problems beside the scan's (which hold the manifests'). */
export function serverProblemsOfApps(result: ScanResult, trouble: (serverId: string) => ServerTrouble | undefined): Problem[] {
  const pluginByDir = new Map(result.plugins.map((p) => [p.dir, p]));
  return result.apps.flatMap((app) => appServerProblems(app, Math.max(pluginByDir.get(app.pluginDir)?.appIds.indexOf(app.appId) ?? 0, 0), trouble));
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
