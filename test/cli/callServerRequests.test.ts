import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, writeMcpYaml } from '../helpers/gatewayHost.js';
import { startProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * A server that asks something back while `chatos call` runs its tool
 * (server-everything over stdio, unmodified): only `chatos chat` answered,
 * so the call waited for the request's timeout (issue 41 item 9). Without
 * a terminal `chatos call` now declines at once and says so, as chat does.
 * A page the server needs opened first (JSON-RPC error -32042, item 15) is
 * the same url question, never the raw error.
 */

async function everythingWorld() {
  const provider = await startProviderServer();
  const home = tempDir();
  writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } });
  const cli = (args: string[]) => runCli([...args, '--home', home]);
  expect((await cli(['models', 'add', 'local', '--api', 'anthropic', '--base-url', provider.url, '--model', 'test-model'])).code).toBe(0);
  const agentFile = path.join(tempDir(), 'agent.json');
  fs.writeFileSync(agentFile, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::everything'] }] }));
  expect((await cli(['agents', 'create', '--file', agentFile])).code).toBe(0);
  return { provider, cli };
}

describe('chatos call and a server that asks back', { timeout: 120_000 }, () => {
  it('a sampling request is declined at once without a terminal; the model is never asked', async () => {
    const { provider, cli } = await everythingWorld();
    const run = await cli(['call', 'mcp_everything_trigger-sampling-request', '--agent', 'helper', '--args', '{"prompt":"write a poem"}']);
    expect(run.stderr).toContain('note: server everything asked the model for a completion (sampling); declined: there is no terminal to review it on');
    expect(`${run.stdout}${run.stderr}`).toContain('User rejected sampling request');
    expect(provider.requests).toHaveLength(0);
  });

  it('a page to open first (-32042) is a url question, declined without a terminal: the call says so, no raw error', async () => {
    const { cli } = await everythingWorld();
    const run = await cli(['call', 'mcp_everything_trigger-url-elicitation', '--agent', 'helper', '--args', '{"url":"https://example.com/authorize","errorPath":true}']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('note: server everything asked a question (url); declined: there is no terminal to ask on');
    expect(run.stdout).toContain('needs a page opened in a browser before this call (JSON-RPC error -32042); the user declined to open it, so the call was not made again.');
    expect(run.stderr).not.toContain('JSON-RPC error -32042:');
  });
});
