import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultsIn } from '../helpers/chatWorld.js';
import { cliWorld, KEY } from '../helpers/cliChatWorld.js';
import { waitUntil } from '../helpers/gatewayHost.js';
import type { ProviderServer } from '../helpers/providerServer.js';
import type { CliRun } from '../helpers/runCli.js';
import { repoRoot } from '../helpers/tempDir.js';

/** `chatos chat` and `chatos conversations` as a user runs them: the built CLI, the local provider server, the real chat fixture server. */

/** Every file under `dir` but the secrets file, with its bytes. */
function filesUnder(dir: string): [string, Buffer][] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && entry.name !== 'secrets.json' ? [[file, fs.readFileSync(file)] as [string, Buffer]] : [];
  });
}

function expectNoKey(home: string, runs: CliRun[], provider: ProviderServer): void {
  for (const run of runs) expect(run.stdout + run.stderr).not.toContain(KEY);
  for (const [file, bytes] of filesUnder(home)) expect(bytes.includes(Buffer.from(KEY)), file).toBe(false);
  for (const request of provider.requests) expect(JSON.stringify(request.body)).not.toContain(KEY);
}

describe('chatos chat', { timeout: 120_000 }, () => {
  it('-m runs one turn to its end: parallel tool calls, the answer printed when piped; the key goes only to the provider', async () => {
    const { provider, home, cli } = await cliWorld();
    provider.enqueue(
      {
        kind: 'reply',
        text: 'Checking.',
        toolCalls: [
          { id: 'c1', name: 'mcp_chat_rendezvous', arguments: { key: 'k', count: 2 } },
          { id: 'c2', name: 'mcp_chat_rendezvous', arguments: { key: 'k', count: 2 } },
        ],
      },
      { kind: 'reply', text: 'All done.', usage: { input: 40, output: 4 } },
    );
    const run = await cli(['chat', '--agent', 'helper', '-m', 'meet']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Checking.\n\nAll done.\n');
    expect(run.stderr).toContain('→ mcp_chat_rendezvous');
    expect(run.stderr).toMatch(/✓ mcp_chat_rendezvous ok in \d+ ms: met 2 at k/);
    expect(run.stderr).toContain('40 in / 4 out');
    expect(provider.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(toolResultsIn(provider.requests[1]!.body)).toEqual([
      ['c1', 'met 2 at k'],
      ['c2', 'met 2 at k'],
    ]);

    provider.enqueue({ kind: 'reply', text: 'Again.' });
    const listed = (await cli(['conversations', 'list', '--json'])).json();
    const id = listed.conversations[0].id;
    const json = await cli(['chat', '--conversation', id, '-m', 'once more', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.json()).toMatchObject({
      conversationId: id,
      status: 'done',
      messages: [
        { role: 'user', text: 'once more' },
        { role: 'assistant', text: 'Again.' },
      ],
    });
    expect(provider.requests[2]!.body.messages.map((m: any) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user']);
    expectNoKey(home, [run, json], provider);
  });

  it('declines a confirm-level tool without a terminal (the model is told), and runs it with --yes', async () => {
    const { provider, cli } = await cliWorld();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd', name: 'mcp_chat_danger', arguments: { what: 'wipe' } }] }, { kind: 'reply', text: 'Not done.' });
    const declined = await cli(['chat', '--agent', 'helper', '-m', 'wipe']);
    expect(declined.code, declined.stderr).toBe(0);
    expect(declined.stderr).toContain('✗ mcp_chat_danger declined');
    expect(declined.stderr).toContain('rerun with --yes');
    expect(toolResultsIn(provider.requests[1]!.body)).toEqual([['d', 'The user declined to run mcp_chat_danger.']]);

    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd2', name: 'mcp_chat_danger', arguments: { what: 'wipe' } }] }, { kind: 'reply', text: 'Done.' });
    const approved = await cli(['chat', '--agent', 'helper', '-m', 'wipe', '--yes']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(toolResultsIn(provider.requests[3]!.body)).toEqual([['d2', 'did wipe']]);
  });

  it('a 400 stops after exactly one request, exit 1 with the problem; resume after the fix', async () => {
    const { provider, cli } = await cliWorld();
    provider.enqueue({ kind: 'error', status: 400, message: 'tools[0].function.parameters: invalid schema', param: 'tools[0].function.parameters' });
    const run = await cli(['chat', '--agent', 'helper', '-m', 'x']);
    expect(run.code).toBe(1);
    expect(provider.requests).toHaveLength(1);
    expect(run.stderr).toMatch(/^error: model "local" \(openai at .*\) rejected the request \(about the tool "mcp_\w+"\): tools\[0\]\.function\.parameters: invalid schema$/m);
    expect(run.stderr).toContain('fix: fix or switch off the tool');
    const id = /conversation: (\S+)/.exec(run.stderr)![1]!;
    const shown = (await cli(['conversations', 'show', id, '--json'])).json();
    expect(shown.conversation.status).toMatchObject({ kind: 'stopped', stop: { code: 'PROVIDER_REJECTED' } });

    provider.enqueue({ kind: 'reply', text: 'ok now' });
    const resumed = await cli(['chat', '--conversation', id, '-m', 'try again']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('ok now\n');
  });

  it('5xx and 429 are retried a bounded number of times (counted at the provider), honouring Retry-After', async () => {
    const { provider, cli } = await cliWorld();
    const busy = { kind: 'error' as const, status: 503, message: 'overloaded', headers: { 'retry-after-ms': '5' } };
    provider.enqueue(busy, busy, busy, busy);
    const failed = await cli(['chat', '--agent', 'helper', '-m', 'x']);
    expect(failed.code).toBe(1);
    expect(provider.requests).toHaveLength(4);
    expect(failed.stderr).toContain('failed 4 times (server 503): overloaded');
    expect(failed.stderr.match(/… server 503: overloaded; try \d of 4/g)).toHaveLength(3);

    provider.enqueue({ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after-ms': '5' } }, { kind: 'reply', text: 'there you go' });
    const limited = await cli(['chat', '--agent', 'helper', '-m', 'y']);
    expect(limited.code, limited.stderr).toBe(0);
    expect(limited.stdout).toBe('there you go\n');
    expect(provider.requests).toHaveLength(6);
  });

  it('Ctrl+C stops the answer (exit 130) and keeps what was written', async () => {
    const { provider, home } = await cliWorld();
    provider.enqueue({ kind: 'reply', text: ['Partial ', 'answer ', 'never ', 'ends'], hangAfter: 3 });
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'chatos.js'), 'chat', '--agent', 'helper', '-m', 'go', '--home', home], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    await provider.waitForRequests(1);
    // The frames before the hang are on their way: wait until the conversation's request is open, then interrupt.
    await waitUntil(() => fs.existsSync(path.join(home, 'chatos', 'conversations')), 'the conversation folder');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('stopped; continue with: chatos chat --conversation');
    await provider.requests[0]!.closed;
    expect(stdout === '' || stdout.startsWith('Partial')).toBe(true);
  });

  it('kill -9 mid-stream loses at most the answer being streamed; the conversation reopens and continues', async () => {
    const { provider, home, cli } = await cliWorld();
    provider.enqueue({ kind: 'reply', text: ['Half ', 'an ', 'answer'], hangAfter: 2 });
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'chatos.js'), 'chat', '--agent', 'helper', '-m', 'remember this', '--home', home], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await provider.waitForRequests(1);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const listed = await cli(['conversations', 'list', '--json']);
    const [conversation] = listed.json().conversations;
    expect(conversation.status).toMatchObject({ kind: 'stopped', stop: { kind: 'interrupted' } });
    const shown = (await cli(['conversations', 'show', conversation.id, '--json'])).json();
    expect(shown.messages.map((m: any) => [m.role, m.text])).toEqual([['user', 'remember this']]);

    provider.enqueue({ kind: 'reply', text: 'I remember.' });
    const again = await cli(['chat', '--conversation', conversation.id, '-m', 'do you remember?']);
    expect(again.code, again.stderr).toBe(0);
    expect(provider.requests[1]!.body.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content)).toEqual(['remember this', 'do you remember?']);
  });

  it('conversations list, show, search, export and delete', async () => {
    const { provider, cli, home } = await cliWorld();
    provider.enqueue({ kind: 'reply', text: 'Paris is the capital.' });
    expect((await cli(['chat', '--agent', 'helper', '-m', 'Capital of France?'])).code).toBe(0);
    const list = await cli(['conversations', 'list']);
    expect(list.stdout).toMatch(/^\S+ {2}\S+ {2}helper {2}Capital of France\? {2}\[done\]$/m);
    const id = list.stdout.split(' ')[0]!;
    const show = await cli(['conversations', 'show', id]);
    expect(show.stdout).toContain('you: Capital of France?\nhelper: Paris is the capital.');
    expect((await cli(['conversations', 'search', 'paris'])).stdout).toContain(`${id}  Capital of France?  assistant: Paris is the capital.`);
    const md = await cli(['conversations', 'export', id]);
    expect(md.stdout).toContain('## User\n\nCapital of France?');
    const json = JSON.parse((await cli(['conversations', 'export', id, '--format', 'json'])).stdout);
    expect(json.messages).toHaveLength(2);
    expect((await cli(['conversations', 'export', id, '--format', 'pdf'])).code).toBe(2);

    const deleted = await cli(['conversations', 'delete', id]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(fs.existsSync(path.join(home, 'chatos', 'conversations', id))).toBe(false);
    expect((await cli(['conversations', 'show', id])).code).toBe(1);
    expect((await cli(['conversations', 'delete', id])).stderr).toContain(`no conversation "${id}"`);
  });

  it('bad usage exits 2 naming the option', async () => {
    const { cli } = await cliWorld();
    expect((await cli(['chat', '-m', 'x'])).stderr).toContain('--agent ID');
    expect((await cli(['chat', '--agent', 'helper', '-m', 'x', '--max-rounds', '0'])).code).toBe(2);
    const noTerminal = await cli(['chat', '--agent', 'helper']);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain('give the message with -m TEXT');
    const unknown = await cli(['chat', '--agent', 'ghost', '-m', 'x']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no agent "ghost"');
  });
});
