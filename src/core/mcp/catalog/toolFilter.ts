/**
 * Tool white/blacklists (docs/rules/mcp-yaml.md#tool-filters). Patterns know one wildcard, `*`, for any
 * substring (the empty one included); every other character is literal, and
 * a pattern must match the whole name. Patterns are matched against the raw
 * MCP tool name, before any renaming, so a filter keeps working when the
 * naming changes.
 */

export interface ToolFilter {
  whitelist: readonly string[];
  blacklist: readonly string[];
}

/** Which mode of docs/rules/mcp-yaml.md#tool-filters a filter is in. */
export type FilterMode =
  /** Neither list: every tool is kept. */
  | 'none'
  /** Whitelist only: only tools matching it are kept. */
  | 'whitelist-only'
  /** A blacklist (with or without a whitelist): blacklisted tools are dropped unless whitelisted; the rest are kept. */
  | 'whitelist-and-blacklist';

export type FilterVerdict =
  | { kept: true; reason: 'no-filter' }
  /** `overrides` is the blacklist pattern the whitelist won over, if any. */
  | { kept: true; reason: 'whitelisted'; pattern: string; overrides?: string }
  /** With a blacklist, a tool on neither list is kept: the whitelist then curates, it does not restrict. */
  | { kept: true; reason: 'not-blacklisted' }
  | { kept: false; reason: 'blacklisted'; pattern: string }
  | { kept: false; reason: 'not-whitelisted' };

/** Does `pattern` (only `*` is special) match all of `name`? Linear, no regex, so no character needs escaping. */
export function globMatches(pattern: string, name: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === name;
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  let at = first.length;
  const end = name.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    // Leftmost match of each middle part leaves the most room for the rest.
    const found = name.indexOf(middle, at);
    if (found < 0 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return true;
}

export function firstMatch(patterns: readonly string[], name: string): string | undefined {
  return patterns.find((pattern) => globMatches(pattern, name));
}

export function filterMode(filter: ToolFilter): FilterMode {
  if (filter.blacklist.length) return 'whitelist-and-blacklist';
  return filter.whitelist.length ? 'whitelist-only' : 'none';
}

export function filterTool(filter: ToolFilter, rawName: string): FilterVerdict {
  const whitelisted = firstMatch(filter.whitelist, rawName);
  switch (filterMode(filter)) {
    case 'none':
      return { kept: true, reason: 'no-filter' };
    case 'whitelist-only':
      return whitelisted === undefined ? { kept: false, reason: 'not-whitelisted' } : { kept: true, reason: 'whitelisted', pattern: whitelisted };
    case 'whitelist-and-blacklist': {
      const blacklisted = firstMatch(filter.blacklist, rawName);
      if (whitelisted !== undefined) {
        return { kept: true, reason: 'whitelisted', pattern: whitelisted, ...(blacklisted === undefined ? {} : { overrides: blacklisted }) };
      }
      return blacklisted === undefined ? { kept: true, reason: 'not-blacklisted' } : { kept: false, reason: 'blacklisted', pattern: blacklisted };
    }
  }
}

/** A sentence for a dropped tool's warning. */
export function describeDrop(verdict: Extract<FilterVerdict, { kept: false }>, filter: ToolFilter): string {
  return verdict.reason === 'blacklisted'
    ? `it matches the blacklist pattern "${verdict.pattern}" and no whitelist pattern`
    : `it matches no whitelist pattern (${filter.whitelist.map((p) => `"${p}"`).join(', ')}) and the whitelist is the only list`;
}
