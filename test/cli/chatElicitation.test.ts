import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolResultsIn } from '../helpers/chatWorld.js';
import { EVERYTHING_SERVER, writeMcpYaml } from '../helpers/gatewayHost.js';
import { startProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';
import { endTerminalSessions, startTerminalSession } from '../helpers/terminalSession.js';

/**
 * What a server asks during `chatos chat`: on a real terminal (util-linux
 * `script`) the form is asked field by field, Enter keeping each default;
 * without one the question is declined and the CLI says so. The model is
 * a local provider server whose scripted reply calls server-everything's
 * elicitation tool.
 */
afterEach(endTerminalSessions);

const FORM_TOOL = 'mcp_everything_trigger-elicitation-request';

async function everythingWorld() {
  const provider = await startProviderServer();
  const home = tempDir();
  writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } });
  const cli = (args: string[]) => runCli([...args, '--home', home]);
  expect((await cli(['models', 'add', 'local', '--api', 'anthropic', '--base-url', provider.url, '--model', 'test-model'])).code).toBe(0);
  const agentFile = path.join(tempDir(), 'agent.json');
  fs.writeFileSync(agentFile, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::everything'] }] }));
  expect((await cli(['agents', 'create', '--file', agentFile])).code).toBe(0);
  return { provider, home, cli };
}

describe('chatos chat and what servers ask', { timeout: 120_000 }, () => {
  it('on a terminal: asks each field with its default, Enter keeps it, then sends the form', async () => {
    const { provider, home } = await everythingWorld();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'e', name: FORM_TOOL, arguments: {} }] }, { kind: 'reply', text: 'Thanks, noted.' });
    const session = startTerminalSession(['chat', '--agent', 'helper', '-m', 'sign me up', '--home', home]);
    const { see, type, exited } = session;
    await see('server everything (chatos::everything) asks:');
    await see('Please provide inputs for the following fields:');
    await see('(fields marked * are required; Enter keeps the value shown)');
    await see('String * (Your full, legal name)');
    type('Ada Lovelace\r');
    await see('Boolean (Agree to the terms and conditions)');
    type('y\r');
    await see('(Enter keeps: It was a dark and stormy night.)');
    type('\r');
    await see('String with email format [email]: ');
    type('\r');
    await see('String with uri format [uri]: ');
    type('\r');
    await see('String with date format [date]: ');
    type('\r');
    await see('(Enter keeps: 42)');
    type('\r');
    await see('(Enter keeps: 3.14)');
    type('\r');
    await see('    6) Phoebe');
    await see('(Enter keeps: Monica)');
    type('3\r');
    for (const kept of ['(Enter keeps: Guitar)', '(Enter keeps: Superman)', '(Enter keeps: Tuna)', '(Enter keeps: Cats)']) {
      await see(kept);
      type('\r');
    }
    await see('send these answers? [a = accept, d = decline, c = cancel]');
    type('a\r');
    await see('Thanks, noted.');
    expect(await exited).toBe(0);
    const [[, result]] = toolResultsIn(provider.requests[1]!.body);
    expect(result).toContain('- Name: Ada Lovelace');
    expect(result).toContain('"untitledSingleSelectEnum": "Joey"');
    expect(result).toContain('"firstLine": "It was a dark and stormy night."');
    expect(result).toContain('"check": true');
  });

  it('without a terminal: the question is declined, and stderr says so', async () => {
    const { provider, cli } = await everythingWorld();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'e', name: FORM_TOOL, arguments: {} }] }, { kind: 'reply', text: 'Understood.' });
    const run = await cli(['chat', '--agent', 'helper', '-m', 'sign me up', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('note: server everything asked a question (form); declined: there is no terminal to ask on');
    expect(toolResultsIn(provider.requests[1]!.body)[0]![1]).toContain('User declined to provide the requested information.');
  });
});
