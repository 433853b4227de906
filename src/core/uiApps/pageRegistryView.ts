import type { AppContribution } from '../../shared/appContribution.js';
import type { PageRegistryView } from '../../shared/pageRegistry.js';
import { notRunnableRows, type RunGate } from '../policy/runGate.js';
import type { RegistryCenter } from '../registry/registryCenter.js';

export interface PageRegistryDeps {
  registry: Pick<RegistryCenter, 'getMcpServersForApp' | 'getPromptsForApp'>;
  runGate: Pick<RunGate, 'checkCached'>;
  apps: readonly AppContribution[];
}

/**
 * `host.registry.list()` of the original ChatOS page API, scoped in the core
 * to what `app` may see: its own plugin's servers and prompts under its
 * provider app and the app's grants (never the whole registry, nor what
 * other plugins of the same provider app brought), without those whose
 * plugin may not run, and the UI apps those come from (its own apps always).
 * The face binds `app` to the frame; nothing the page sends widens it.
 */
export function pageRegistryView(deps: PageRegistryDeps, app: AppContribution): PageRegistryView {
  const visibleServers = deps.registry.getMcpServersForApp(app.providerAppId, app.pluginId).filter((s) => !s.missing);
  const visiblePrompts = deps.registry.getPromptsForApp(app.providerAppId, app.pluginId).filter((p) => !p.missing);
  const refused = new Set([...notRunnableRows(visibleServers, deps.runGate, 'server').keys(), ...notRunnableRows(visiblePrompts, deps.runGate, 'prompt').keys()]);
  const servers = visibleServers.filter((s) => !refused.has(s.id));
  const prompts = visiblePrompts.filter((p) => !refused.has(p.id));
  const sources = new Set<string>();
  for (const row of [...servers, ...prompts]) if (row.source.kind === 'plugin') sources.add(`${row.source.pluginId}\u0000${row.source.appId}`);
  const apps = deps.apps.filter((a) => a.pluginDir === app.pluginDir || sources.has(`${a.pluginId}\u0000${a.appId}`));
  return {
    appId: app.providerAppId,
    apps: apps.map((a) => ({ pluginId: a.pluginId, appId: a.appId, name: a.name, ...(a.description ? { description: a.description } : {}) })),
    servers: servers.map((s) => ({ id: s.id, name: s.name, providerAppId: s.providerAppId, ...(s.description ? { description: s.description } : {}) })),
    prompts: prompts.map((p) => ({ id: p.id, name: p.name, providerAppId: p.providerAppId, ...(p.title ? { title: p.title } : {}) })),
  };
}
