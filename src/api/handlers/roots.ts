import { currentProblems } from './problems.js';
import type { HandlerContext, Handlers } from './types.js';

/** Plugin roots remembered for every process, and pruning what is gone from them. */
export function rootHandlers({ host, emit }: HandlerContext): Handlers<'roots.list' | 'roots.add' | 'roots.remove' | 'registry.prune'> {
  return {
    'roots.list': () => host.plugins.listRoots(),
    // The rescan inside announces plugins and registry changes; the reload brings the new servers in or takes them out.
    'roots.add': async ({ dir }) => {
      const result = await host.plugins.addRoot(dir);
      await host.mcp.reload();
      return result;
    },
    'roots.remove': async ({ dir }) => {
      const result = await host.plugins.removeRoot(dir);
      await host.mcp.reload();
      return result;
    },
    'registry.prune': async ({ apply }) => {
      const result = host.registry.prune(apply);
      if (apply) {
        await host.save();
        emit({ type: 'registry.changed' });
        emit({ type: 'problems.changed', count: currentProblems(host).length });
      }
      return { applied: apply, ...result };
    },
  };
}
