import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './tempDir.js';

/**
 * mcp.yaml and the servers tests name in it, with no import of the host:
 * a browser test that writes a home for `chatos serve` loads this, not
 * gatewayHost.ts, whose host (src/core, some 470 modules) each test file
 * would otherwise transform and load for nothing (seconds per file).
 */

/** The stdio MCP server the gateway tests talk to (echo_meta, echo, count, dangerous, slow, barrier, until_file, images, crash, pid). */
export const GATEWAY_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'gatewayServer.mjs');
export const EVERYTHING_SERVER = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
/** The chat fixture server (rendezvous, sleep, slow, echo, image, picture, danger). */
export const CHAT_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'chatServer.mjs');

/** An mcp.yaml stdio entry that runs the gateway fixture with this Node. */
export function fixtureServer(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { transport: 'stdio', command: process.execPath, args: [GATEWAY_SERVER], ...extra };
}

/** An mcp.yaml stdio entry for the chat fixture, offered as `mcp_<name>_<tool>`. */
export const chatServerEntry = (extra: Record<string, unknown> = {}) => ({ transport: 'stdio', command: process.execPath, args: [CHAT_SERVER], ...extra });

/** Writes `<home>/chatos/mcp.yaml`. JSON is YAML, so the servers are written as JSON. */
export function writeMcpYaml(home: string, servers: Record<string, unknown>): string {
  const file = path.join(home, 'chatos', 'mcp.yaml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ version: 1, servers }, null, 2)}\n`);
  return file;
}
