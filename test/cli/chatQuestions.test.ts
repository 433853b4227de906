import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultsIn } from '../helpers/chatWorld.js';
import { EVERYTHING_SERVER, writeMcpYaml } from '../helpers/gatewayHost.js';
import { startProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * The one dispatcher of `chatos chat` (src/cli/chatQuestions.ts), in process: one model message asks for a tool that
 * needs confirmation, a tool whose server asks a question (elicitation) and one whose server samples the model, all
 * at once, against server-everything over stdio. Without a terminal each kind is answered its own way, every one
 * through the host's questions: the confirmation declined (or approved with --yes), the server's question and
 * sampling request declined at once and said so, and no call waits for its timeout.
 */

const ECHO = 'mcp_everything_echo';
const FORM = 'mcp_everything_trigger-elicitation-request';
const SAMPLE = 'mcp_everything_trigger-sampling-request';

async function world() {
  const provider = await startProviderServer();
  const home = tempDir();
  // echo needs confirmation here, so one message asks all three kinds.
  writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], permissions: { echo: 'confirm' } } });
  const cli = (args: string[]) => runCli([...args, '--home', home]);
  expect((await cli(['models', 'add', 'local', '--api', 'anthropic', '--base-url', provider.url, '--model', 'test-model'])).code).toBe(0);
  const agentFile = path.join(tempDir(), 'agent.json');
  fs.writeFileSync(agentFile, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::everything'] }] }));
  expect((await cli(['agents', 'create', '--file', agentFile])).code).toBe(0);
  const askAll = () =>
    provider.enqueue(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'c', name: ECHO, arguments: { message: 'hello' } },
          { id: 'e', name: FORM, arguments: {} },
          { id: 's', name: SAMPLE, arguments: { prompt: 'a poem' } },
        ],
      },
      { kind: 'reply', text: 'Done.' },
    );
  return { provider, cli, askAll };
}

describe('chatos chat: every kind of question through one dispatcher', { timeout: 60_000 }, () => {
  it('without a terminal: the confirmation is declined, the server question and the sampling request declined and said so', async () => {
    const { provider, cli, askAll } = await world();
    askAll();
    const run = await cli(['chat', '--agent', 'helper', '-m', 'do all three']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`✗ ${ECHO} declined`);
    expect(run.stderr).toContain('note: server everything asked a question (form); declined: there is no terminal to ask on');
    expect(run.stderr).toContain('note: server everything asked the model for a completion (sampling); declined: there is no terminal to review it on');
    const results = new Map(toolResultsIn(provider.requests[1]!.body));
    expect(results.get('c')).toBe(`The user declined to run ${ECHO}.`);
    expect(results.get('e')).toContain('User declined to provide the requested information.');
    // The model was asked twice (the message, then the answer to the results): the sampling request never reached it.
    expect(provider.requests).toHaveLength(2);
  });

  it('with --yes: the confirmation is approved, while what servers ask is still declined (--yes approves tools only)', async () => {
    const { provider, cli, askAll } = await world();
    askAll();
    const run = await cli(['chat', '--agent', 'helper', '-m', 'do all three', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const results = new Map(toolResultsIn(provider.requests[1]!.body));
    expect(results.get('c')).toContain('Echo: hello');
    expect(results.get('e')).toContain('User declined to provide the requested information.');
    expect(run.stderr).toContain('note: server everything asked the model for a completion (sampling); declined: there is no terminal to review it on');
  });
});
