import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, writeMcpYaml } from '../helpers/gatewayHost.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/** A TCP server in its own process that accepts every connection and never answers (runCli blocks this process). */
const SILENT_SERVER = `
const net = require('node:net');
const sockets = [];
const server = net.createServer((socket) => sockets.push(socket));
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const silent: ChildProcess[] = [];
afterEach(() => {
  for (const child of silent.splice(0)) child.kill('SIGKILL');
});

async function silentServer(): Promise<number> {
  const child = spawn(process.execPath, ['-e', SILENT_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  silent.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`the silent server exited (${code})`)));
  });
}

/**
 * A trusted streamable-HTTP server that cannot be reached: `chatos tools` and
 * `chatos call` used to wait forever (the SSE fallback retried without end).
 * Starting has a timeout now (mcp.yaml `connectTimeout`; a short one here),
 * the error names the server and its url, and the CLI exits 1.
 */
describe('an unreachable streamable-HTTP server', () => {
  it('that accepts and never answers: tools and call give up after its connect timeout, naming the server and url, and exit 1', async () => {
    const home = tempDir();
    const url = `http://127.0.0.1:${await silentServer()}/mcp`;
    writeMcpYaml(home, { remote: { transport: 'streamable_http', url, connectTimeout: 1500 } });

    const tools = await runCli(['tools', '--app', 'chatos', '--home', home], { timeoutMs: 60_000 });
    expect(tools.code).toBe(1);
    expect(tools.stderr).toContain(`server "chatos::remote" did not answer at ${url} within 1.5 s (its connect timeout)`);

    const call = await runCli(['call', 'mcp_remote_echo', '--app', 'chatos', '--home', home], { timeoutMs: 60_000 });
    expect(call.code).toBe(1);
    expect(call.stderr).toContain(`server "chatos::remote" did not answer at ${url}`);
  }, 300_000);

  it('on a closed port: the error names the server and url at once, and the CLI exits 1', async () => {
    const home = tempDir();
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    writeMcpYaml(home, { remote: { transport: 'streamable_http', url } });
    for (const args of [
      ['tools', '--app', 'chatos'],
      ['call', 'mcp_remote_echo', '--app', 'chatos'],
    ]) {
      const run = await runCli([...args, '--home', home], { timeoutMs: 60_000 });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`server "chatos::remote" at ${url} did not connect over streamable HTTP`);
      expect(run.stderr).toContain('ECONNREFUSED');
    }
  }, 300_000);

  it('connectTimeout must be a positive whole number of milliseconds', async () => {
    const home = tempDir();
    writeMcpYaml(home, { remote: { transport: 'streamable_http', url: 'http://127.0.0.1:1/mcp', connectTimeout: 'soon' } });
    const tools = await runCli(['tools', '--app', 'chatos', '--home', home], { timeoutMs: 60_000 });
    expect(tools.stderr).toContain('servers.remote.connectTimeout');
    expect(tools.stderr).toContain('connectTimeout: 30000');
  }, 300_000);
});
