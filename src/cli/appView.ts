import type { AppContribution } from '../shared/appContribution.js';
import type { Host } from '../core/host.js';
import type { ScanResult } from '../core/facades/plugins.js';

/** `chatos apps --json`: one entry per app with what the host derived, plus each plugin with its problems. */
export function appsView(host: Host, result: ScanResult) {
  return { apps: host.plugins.appViews(result), plugins: result.plugins, problems: result.problems };
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
    ...(app.mcpApp ? [`    page:     ${app.mcpApp.resourceUri}  (an MCP App of its own server)`] : []),
    `    prompts:  ${app.promptNames.zh}, ${app.promptNames.en}${app.prompt ? '' : '  (no own prompt)'}`,
    `    flags:    allowMain=${app.allowMain} allowSub=${app.allowSub}${app.mcp && !app.mcp.enabled ? ' disabled' : ''}`,
    `    exposes:  mcpServers=${exposureText(app.exposure.mcpServers)} prompts=${exposureText(app.exposure.prompts)}`,
    `    workdir:  ${app.meta.workdir}`,
  ];
  return lines.join('\n');
}
