import { addPluginRoot, listPluginRoots, removePluginRoot } from '../../core/operations/pluginRoots.js';
import { pruneRegistry } from '../../core/operations/registryPrune.js';
import { currentProblems } from './problems.js';
import type { HandlerContext, Handlers } from './types.js';

/** Plugin roots remembered for every process, and pruning what is gone from them. */
export function rootHandlers({ host, emit }: HandlerContext): Handlers<'roots.list' | 'roots.add' | 'roots.remove' | 'registry.prune'> {
  return {
    'roots.list': () => listPluginRoots(host),
    // The rescan inside announces plugins and registry changes; the reload brings the new servers in or takes them out.
    'roots.add': async ({ dir }) => {
      const result = await addPluginRoot(host, dir);
      await host.reloadMcp();
      return result;
    },
    'roots.remove': async ({ dir }) => {
      const result = await removePluginRoot(host, dir);
      await host.reloadMcp();
      return result;
    },
    'registry.prune': async ({ apply }) => {
      const result = pruneRegistry({ registry: host.registry, catalog: host.catalog }, apply);
      if (apply) {
        await host.save();
        emit({ type: 'registry.changed' });
        emit({ type: 'problems.changed', count: currentProblems(host).length });
      }
      return { applied: apply, ...result };
    },
  };
}
