import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from '../../helpers/tempDir.js';

/** The canvas server as another MCP host runs it: `node server.mjs`, no ChatOS, no _meta. */
export const SERVER = path.join(repoRoot, 'plugins', 'canvas', 'mcp', 'server.mjs');

const children: ChildProcess[] = [];

/** Ends every server startHttp started (an afterEach). */
export function stopHttpServers(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/** The server over HTTP on a free port of 127.0.0.1 (`args` after server.mjs), once it printed its URL: the /mcp endpoint's. */
export async function startHttp(env: Record<string, string>, args: string[] = []): Promise<string> {
  const child = spawn(process.execPath, [SERVER, ...args], { env: { PATH: process.env.PATH ?? '', MCP_TRANSPORT: 'http', MCP_PORT: '0', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the server exited ${code}: ${stderr}`)));
  });
}
