/**
 * The group of tools a tool is shown in on a server's page
 * (docs/rules/settings-server.md#the-management-ui): the domain its server declares for it
 * (the settings server's module that declares the tool), else one group of
 * the tools that declare none. Never guessed from the tool's name.
 */
export const UNGROUPED = 'other';

export interface DomainGroup<T> {
  domain: string;
  tools: T[];
}

/** Tools grouped by declared domain, groups in order of first appearance (the server lists its modules in order). */
export function groupByDomain<T extends { domain?: string }>(tools: readonly T[]): DomainGroup<T>[] {
  // A Map: a domain is a server's word, and `constructor` is a word like any other.
  const groups = new Map<string, T[]>();
  for (const tool of tools) {
    const domain = tool.domain ?? UNGROUPED;
    const list = groups.get(domain) ?? [];
    list.push(tool);
    groups.set(domain, list);
  }
  return [...groups].map(([domain, list]) => ({ domain, tools: list }));
}
