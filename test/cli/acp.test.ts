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

/** A data home with the agent `helper` on the local provider server. */
async function helperHome() {
  const provider = await startProviderServer();
  const home = tempDir('chatos-acp-cli-');
  writeMcpYaml(home, { chat: chatServerEntry() });
  expect((await runCli(['models', 'add', 'local', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'test-model', '--api-key-stdin', '--home', home], { input: 'k\n' })).code).toBe(0);
  const file = path.join(home, 'agent.json');
  fs.writeFileSync(file, JSON.stringify(agentUsing(['chat'])));
  expect((await runCli(['agents', 'create', '--file', file, '--home', home])).code).toBe(0);
  return { provider, home };
}

/** `chatos acp --agent helper` on that home, started as an editor starts it, with the ACP SDK's client on its stdio. */
async function editorWith(world?: Awaited<ReturnType<typeof helperHome>>) {
  const { provider, home } = world ?? (await helperHome());

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
  return { provider, home, editor, updates, permissions, decide: (to: 'once' | 'no') => (answer = to), exited, end, stderr: () => stderr };
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

  it("agents show and trust say an ACP agent's terminal level; off unless the file says ask", async () => {
    const home = tempDir('chatos-acp-terminal-cli-');
    const file = path.join(home, 'coder.json');
    fs.writeFileSync(file, JSON.stringify({ id: 'coder', name: 'Coder', kind: 'acp', acp: { command: 'node', args: ['agent.mjs'], terminal: 'ask' } }));
    expect((await runCli(['agents', 'create', '--file', file, '--home', home])).code).toBe(0);
    const shown = await runCli(['agents', 'show', 'coder', '--home', home]);
    expect(shown.stdout).toContain('ACP program: "node" "agent.mjs"');
    expect(shown.stdout).toContain('terminal: ask (it may run commands inside its roots, each asked first)');
    const trusted = await runCli(['agents', 'trust', 'coder', '--json', '--home', home]);
    expect(JSON.parse(trusted.stdout)).toMatchObject({ trusted: 'coder', terminal: 'ask' });
    fs.writeFileSync(file, JSON.stringify({ name: 'Coder', kind: 'acp', acp: { command: 'node', args: ['agent.mjs'] } }));
    expect((await runCli(['agents', 'update', 'coder', '--file', file, '--home', home])).code).toBe(0);
    expect((await runCli(['agents', 'trust', 'coder', '--home', home])).stdout).toContain('terminal: off (its terminal requests are refused)');
    fs.writeFileSync(file, JSON.stringify({ name: 'Coder', kind: 'acp', acp: { command: 'node', args: ['agent.mjs'], terminal: 'always' } }));
    const bad = await runCli(['agents', 'update', 'coder', '--file', file, '--home', home]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('terminal');
  });

  it('session/load: a stored conversation is replayed as session/updates before the answer, then goes on', async () => {
    const first = await editorWith();
    const init = await first.editor.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    expect(init.agentCapabilities?.loadSession).toBe(true);
    const { sessionId } = await first.editor.agent.request('session/new', { cwd: repoRoot, mcpServers: [] });
    first.provider.enqueue(
      { kind: 'reply', text: 'Hello from ChatOS' },
      { kind: 'reply', toolCalls: [{ id: 'e1', name: 'mcp_chat_echo', arguments: { text: 'echoed' } }] },
      { kind: 'reply', text: 'done echoing' },
    );
    await first.editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    await first.editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'echo please' }] });
    await first.end();

    // The editor starts it again (a new process) and reopens the session.
    const second = await editorWith(first);
    await second.editor.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    expect(await second.editor.agent.request('session/load', { sessionId, cwd: repoRoot, mcpServers: [] })).toEqual({});
    // Every update was sent before the answer, in the conversation's order.
    const replay = second.updates.map((n) => {
      expect(n.sessionId).toBe(sessionId);
      const u = n.update;
      if (u.sessionUpdate === 'user_message_chunk' || u.sessionUpdate === 'agent_message_chunk') return [u.sessionUpdate, u.content.type === 'text' ? u.content.text : ''];
      if (u.sessionUpdate === 'tool_call')
        return [u.sessionUpdate, u.toolCallId, u.status, u.rawInput, u.content?.map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : ''))];
      return [u.sessionUpdate];
    });
    expect(replay).toEqual([
      ['user_message_chunk', 'hi'],
      ['agent_message_chunk', 'Hello from ChatOS'],
      ['user_message_chunk', 'echo please'],
      ['tool_call', 'e1', 'completed', { text: 'echoed' }, [expect.stringContaining('echoed')]],
      ['agent_message_chunk', 'done echoing'],
    ]);
    // It goes on in the same conversation: the model is sent what came before.
    second.provider.enqueue({ kind: 'reply', text: 'still here' });
    second.updates.length = 0;
    expect((await second.editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'and now?' }] })).stopReason).toBe('end_turn');
    expect(textOf(second.updates)).toBe('still here');
    const sent = JSON.stringify(second.provider.requests.at(-1)!.body.messages);
    expect(sent).toContain('Hello from ChatOS');
    expect(sent).toContain('and now?');
    // A session that is not a conversation of this agent is not found.
    await expect(second.editor.agent.request('session/load', { sessionId: 'no-such-conversation', cwd: repoRoot, mcpServers: [] })).rejects.toThrow();
  }, 60_000);

  it("the editor's cwd and additional directories are the conversation's workspace roots; a cwd that is no folder is refused", async () => {
    const { editor, home, end } = await editorWith();
    await editor.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const project = tempDir('chatos-acp-project-');
    const docs = tempDir('chatos-acp-docs-');
    const { sessionId } = await editor.agent.request('session/new', { cwd: project, additionalDirectories: [docs], mcpServers: [] });
    await expect(editor.agent.request('session/new', { cwd: path.join(project, 'no-such-folder'), mcpServers: [] })).rejects.toThrow(/no-such-folder/);
    await end();
    const shown = await runCli(['conversations', 'show', sessionId, '--json', '--home', home]);
    expect(JSON.parse(shown.stdout).conversation.roots).toEqual([project, docs]);
  }, 60_000);
});
