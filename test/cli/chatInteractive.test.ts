import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatServerEntry, toolResultsIn } from '../helpers/chatWorld.js';
import { waitUntil, writeMcpYaml } from '../helpers/gatewayHost.js';
import { startProviderServer } from '../helpers/providerServer.js';
import { runCliAsync } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * `chatos chat` without -m on a real terminal: util-linux `script` gives
 * the CLI a pseudo-terminal, and the test types into it as a user would
 * (Enter, Ctrl+C, Ctrl+D).
 */
const sessions: ChildProcess[] = [];

afterEach(() => {
  // A failed test must not leave the session behind: `script` and the CLI under it (its own session on the terminal).
  for (const child of sessions.splice(0)) {
    if (child.exitCode !== null) continue;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
});

describe('chatos chat on a terminal', { timeout: 120_000 }, () => {
  it('is a prompt loop: answers stream, a confirmation asks y/N, Ctrl+C stops an answer, Ctrl+D quits', async () => {
    const provider = await startProviderServer();
    const home = tempDir();
    writeMcpYaml(home, { chat: chatServerEntry() });
    const cli = (args: string[]) => runCliAsync([...args, '--home', home]);
    expect((await cli(['models', 'add', 'local', '--api', 'anthropic', '--base-url', provider.url, '--model', 'test-model'])).code).toBe(0);
    const agentFile = path.join(tempDir(), 'agent.json');
    fs.writeFileSync(agentFile, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', uiApps: [{ pluginId: 'x', appId: 'y', mcp: true, mcpServerIds: ['chatos::chat'] }] }));
    expect((await cli(['agents', 'create', '--file', agentFile])).code).toBe(0);

    const command = [process.execPath, path.join(repoRoot, 'bin', 'chatos.js'), 'chat', '--agent', 'helper', '--home', home].map((a) => `'${a}'`).join(' ');
    // `script` runs the CLI in a session of its own on the pseudo-terminal; detached, `script` leads a group the test can end.
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    sessions.push(child);
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
    child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const see = (text: string, from = 0) =>
      waitUntil(() => screen.indexOf(text, from) !== -1, `"${text}" on the terminal`, 30_000).catch((error: Error) => {
        throw new Error(`${error.message}; it shows:\n${screen}`);
      });
    const type = (keys: string) => child.stdin.write(keys);

    await see('you> ');
    provider.enqueue({ kind: 'reply', text: 'Hi there, friend.' });
    type('hello\r');
    await see('Hi there, friend.');
    await see('you> ', screen.indexOf('Hi there'));
    expect(screen).toContain('you> hello');

    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd', name: 'mcp_chat_danger', arguments: { what: 'tidy' } }] }, { kind: 'reply', text: 'Tidied.' });
    let mark = screen.length;
    type('tidy up\r');
    await see('tidy up', mark);
    await see('run it? [y/N', mark);
    type('y\r');
    await see('Tidied.', mark);
    expect(toolResultsIn(provider.requests[2]!.body)).toEqual([['d', 'did tidy']]);

    // Anthropic's frames: message_start, content_block_start, ping, then the deltas: two of them before it hangs.
    provider.enqueue({ kind: 'reply', text: ['Once ', 'upon ', 'a ', 'time'], hangAfter: 5 });
    await see('you> ', screen.lastIndexOf('Tidied.'));
    mark = screen.length;
    type('a story\r');
    await see('Once upon', mark);
    type('\x03');
    await see('stopped; continue with', mark);
    await provider.requests[3]!.closed;

    await see('you> ', screen.lastIndexOf('stopped; continue with'));
    type('\x04');
    expect(await exited).toBe(0);
    const listed = (await cli(['conversations', 'list', '--json'])).json();
    expect(listed.conversations).toHaveLength(1);
    const shown = (await cli(['conversations', 'show', listed.conversations[0].id, '--json'])).json();
    expect(shown.messages.filter((m: any) => m.role === 'user').map((m: any) => m.text)).toEqual(['hello', 'tidy up', 'a story']);
    expect(shown.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Once upon ', status: 'stopped', stop: { kind: 'user' } });
  });
});
