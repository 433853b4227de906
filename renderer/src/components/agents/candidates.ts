import type { AppView, HostApiResult } from '../../../../src/shared/hostApi';
import { ownValue } from '../../api/ownValue';

export type RegistryOverview = HostApiResult<'registry.overview'>;
type Exposure = AppView['exposure']['mcpServers'];

/** One server or prompt an agent may select for an app. */
export interface Candidate {
  id: string;
  description?: string;
  /** The app brings it itself (way A): the host adds it whenever the switch is on. */
  own: boolean;
  /** The agent's host app may see it (registry owner: everything; others: own + grants). */
  visible: boolean;
}

export interface Candidates {
  items: Candidate[];
  /** Names in the app's exposure list that nothing in the registry is called. */
  unmatched: string[];
}

/** The key of an installed app in selects and maps: `pluginId/appId`. */
export const appKey = (app: { pluginId: string; appId: string }) => `${app.pluginId}/${app.appId}`;

/**
 * Ids an exposure list stands for (docs/rules/names-and-exposure.md#exposure): `all` → everything
 * registered, `list` → each name as a registry id when it has one (`p::n`),
 * else every registration of that name, `off` → nothing.
 */
function expand<T extends { id: string; name: string }>(exposure: Exposure, registered: readonly T[]): { found: T[]; unmatched: string[] } {
  switch (exposure.exposure.mode) {
    case 'off':
      return { found: [], unmatched: [] };
    case 'all':
      return { found: [...registered], unmatched: [] };
    case 'list': {
      const found: T[] = [];
      const unmatched: string[] = [];
      for (const name of exposure.exposure.names) {
        const hits = registered.filter((r) => (name.includes('::') ? r.id === name : r.name === name));
        if (hits.length === 0) unmatched.push(name);
        found.push(...hits);
      }
      return { found, unmatched };
    }
  }
}

function build(own: string[], exposed: { found: { id: string }[]; unmatched: string[] }, describe: (id: string) => string | undefined, visible: Set<string>): Candidates {
  const seen = new Set<string>();
  const items: Candidate[] = [];
  const add = (id: string, isOwn: boolean) => {
    if (seen.has(id)) return;
    seen.add(id);
    items.push({ id, description: describe(id), own: isOwn, visible: visible.has(id) });
  };
  own.forEach((id) => add(id, true));
  exposed.found.forEach((r) => add(r.id, false));
  return { items, unmatched: exposed.unmatched };
}

/** Servers an agent may pick for this app: its own server, then what its `mcpServers` exposure names. */
export function serverCandidates(app: AppView, overview: RegistryOverview, hostAppId: string): Candidates {
  const byId = new Map(overview.servers.map((s) => [s.id, s]));
  const own = app.serverId ? [app.serverId] : [];
  const visible = new Set(ownValue(overview.visible, hostAppId)?.servers ?? []);
  return build(own, expand(app.exposure.mcpServers, overview.servers), (id) => byId.get(id)?.description, visible);
}

/** Prompts an agent may pick for this app: its own zh/en prompts when registered, then what its `prompts` exposure names. */
export function promptCandidates(app: AppView, overview: RegistryOverview, hostAppId: string): Candidates {
  const byId = new Map(overview.prompts.map((p) => [p.id, p]));
  const own = [app.promptNames.zh, app.promptNames.en].map((name) => `${app.providerAppId}::${name}`).filter((id) => byId.has(id));
  const visible = new Set(ownValue(overview.visible, hostAppId)?.prompts ?? []);
  const describe = (id: string) => {
    const prompt = byId.get(id);
    if (!prompt) return undefined;
    const firstLine = prompt.content.trim().split('\n')[0] ?? '';
    return [prompt.title, prompt.lang].filter(Boolean).join(' · ') || firstLine.slice(0, 80);
  };
  return build(own, expand(app.exposure.prompts, overview.prompts), describe, visible);
}
