import { useEffect, useRef } from 'react';
import type { AgentUiApp } from '../../../../src/shared/agents';
import type { RegistryOverview } from './candidates';

/** `uiApps` without the servers in `gone`; the same array when none of them was picked. */
function withoutServers(uiApps: AgentUiApp[], gone: ReadonlySet<string>): AgentUiApp[] {
  if (!uiApps.some((app) => app.mcpServerIds.some((id) => gone.has(id)))) return uiApps;
  return uiApps.map((app) => ({ ...app, mcpServerIds: app.mcpServerIds.filter((id) => !gone.has(id)) }));
}

/**
 * An open editor follows the core when a server is removed for good: a
 * registration that was there and is gone now (not merely marked missing)
 * leaves the draft's picks, as it left the stored agents, so saving the draft
 * does not pick it again. Ids that were never registered stay, for the user to see.
 */
export function useDropRemovedServers(overview: RegistryOverview | undefined, current: () => AgentUiApp[], change: (next: AgentUiApp[]) => void): void {
  const before = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    if (!overview) return;
    const now = new Set(overview.servers.map((s) => s.id));
    const seen = before.current;
    before.current = now;
    if (!seen) return;
    const gone = new Set([...seen].filter((id) => !now.has(id)));
    if (gone.size === 0) return;
    const uiApps = current();
    const next = withoutServers(uiApps, gone);
    if (next !== uiApps) change(next);
    // Only a new answer of the registry is a change to follow; the callbacks are the editor's current ones.
  }, [overview]);
}
