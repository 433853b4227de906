import type { HostApiResult } from '../../../../src/shared/hostApi';

export type Overview = HostApiResult<'registry.overview'>;
export type TargetKind = 'server' | 'prompt';

/** A column of the matrix: a registered server or prompt. */
export interface Target {
  id: string;
  name: string;
  /** Title of a prompt, description of a server: what the id stands for. */
  detail?: string;
  providerAppId: string;
  /** Why its plugin may not run now (untrusted, changed): it is listed, but offered to no one. */
  notRunnable?: string;
  /** Why it is missing (its plugin or origin is gone): shown, not offered; its grants are kept. */
  missing?: string;
}

export type CellState = { kind: 'owner' } | { kind: 'own' } | { kind: 'grant'; granted: boolean };

export function targetsOf(overview: Overview, kind: TargetKind): Target[] {
  const refused = new Map(overview.notRunnable.map((row) => [row.id, row.message]));
  if (kind === 'server') {
    return overview.servers.map((server) => ({
      id: server.id,
      name: server.name,
      detail: server.description,
      providerAppId: server.providerAppId,
      notRunnable: refused.get(server.id),
      missing: server.missing?.reason,
    }));
  }
  return overview.prompts.map((prompt) => ({
    id: prompt.id,
    name: prompt.name,
    detail: prompt.title ?? (prompt.lang ? prompt.lang : undefined),
    providerAppId: prompt.providerAppId,
    notRunnable: refused.get(prompt.id),
    missing: prompt.missing?.reason,
  }));
}

export function grantKey(appId: string, targetId: string): string {
  return `${appId}\u0000${targetId}`;
}

export function grantedSet(overview: Overview): Set<string> {
  return new Set(overview.grants.map((grant) => grantKey(grant.appId, grant.targetId)));
}

/** The registry owner sees everything; an app always sees what it registered itself; the rest is a grant. */
export function cellState(overview: Overview, granted: Set<string>, appId: string, target: Target): CellState {
  if (appId === overview.owner) return { kind: 'owner' };
  if (target.providerAppId === appId) return { kind: 'own' };
  return { kind: 'grant', granted: granted.has(grantKey(appId, target.id)) };
}

export function matchesSearch(target: Target, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [target.id, target.name, target.detail ?? '', target.providerAppId].some((text) => text.toLowerCase().includes(needle));
}
