import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, PROTOCOL_VERSION, type RequestPermissionRequest, type SessionNotification } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { agentUsing, chatServerEntry } from '../helpers/chatWorld.js';
import { writeMcpYaml, waitUntil } from '../helpers/gatewayHost.js';
import { startProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/** `chatos acp`: the built binary as an editor starts it, driven by the ACP SDK's client side over its real stdio. */

const ended: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(ended.splice(0).map((end) => end()));
});

async function editorWith() {
  const provider = await startProviderServer();
  const home = tempDir('chatos-acp-cli-');
  writeMcpYaml(home, { chat: chatServerEntry() });
  expect((await runCli(['models', 'add', 'local', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'test-model', '--api-key-stdin', '--home', home], { input: 'k\n' })).code).toBe(0);
  const file = path.join(home, 'agent.json');
  fs.writeFileSync(file, JSON.stringify(agentUsing(['chat'])));
  expect((await runCli(['agents', 'create', '--file', file, '--home', home])).code).toBe(0);

  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'chatos.js'), 'acp', '--agent', 'helper', '--home', home], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  let answer: 'once' | 'no' = 'once';
  const editor = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => void updates.push(params))
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      return { outcome: { outcome: 'selected', optionId: answer } };
    })
    .connect(ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  const end = async () => {
    editor.close();
    child.stdin.end();
    await exited;
  };
  ended.push(end);
  return { provider, editor, updates, permissions, decide: (to: 'once' | 'no') => (answer = to), exited, end, stderr: () => stderr };
}

const textOf = (updates: SessionNotification[]) =>
  updates
    .map((n) => n.update)
    .flatMap((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? [u.content.text] : []))
    .join('');

describe('chatos acp', () => {
  it('answers a prompt with the agent model, asks the editor before a sensitive tool, and takes a cancel', async () => {
    const { provider, editor, updates, permissions, decide, exited, end, stderr } = await editorWith();
    const init = await editor.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
    const { sessionId } = await editor.agent.request('session/new', { cwd: repoRoot, mcpServers: [] });

    provider.enqueue({ kind: 'reply', text: 'Hello from ChatOS' });
    const first = await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    expect(first.stopReason).toBe('end_turn');
    expect(textOf(updates)).toBe('Hello from ChatOS');
    expect(provider.requests.at(-1)!.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'hi' });

    // A confirm-level tool: the editor is asked; approved, it runs; declined, it does not.
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd1', name: 'mcp_chat_danger', arguments: { what: 'the deed' } }] }, { kind: 'reply', text: 'did it' });
    updates.length = 0;
    expect((await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'do it' }] })).stopReason).toBe('end_turn');
    expect(permissions[0]).toMatchObject({ sessionId, toolCall: { toolCallId: 'd1', rawInput: { what: 'the deed' } } });
    const finished = updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'd1');
    expect(finished).toMatchObject({ status: 'completed', content: [{ content: { text: 'did the deed' } }] });

    decide('no');
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd2', name: 'mcp_chat_danger', arguments: { what: 'again' } }] }, { kind: 'reply', text: 'not done' });
    updates.length = 0;
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] });
    expect(permissions).toHaveLength(2);
    const declined = updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'd2');
    expect(declined).toMatchObject({ status: 'failed' });

    // Cancel: a model that never answers; session/cancel stops the turn.
    provider.enqueue({ kind: 'hang' });
    const prompt = editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] });
    await waitUntil(() => provider.requests.length === 6, 'the hanging request', 20_000);
    await editor.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(stderr()).toContain('serving agent "helper"');
    // The editor closes its end: chatos acp ends, as a process should.
    await end();
    expect(await exited).toBe(0);
  }, 60_000);

  it('agents trust shows what an ACP agent runs, warns for a variable that decides its code, and trusts it', async () => {
    const home = tempDir('chatos-acp-trust-cli-');
    const file = path.join(home, 'coder.json');
    fs.writeFileSync(file, JSON.stringify({ id: 'coder', name: 'Coder', kind: 'acp', acp: { command: 'node', args: ['agent.mjs'], env: { NODE_OPTIONS: '--require ./x.cjs' } } }));
    expect((await runCli(['agents', 'create', '--file', file, '--home', home])).code).toBe(0);
    const trusted = await runCli(['agents', 'trust', 'coder', '--home', home]);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('runs: "node" "agent.mjs"');
    expect(trusted.stdout).toMatch(/warning: NODE_OPTIONS decides .*--require/);
    const json = await runCli(['agents', 'trust', 'coder', '--json', '--home', home]);
    expect(JSON.parse(json.stdout)).toMatchObject({ trusted: 'coder', command: 'node', env: ['NODE_OPTIONS'], warnings: [{ name: 'NODE_OPTIONS' }] });
    fs.writeFileSync(file, JSON.stringify({ id: 'plain', name: 'Plain' }));
    expect((await runCli(['agents', 'create', '--file', file, '--home', home])).code).toBe(0);
    const refused = await runCli(['agents', 'trust', 'plain', '--home', home]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not of kind "acp"');
  });
});
