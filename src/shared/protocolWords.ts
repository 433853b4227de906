import type { ServerProtocol } from './mcp.js';
import type { ServerView } from './hostApi.js';

/**
 * A server's protocol as the CLI and doctor say it (docs/using/mcp-servers.md#protocol-eras): the revision and
 * how it is spoken, `stateless` for 2026-07-28 (no initialize, no session), `initialize` for 2025 and older.
 */
export function protocolText(protocol: ServerProtocol): string {
  const version = protocol.version ?? (protocol.era === 'modern' ? '2026-07-28' : '2025 or older');
  return `MCP ${version} (${protocol.era === 'modern' ? 'stateless' : 'initialize'})`;
}

/** Each listed server's protocol (its running instance's, else its last start's), by id: what doctor says. */
export function protocolsOf(servers: readonly Pick<ServerView, 'id' | 'protocol'>[]): Map<string, ServerProtocol> {
  return new Map(servers.flatMap((server) => (server.protocol ? [[server.id, server.protocol] as const] : [])));
}
