import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { caller, freePort, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { repoRoot } from '../../helpers/tempDir.js';

/**
 * A view may be larger than one message (docs/rules/mcp-apps.md#size): a
 * `ui://` read is let up to the server's `maxViewBytes` (16 MiB by default),
 * over stdio and over HTTP, and nothing else is. The official PDF example's
 * view (4.3 MB, from npm) is read whole; past the bound the read fails
 * naming the bound and the setting, and the server goes on.
 */

const PDF_MAIN = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-pdf', 'dist', 'index.js');
const PDF_VIEW = 'ui://pdf-viewer/mcp-app.html';
const DATA = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'viewDataServer.mjs')] };

const started: ChildProcess[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Its SIGTERM handler waits for open connections to close, and the host's may still be open: ended outright.
    child.kill('SIGKILL');
    await exited;
  }
});

/** The PDF example over HTTP on a free port of 127.0.0.1, once it says it listens. */
async function startPdfOverHttp(): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [PDF_MAIN], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the PDF example exited (${code}) before it listened: ${out}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

async function viewOf(servers: Record<string, unknown>, serverId: string, uri: string) {
  const { host } = await startTestHost(({ home }) => writeMcpYaml(home, servers));
  const who = caller('conv-view');
  return { host, caller: who, read: () => host.tools.apps.view(who, serverId, uri) };
}

describe('a view larger than one message', { timeout: 120_000 }, () => {
  it("reads the official PDF example's 4.3 MB view over stdio and over HTTP", async () => {
    const stdio = await viewOf({ pdf: { transport: 'stdio', command: process.execPath, args: [PDF_MAIN, '--stdio'] } }, 'chatos::pdf', PDF_VIEW);
    const overStdio = await stdio.read();
    expect(overStdio.html.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(overStdio.html).toContain('<html');

    const url = await startPdfOverHttp();
    const http = await viewOf({ pdf: { transport: 'streamable_http', url } }, 'chatos::pdf', PDF_VIEW);
    expect((await http.read()).html).toBe(overStdio.html);
  });

  it('refuses a view past maxViewBytes naming the bound and the setting; every other answer keeps 4 MiB; the server goes on', async () => {
    const { host, caller: who } = await viewOf({ data: { ...DATA, maxViewBytes: 5 * 1024 * 1024 } }, 'chatos::data', 'ui://data/big45.html');
    // Under the server's bound (and over one message): read whole.
    expect((await host.tools.apps.view(who, 'chatos::data', 'ui://data/big45.html')).html.length).toBeGreaterThan(4.5 * 1024 * 1024);
    // Over it: the read fails in words, before the host holds it.
    await expect(host.tools.apps.view(who, 'chatos::data', 'ui://data/big6.html')).rejects.toThrow(
      /the MCP App view was 6 MB, over the 5 MB a view of this server may be; it was not read: raise "maxViewBytes" of server "data" in mcp\.yaml/,
    );
    // A resource that is no view is held to one message, whatever the setting.
    await expect(host.tools.resources.read(who, 'chatos::data', 'data://big')).rejects.toThrow(/over the 4 MB limit of one message over stdio/);
    // The same instance answers on.
    expect(textOf((await host.tools.call(who, 'mcp_data_report', {})).result)).toBe('report: 42');
  });
});
