import type { ServerDefinition } from '../../shared/mcp.js';
import type { RunGate } from './runGate.js';

export interface StopNotRunnableDeps {
  runGate: Pick<RunGate, 'check'>;
  backends: { running(): { pluginId: string }[]; stop(pluginId: string, reason: 'not-runnable'): Promise<void> };
  connections: { snapshot(): { serverId: string }[]; retire(serverId: string, reason: 'not-runnable'): Promise<void> };
  definition(serverId: string): ServerDefinition | undefined;
}

/**
 * Ends whatever of a plugin runs now that the run gate no longer allows
 * (untrusted or uninstalled by another process, its files edited since it
 * was trusted, gone): its backend and its servers' instances, each audited as
 * `not-runnable`. The gate refuses them at their next start or call anyway;
 * this ends them now, not when someone happens to call. Every answer is
 * taken before the first await, so it is the gate's answer of this moment.
 * Returns the ids of the plugins something was stopped of.
 */
export async function stopNotRunnable(deps: StopNotRunnableDeps): Promise<string[]> {
  const stopped = new Set<string>();
  const work: Promise<void>[] = [];
  for (const { pluginId } of deps.backends.running()) {
    if (deps.runGate.check({ pluginId }, 'backend').ok) continue;
    stopped.add(pluginId);
    work.push(deps.backends.stop(pluginId, 'not-runnable'));
  }
  for (const serverId of new Set(deps.connections.snapshot().map((s) => s.serverId))) {
    const plugin = deps.definition(serverId)?.plugin;
    if (!plugin || deps.runGate.check(plugin, 'server').ok) continue;
    stopped.add(plugin.pluginId);
    work.push(deps.connections.retire(serverId, 'not-runnable'));
  }
  await Promise.all(work);
  return [...stopped];
}
