import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatServerEntry, toolResultsIn } from '../helpers/chatWorld.js';
import { writeMcpYaml } from '../helpers/gatewayHost.js';
import { startProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';
import { endTerminalSessions, startTerminalSession } from '../helpers/terminalSession.js';

/**
 * `chatos chat` without -m on a real terminal: util-linux `script` gives
 * the CLI a pseudo-terminal, and the test types into it as a user would
 * (Enter, Ctrl+C, Ctrl+D).
 */
afterEach(endTerminalSessions);

describe('chatos chat on a terminal', { timeout: 120_000 }, () => {
  it('is a prompt loop: answers stream, a confirmation asks y/N, Ctrl+C stops an answer, Ctrl+D quits', async () => {
    const provider = await startProviderServer();
    const home = tempDir();
    writeMcpYaml(home, { chat: chatServerEntry() });
    const cli = (args: string[]) => runCli([...args, '--home', home]);
    expect((await cli(['models', 'add', 'local', '--api', 'anthropic', '--base-url', provider.url, '--model', 'test-model'])).code).toBe(0);
    const agentFile = path.join(tempDir(), 'agent.json');
    fs.writeFileSync(agentFile, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::chat'] }] }));
    expect((await cli(['agents', 'create', '--file', agentFile])).code).toBe(0);

    const session = startTerminalSession(['chat', '--agent', 'helper', '--home', home]);
    const { see, type, exited } = session;

    await see('you> ');
    provider.enqueue({ kind: 'reply', text: 'Hi there, friend.' });
    type('hello\r');
    await see('Hi there, friend.');
    await see('you> ', session.screen().indexOf('Hi there'));
    expect(session.screen()).toContain('you> hello');

    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd', name: 'mcp_chat_danger', arguments: { what: 'tidy' } }] }, { kind: 'reply', text: 'Tidied.' });
    let mark = session.screen().length;
    type('tidy up\r');
    await see('tidy up', mark);
    await see('run it? [y/N', mark);
    type('y\r');
    await see('Tidied.', mark);
    expect(toolResultsIn(provider.requests[2]!.body)).toEqual([['d', 'did tidy']]);

    // Anthropic's frames: message_start, content_block_start, ping, then the deltas: two of them before it hangs.
    provider.enqueue({ kind: 'reply', text: ['Once ', 'upon ', 'a ', 'time'], hangAfter: 5 });
    await see('you> ', session.screen().lastIndexOf('Tidied.'));
    mark = session.screen().length;
    type('a story\r');
    await see('Once upon', mark);
    type('\x03');
    await see('stopped; continue with', mark);
    await provider.requests[3]!.closed;

    await see('you> ', session.screen().lastIndexOf('stopped; continue with'));
    type('\x04');
    expect(await exited).toBe(0);
    const listed = (await cli(['conversations', 'list', '--json'])).json();
    expect(listed.conversations).toHaveLength(1);
    const shown = (await cli(['conversations', 'show', listed.conversations[0].id, '--json'])).json();
    expect(shown.messages.filter((m: any) => m.role === 'user').map((m: any) => m.text)).toEqual(['hello', 'tidy up', 'a story']);
    expect(shown.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Once upon ', status: 'stopped', stop: { kind: 'user' } });
  });
});
