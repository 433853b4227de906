import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultsIn } from '../helpers/chatWorld.js';
import { writeMcpYaml } from '../helpers/gatewayHost.js';
import { startProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * A tool a server adds during a turn (its notifications/tools/list_changed
 * comes before the answer to the call that added it) is offered in the very
 * next round of the same turn, and called there (issue 41 item 7): the
 * re-list it started is read before the call's result is given. A real
 * stdio server (changingToolsServer.mjs) and a local provider server.
 */

const SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'changingToolsServer.mjs');

const offeredIn = (body: { tools?: { name: string }[] }) => (body.tools ?? []).map((tool) => tool.name);

describe('chatos chat and a tool added mid-turn', { timeout: 120_000 }, () => {
  it('the next round offers it, and the model calls it in the same turn', async () => {
    const provider = await startProviderServer();
    const home = tempDir();
    writeMcpYaml(home, { chg: { transport: 'stdio', command: process.execPath, args: [SERVER] } });
    const cli = (args: string[]) => runCli([...args, '--home', home]);
    expect((await cli(['models', 'add', 'local', '--api', 'anthropic', '--base-url', provider.url, '--model', 'test-model'])).code).toBe(0);
    const agentFile = path.join(tempDir(), 'agent.json');
    fs.writeFileSync(agentFile, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::chg'] }] }));
    expect((await cli(['agents', 'create', '--file', agentFile])).code).toBe(0);

    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'a', name: 'mcp_chg_add_tool', arguments: { name: 'fresh' } }] },
      { kind: 'reply', toolCalls: [{ id: 'f', name: 'mcp_chg_fresh', arguments: {} }] },
      { kind: 'reply', text: 'Done.' },
    );
    const run = await cli(['chat', '--agent', 'helper', '-m', 'add a tool and use it', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(provider.requests).toHaveLength(3);
    expect(offeredIn(provider.requests[0]!.body)).not.toContain('mcp_chg_fresh');
    expect(offeredIn(provider.requests[1]!.body)).toContain('mcp_chg_fresh');
    expect(toolResultsIn(provider.requests[2]!.body)).toContainEqual(['f', 'I am fresh']);
  });
});
