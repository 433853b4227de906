import type { AppContribution, PluginSource, UiAppMeta } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import type { DataHome } from '../dataHome.js';
import { buildCallMeta } from '../naming/callMeta.js';
import { formatCmdUrl } from '../naming/cmdUrl.js';
import { deriveServerName, derivePromptNames } from '../naming/names.js';
import type { ValidatedApp } from '../plugins/validatePlugin.js';
import type { PluginManifest } from '../plugins/manifestSchema.js';
import type { ExposeDefaults } from './exposeDefaults.js';
import { resolveExposure } from './exposure.js';

export interface ContributionContext {
  home: DataHome;
  exposeDefaults: ExposeDefaults;
  /** The workspace conversations run in; `_meta.chatos.uiApp.sessionRoot`. */
  sessionRoot: string;
  /** The project the user works on; `_meta.chatos.uiApp.projectRoot`. */
  projectRoot: string;
}

/** A valid manifest's url is http(s) (see transports.ts): nothing else validates. */
function transportOf(url: string): 'stdio' | 'http' {
  return url.startsWith('cmd://') ? 'stdio' : 'http';
}

/** Derives an app's names, url, meta and exposure (docs/rules/names-and-exposure.md#where-the-contribution-lives). Pure apart from the cached defaults lookup. */
export function contributeApp(manifest: PluginManifest, pluginDir: string, source: PluginSource, app: ValidatedApp, ctx: ContributionContext): { contribution: AppContribution; problems: Problem[] } {
  const appManifest = app.manifest;
  const ai = appManifest.ai;
  const serverName = deriveServerName(manifest.id, appManifest.id);
  const uiApp: UiAppMeta = {
    pluginId: manifest.id,
    appId: appManifest.id,
    pluginDir,
    dataDir: ctx.home.pluginDataDir(manifest.id),
    stateDir: ctx.home.pluginStateDir(manifest.id),
    sessionRoot: ctx.sessionRoot,
    projectRoot: ctx.projectRoot,
  };
  const problems: Problem[] = [];
  const defaults = ai?.mcpServers === true || ai?.prompts === true ? ctx.exposeDefaults.lookup(manifest.id, appManifest.id) : undefined;
  if (defaults) problems.push(...defaults.problems);

  const mcp = ai?.mcp;
  let mcpContribution: AppContribution['mcp'];
  if (mcp) {
    const argv = app.mcpEntryPath ? [app.mcpEntryPath, ...mcp.args] : undefined;
    const url = argv ? formatCmdUrl(mcp.command, argv) : mcp.url!;
    mcpContribution = {
      url,
      transport: transportOf(url),
      command: argv ? mcp.command : undefined,
      args: argv,
      env: mcp.env,
      enabled: mcp.enabled,
      description: mcp.description,
      tags: mcp.tags,
      callMeta: mcp.callMeta,
      permissions: mcp.permissions,
      ...(mcp['truely-stateless'] ? { trulyStateless: true } : {}),
    };
  }

  const contribution: AppContribution = {
    pluginId: manifest.id,
    appId: appManifest.id,
    providerAppId: manifest.providerAppId ?? manifest.id,
    name: appManifest.name,
    description: appManifest.description,
    source,
    pluginDir,
    entry: { path: app.entryPath, compactPath: app.compactPath },
    ...(appManifest.mcpApp ? { mcpApp: { resourceUri: appManifest.mcpApp.resourceUri } } : {}),
    iconPath: app.iconPath,
    serverName,
    promptNames: derivePromptNames(serverName),
    allowMain: mcp?.allowMain ?? false,
    allowSub: mcp?.allowSub ?? true,
    mcp: mcpContribution,
    prompt: app.prompt ? { title: app.prompt.title, zh: app.prompt.zh?.text, en: app.prompt.en?.text } : undefined,
    agent: ai?.agent,
    exposure: {
      mcpServers: resolveExposure(ai?.mcpServers, app.aiConfig?.mcpServers, defaults?.lists?.mcpServers),
      prompts: resolveExposure(ai?.prompts, app.aiConfig?.prompts, defaults?.lists?.prompts),
    },
    uiApp,
    meta: buildCallMeta(mcp?.callMeta ?? {}, uiApp),
  };
  return { contribution, problems };
}
