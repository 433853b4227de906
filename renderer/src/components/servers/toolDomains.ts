import { ownValue } from '../../api/ownValue';

/**
 * Which domain (docs/rules/settings-server.md#the-management-ui) a tool belongs to, from its raw
 * name alone: the HostApi does not carry the settings server's module
 * domains, so they are derived. A name is `verb_noun…` (snake or camel
 * case); the domain is the first noun after the verb, singular, then mapped
 * through the few aliases that make the settings server's names land in its
 * own modules (agents / apps / registry / mcp / knowledge, see
 * src/core/settingsServer/tools/*.tools.ts): `grant_access` is registry,
 * `set_tool_enabled` is mcp, `add_document` is knowledge. A name of one word is its own domain.
 */
const ALIASES: Record<string, string> = {
  agent: 'agents',
  app: 'apps',
  registry: 'registry',
  access: 'registry',
  grant: 'registry',
  prompt: 'registry',
  mcp: 'mcp',
  server: 'mcp',
  tool: 'mcp',
  knowledge: 'knowledge',
  document: 'knowledge',
};

function words(rawName: string): string[] {
  return rawName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const singular = (word: string) => (word.length > 3 && word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);

export function domainOf(rawName: string): string {
  const parts = words(rawName);
  const noun = parts.length > 1 ? parts[1]! : (parts[0] ?? 'other');
  const key = singular(noun);
  // The key comes from a server's tool name: `get_constructor` must not find Object.prototype.constructor.
  return ownValue(ALIASES, key) ?? key;
}

export interface DomainGroup<T> {
  domain: string;
  tools: T[];
}

/** Tools grouped by domain, groups in order of first appearance (the server lists its modules in order). */
export function groupByDomain<T extends { rawName: string }>(tools: readonly T[]): DomainGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const tool of tools) {
    const domain = domainOf(tool.rawName);
    const list = groups.get(domain) ?? [];
    list.push(tool);
    groups.set(domain, list);
  }
  return [...groups].map(([domain, list]) => ({ domain, tools: list }));
}
