import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PermissionLevel, ServerDefinition } from '../../../shared/mcp.js';
import { globMatches } from '../catalog/toolFilter.js';

export type PermissionSource = 'override' | 'config' | 'annotation' | 'default';

/**
 * A tool's permission level (docs/rules/confirmation.md#permission-levels), declared, never hard-wired:
 * the user's override, else the server's configured patterns (first match),
 * else MCP annotations (`destructiveHint` → confirm, `readOnlyHint` → read),
 * else `write`.
 */
export function resolvePermission(server: ServerDefinition, tool: Pick<Tool, 'name' | 'annotations'>, override?: PermissionLevel): { level: PermissionLevel; source: PermissionSource } {
  if (override) return { level: override, source: 'override' };
  const configured = server.permissions.find((rule) => globMatches(rule.pattern, tool.name));
  if (configured) return { level: configured.level, source: 'config' };
  if (tool.annotations?.destructiveHint === true) return { level: 'confirm', source: 'annotation' };
  if (tool.annotations?.readOnlyHint === true) return { level: 'read', source: 'annotation' };
  return { level: 'write', source: 'default' };
}
