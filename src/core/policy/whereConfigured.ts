import * as path from 'node:path';
import type { ServerDefinition } from '../../shared/mcp.js';

/** Where a server's settings are written, for a fix to point at: its mcp.yaml entry, its plugin.json, or another app's registration. */
export type ServerConfigPlace = { kind: 'yaml'; file: string } | { kind: 'plugin'; file: string; appId: string } | { kind: 'other' };

export function whereConfigured(server: ServerDefinition, mcpConfigFile: string): ServerConfigPlace {
  if (server.origin === 'mcp.yaml') return { kind: 'yaml', file: mcpConfigFile };
  if (server.plugin) return { kind: 'plugin', file: path.join(server.plugin.pluginDir, 'plugin.json'), appId: server.plugin.appId };
  return { kind: 'other' };
}
