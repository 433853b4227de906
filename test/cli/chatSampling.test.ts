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
 * A server that asks the model for a completion during `chatos chat`
 * (server-everything's sampling tool over stdio; the model is a local
 * provider server): on a real terminal (util-linux `script`) the request is
 * shown and approved, then the model's answer is shown and sent; without
 * one it is declined at once and the CLI says so, instead of the call
 * waiting for its timeout.
 */
afterEach(endTerminalSessions);

const SAMPLE_TOOL = 'mcp_everything_trigger-sampling-request';

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

describe('chatos chat and a server that samples', { timeout: 120_000 }, () => {
  it('on a terminal: shows the request, runs it on y, shows the answer and sends it on y', async () => {
    const { provider, home } = await everythingWorld();
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 's', name: SAMPLE_TOOL, arguments: { prompt: 'write a poem' } }] },
      { kind: 'reply', text: 'Blossoms on the wire' },
      { kind: 'reply', text: 'The server got its poem.' },
    );
    const { see, type, exited } = startTerminalSession(['chat', '--agent', 'helper', '-m', 'ask the server', '--home', home]);
    await see('server everything asks the model for a completion (sampling, up to');
    await see('Resource trigger-sampling-request context: write a poem');
    await see('run it? [y/N]');
    // Nothing went to the model before the user said yes.
    expect(provider.requests).toHaveLength(1);
    type('y\r');
    await see('Blossoms on the wire');
    await see('send this to everything? [y/N]');
    type('y\r');
    await see('The server got its poem.');
    expect(await exited).toBe(0);
    expect(toolResultsIn(provider.requests[2]!.body)[0]![1]).toContain('Blossoms on the wire');
  });

  it('on a terminal: a long request and a long answer are shown whole before their y/N', async () => {
    const { provider, home } = await everythingWorld();
    // Past what the review once cut (2,000 characters), each with a marker at its very end.
    const prompt = `${'request text '.repeat(400)}END-OF-REQUEST`;
    const answer = `${'answer text '.repeat(420)}END-OF-ANSWER`;
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 's', name: SAMPLE_TOOL, arguments: { prompt } }] }, { kind: 'reply', text: answer }, { kind: 'reply', text: 'The server got nothing.' });
    const { see, screen, type, exited } = startTerminalSession(['chat', '--agent', 'helper', '-m', 'ask the server', '--home', home]);
    await see('run it? [y/N]');
    expect(screen().slice(0, screen().indexOf('run it? [y/N]'))).toContain(`context: ${prompt}`);
    type('y\r');
    const question = 'send this to everything? [y/N]';
    await see(question);
    expect(screen().slice(0, screen().indexOf(question))).toContain(answer);
    type('n\r');
    await see('The server got nothing.');
    expect(await exited).toBe(0);
  });

  it('without a terminal: the request is declined at once, and stderr says so', async () => {
    const { provider, cli } = await everythingWorld();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 's', name: SAMPLE_TOOL, arguments: { prompt: 'write a poem' } }] }, { kind: 'reply', text: 'Understood.' });
    const run = await cli(['chat', '--agent', 'helper', '-m', 'ask the server', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('note: server everything asked the model for a completion (sampling); declined: there is no terminal to review it on');
    // Two requests only: the turn and its answer; the sampling request never reached the model.
    expect(provider.requests).toHaveLength(2);
    expect(toolResultsIn(provider.requests[1]!.body)[0]![1]).toContain('User rejected sampling request');
  });
});
