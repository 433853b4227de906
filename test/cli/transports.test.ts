import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * Issue 14, "Validate what breaks at run time": one rule for the
 * transports ChatOS supports (stdio and streamable HTTP), the same in
 * `chatos validate`, in mcp.yaml and when the runtime connects. A url that
 * validates can be connected to, and nothing falls back silently to the old
 * HTTP+SSE transport.
 */

const servers: ChildProcess[] = [];
afterEach(async () => {
  for (const child of servers.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

function urlPlugin(root: string, url: string): string {
  return writePlugin(
    root,
    'remote',
    { manifestVersion: 1, id: 'com.example.remote', name: 'Remote', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { url } } }] },
    { 'index.mjs': 'export function mount() {}\n' },
  );
}

/** Starts the SSE-only fixture server on a free loopback port. */
async function startSseOnlyServer(): Promise<number> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'test', 'fixtures', 'servers', 'sseOnlyServer.mjs')], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
  servers.push(child);
  let out = '';
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    const line = out.split('\n').find((l) => l.startsWith('{'));
    if (line && out.includes('\n')) return (JSON.parse(line) as { port: number }).port;
  }
  throw new Error(`the SSE-only server exited before it listened: ${out}`);
}

describe('supported transports', () => {
  it('chatos validate refuses ws:// and wss:// urls, naming the fix; http(s) urls validate', async () => {
    for (const url of ['ws://127.0.0.1:3000/mcp', 'wss://example.com/mcp']) {
      const dir = urlPlugin(tempDir(), url);
      const run = await runCli(['validate', dir, '--json', '--home', tempDir()]);
      expect(run.code, run.stderr).toBe(1);
      const problem = run.json().problems.find((p: { code: string }) => p.code === 'URL_SCHEME');
      expect(problem).toMatchObject({ severity: 'error', path: 'apps[0].ai.mcp.url' });
      expect(problem.message).toContain('WebSocket');
      expect(problem.hint).toContain('streamable HTTP');
    }
    const ok = await runCli(['validate', urlPlugin(tempDir(), 'https://example.com/mcp'), '--home', tempDir()]);
    expect(ok.code, ok.stderr).toBe(0);
  }, 300_000);

  it('mcp.yaml refuses transport: sse and ws:// urls with the same rule, each naming its field', async () => {
    const home = tempDir();
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    fs.writeFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'version: 1\nservers:\n  legacy:\n    transport: sse\n    url: http://127.0.0.1:3000/sse\n  socket:\n    url: ws://127.0.0.1:3000/mcp\n');
    const run = await runCli(['tools', '--app', 'chatos', '--json', '--home', home]);
    const problems = run.json().problems as { code: string; path: string; message: string; hint: string }[];
    const legacy = problems.find((p) => p.path === 'servers.legacy.transport')!;
    expect(legacy).toMatchObject({ code: 'MCP_TRANSPORT_UNSUPPORTED' });
    expect(legacy.message).toContain('never over the old HTTP+SSE transport');
    const socket = problems.find((p) => p.path === 'servers.socket.url')!;
    expect(socket).toMatchObject({ code: 'MCP_URL_INVALID' });
    expect(socket.message).toContain('WebSocket');
  }, 300_000);

  it('a streamable_http server that speaks only the old HTTP+SSE transport is not used through a silent fallback: the error names the server, its url and the fix', async () => {
    const port = await startSseOnlyServer();
    const home = tempDir();
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    const url = `http://127.0.0.1:${port}/sse`;
    fs.writeFileSync(path.join(home, 'chatos', 'mcp.yaml'), `version: 1\nservers:\n  legacy:\n    transport: streamable_http\n    url: ${url}\n`);
    const run = await runCli(['tools', '--app', 'chatos', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(1);
    const listed = run.json();
    expect(listed.tools.map((t: { name: string }) => t.name)).not.toContain('mcp_legacy_hello');
    const failed = listed.problems.find((p: { code: string; file: string }) => p.code === 'SERVER_START_FAILED' && p.file === 'chatos::legacy');
    expect(failed.message).toContain(`server "chatos::legacy" at ${url} did not connect over streamable HTTP`);
    expect(failed.message).toContain('old HTTP+SSE transport, which ChatOS does not use');
  }, 300_000);
});
