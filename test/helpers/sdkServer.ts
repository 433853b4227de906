import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './tempDir.js';

/**
 * The source of a real stdio MCP server for a plugin written to a temp
 * folder: it imports the SDK from this checkout by absolute URL (the plugin
 * has no node_modules of its own). `body` registers tools on `server`.
 */
export function sdkServerSource(name: string, body: string): string {
  const sdk = (file: string) => JSON.stringify(pathToFileURL(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'server', file)).href);
  return [
    `import { McpServer } from ${sdk('mcp.js')};`,
    `import { StdioServerTransport } from ${sdk('stdio.js')};`,
    `const server = new McpServer({ name: ${JSON.stringify(name)}, version: '1.0.0' });`,
    body,
    'await server.connect(new StdioServerTransport());',
    '',
  ].join('\n');
}
