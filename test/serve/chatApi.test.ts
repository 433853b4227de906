import * as fs from 'node:fs';
import * as path from 'node:path';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { HostApiMethods, HostEventSchema, type HostEventMessage } from '../../src/shared/hostApi.js';
import { chatServerEntry } from '../helpers/chatWorld.js';
import { waitUntil, writeMcpYaml } from '../helpers/gatewayHost.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';
import { until } from '../helpers/until.js';
import { api, lineMatching, serve, type Served } from './serveProcess.js';

/**
 * The chat methods and events of a real `chatos serve`, over HTTP and the
 * events socket, against the local provider server and the real chat
 * fixture server.
 */

const KEY = 'sk-serve-chat-Pz3Kd8Wq1Nv6';

async function prepareHome(provider: ProviderServer, options: { vision?: boolean } = {}): Promise<string> {
  const home = tempDir();
  writeMcpYaml(home, { chat: chatServerEntry() });
  const added = await runCli(
    ['models', 'add', 'local', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'test-model', '--api-key-stdin', '--home', home, ...(options.vision ? ['--vision'] : [])],
    { input: `${KEY}\n` },
  );
  expect(added.code, added.stderr).toBe(0);
  const agentFile = path.join(tempDir(), 'agent.json');
  fs.writeFileSync(agentFile, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::chat'] }] }));
  expect((await runCli(['agents', 'create', '--file', agentFile, '--home', home])).code).toBe(0);
  return home;
}

interface Client {
  served: Served;
  url: URL;
  token: string;
  call(method: keyof typeof HostApiMethods, params?: unknown): Promise<any>;
  events: HostEventMessage[];
  raw: string[];
  socket: WebSocket;
  waitFor(match: (e: HostEventMessage) => boolean, what: string): Promise<HostEventMessage>;
  replies: string[];
}

async function start(home: string): Promise<Client> {
  const served = serve(['--port', '0', '--home', home, '--json', '--no-watch']);
  const [line] = await lineMatching(served, /^\{"url".*\}$/m);
  const url = new URL(JSON.parse(line).url);
  const token = url.searchParams.get('token')!;
  const events: HostEventMessage[] = [];
  const raw: string[] = [];
  const socket = new WebSocket(`ws://${url.host}/events?token=${token}`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.on('message', (data) => {
    const text = data.toString();
    raw.push(text);
    const parsed = HostEventSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`an event that fails its schema: ${text}`);
    events.push(parsed.data);
  });
  const replies: string[] = [];
  const call = async (method: keyof typeof HostApiMethods, params: unknown = {}) => {
    const reply = await api(url, token, method, params);
    replies.push(JSON.stringify(reply));
    if (reply.ok) HostApiMethods[method].result.parse(reply.result);
    return reply;
  };
  const waitFor = async (match: (e: HostEventMessage) => boolean, what: string) => {
    await waitUntil(() => events.some(match), what, 30_000);
    return events.find(match)!;
  };
  return { served, url, token, call, events, raw, socket, waitFor, replies };
}

const statusOf = (id: string, status: string) => (e: HostEventMessage) => e.type === 'chat.status' && e.conversationId === id && e.status === status;

describe('chat over chatos serve', { timeout: 120_000 }, () => {
  it('send returns at once; deltas, tool calls with image urls, messages and the status arrive as events; the key goes nowhere else', async () => {
    const provider = await startProviderServer();
    const home = await prepareHome(provider, { vision: true });
    const c = await start(home);
    provider.enqueue(
      { kind: 'reply', text: 'Drawing.', toolCalls: [{ id: 'i', name: 'mcp_chat_image', arguments: {} }] },
      { kind: 'reply', text: ['A ', 'tiny ', 'dot.'], usage: { input: 30, output: 3 }, delayMs: 5 },
    );
    const sent = await c.call('chat.send', { agentId: 'helper', text: 'draw a dot' });
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    const id = sent.result.conversationId;
    await c.waitFor(statusOf(id, 'done'), 'the turn to end');

    const deltas = c.events.filter((e) => e.type === 'chat.delta' && e.conversationId === id).map((e) => (e.type === 'chat.delta' ? e.text : ''));
    expect(deltas.join('')).toBe('Drawing.A tiny dot.');
    const finished = c.events.find((e) => e.type === 'chat.toolCall' && e.phase === 'finished');
    expect(finished).toMatchObject({
      conversationId: id,
      callId: 'i',
      name: 'mcp_chat_image',
      status: 'ok',
      artifacts: [{ mimeType: 'image/png', url: expect.stringMatching(new RegExp(`^/conversation-artifacts/${id}/mcp/chatos__chat/image/\\d+-[0-9a-f-]+\\.png$`)) }],
    });
    const imageUrl = finished?.type === 'chat.toolCall' ? finished.artifacts![0]!.url : '';
    const image = await fetch(new URL(`${imageUrl}?token=${c.token}`, c.url));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    // Only a conversation's artifacts folder is served: never its messages.
    expect((await fetch(new URL(`/conversation-artifacts/${id}/messages.jsonl?token=${c.token}`, c.url))).status).toBe(404);
    expect((await fetch(new URL(`/conversation-artifacts/${id}/%2e%2e/messages.jsonl?token=${c.token}`, c.url))).status).toBe(404);
    const messages = c.events.filter((e) => e.type === 'chat.message' && e.conversationId === id).map((e) => (e.type === 'chat.message' ? e.message.role : ''));
    expect(messages).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(c.events.find(statusOf(id, 'done'))).toMatchObject({ totals: { answers: 2, inputTokens: 41, outputTokens: 10 } });

    const detail = (await c.call('conversations.get', { id })).result;
    expect(detail.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(detail.messages[3].stats).toMatchObject({ inputTokens: 30, outputTokens: 3, toolsSent: 8 });
    expect((await c.call('conversations.rename', { id, title: 'Dots' })).result.conversation.title).toBe('Dots');
    expect((await c.call('conversations.list')).result.conversations.map((x: { id: string; title: string }) => [x.id, x.title])).toEqual([[id, 'Dots']]);
    expect((await c.call('conversations.search', { text: 'tiny' })).result.hits).toEqual([expect.objectContaining({ conversationId: id, role: 'assistant' })]);
    expect((await c.call('conversations.export', { id, format: 'md' })).result.text).toContain('A tiny dot.');
    expect((await c.call('conversations.get', { id: '../x' })).error.code).toBe('BAD_REQUEST');
    expect((await c.call('chat.send', { text: 'nobody' })).error).toMatchObject({ code: 'BAD_REQUEST', fields: [{ path: 'agentId' }] });
    expect((await c.call('chat.send', { conversationId: 'missing', text: 'x' })).error.code).toBe('CONVERSATION_NOT_FOUND');
    await c.waitFor((e) => e.type === 'conversations.changed', 'a conversations.changed event');

    c.socket.close();
    c.served.child.kill('SIGTERM');
    expect((await c.served.exited).code).toBe(0);
    for (const text of [...c.replies, ...c.raw, c.served.stdout(), c.served.stderr()]) expect(text).not.toContain(KEY);
    for (const entry of fs.readdirSync(home, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (entry.isFile() && entry.name !== 'secrets.json') expect(fs.readFileSync(file).includes(Buffer.from(KEY)), file).toBe(false);
    }
    expect(provider.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a 400 is one request, a stopped conversation and a problem in problems.list until resumed', async () => {
    const provider = await startProviderServer();
    const home = await prepareHome(provider);
    const c = await start(home);
    provider.enqueue({ kind: 'error', status: 400, message: "Invalid 'tools[2].function.name'", param: 'tools[2].function.name' });
    const id = (await c.call('chat.send', { agentId: 'helper', text: 'x' })).result.conversationId;
    const stopped = await c.waitFor(statusOf(id, 'stopped'), 'the stop');
    expect(stopped).toMatchObject({ stop: { kind: 'error', code: 'PROVIDER_REJECTED', provider: { status: 400 } } });
    expect(provider.requests).toHaveLength(1);
    await c.waitFor((e) => e.type === 'problems.changed', 'problems.changed');
    const problems = (await c.call('problems.list')).result.problems.filter((p: { source: string }) => p.source === 'chat');
    expect(problems).toEqual([expect.objectContaining({ code: 'PROVIDER_REJECTED', severity: 'error', message: expect.stringContaining(`conversation ${id}`) })]);
    expect(problems[0].message).toMatch(/\[tool mcp_chat_\w+\]/);

    provider.enqueue({ kind: 'reply', text: 'fixed' });
    expect((await c.call('chat.resume', { conversationId: id })).ok).toBe(true);
    await c.waitFor(statusOf(id, 'done'), 'the resumed turn');
    expect((await c.call('problems.list')).result.problems.filter((p: { source: string }) => p.source === 'chat')).toEqual([]);
    expect((await c.call('chat.resume', { conversationId: id })).error.code).toBe('NOTHING_TO_RESUME');
  });

  it('chat.stop keeps the partial answer; a socket that goes away does not stop a turn', async () => {
    const provider = await startProviderServer();
    const home = await prepareHome(provider);
    const c = await start(home);
    provider.enqueue({ kind: 'reply', text: ['Partial ', 'answer ', 'never ', 'ends'], hangAfter: 3 });
    const id = (await c.call('chat.send', { agentId: 'helper', text: 'go' })).result.conversationId;
    await c.waitFor((e) => e.type === 'chat.delta' && e.text === 'answer ', 'the second delta');
    expect((await c.call('chat.stop', { conversationId: id })).result).toEqual({ stopped: true });
    await c.waitFor(statusOf(id, 'stopped'), 'the stop');
    const kept = await c.waitFor((e) => e.type === 'chat.message' && e.message.role === 'assistant', 'the partial answer');
    expect(kept).toMatchObject({ message: { text: 'Partial answer ', status: 'stopped', stop: { kind: 'user' } } });
    await provider.requests[0]!.closed;
    expect((await c.call('chat.stop', { conversationId: id })).result).toEqual({ stopped: false });

    // The page that started a turn goes away: the turn goes on in the host.
    provider.enqueue({ kind: 'reply', text: ['one ', 'two ', 'three'], delayMs: 200 });
    const second = (await c.call('chat.send', { conversationId: id, text: 'count' })).result;
    c.socket.terminate();
    // No page hears the end of the turn now: the conversation as chatos serve holds it is asked until it is done.
    const detail = await until(
      'the turn to end in chatos serve',
      async () => {
        const got = (await c.call('conversations.get', { id })).result;
        return got.conversation.status.kind === 'done' ? got : undefined;
      },
      30_000,
    );
    expect(detail.conversation.status.kind).toBe('done');
    // The stopped answer stays where it was, part of what the model is sent next.
    expect(detail.messages.map((m: any) => m.text)).toEqual(['go', 'Partial answer ', 'count', 'one two three']);
    expect(detail.messages[2].id).toBe(second.userMessageId);
    expect(provider.requests[1]!.body.messages.map((m: any) => m.content)).toEqual([expect.any(String), 'go', 'Partial answer ', 'count']);
  });

  it('kill -9 of chatos serve mid-stream: the conversation reopens in the next serve and resumes', async () => {
    const provider = await startProviderServer();
    const home = await prepareHome(provider);
    const first = await start(home);
    provider.enqueue({ kind: 'reply', text: ['Half ', 'an ', 'answer'], hangAfter: 2 });
    const id = (await first.call('chat.send', { agentId: 'helper', text: 'keep this' })).result.conversationId;
    await provider.waitForRequests(1);
    first.served.child.kill('SIGKILL');
    await first.served.exited;

    const second = await start(home);
    const detail = (await second.call('conversations.get', { id })).result;
    expect(detail.conversation.status).toMatchObject({ kind: 'stopped', stop: { kind: 'interrupted' } });
    expect(detail.messages.map((m: any) => [m.role, m.text])).toEqual([['user', 'keep this']]);
    provider.enqueue({ kind: 'reply', text: 'Kept.' });
    expect((await second.call('chat.resume', { conversationId: id })).ok).toBe(true);
    await second.waitFor(statusOf(id, 'done'), 'the resumed turn');
    expect((await second.call('conversations.get', { id })).result.messages.map((m: any) => m.text)).toEqual(['keep this', 'Kept.']);
  });

  it('confirmations of one message share a group id; "always" is kept per agent and tool, listed and revoked', async () => {
    const provider = await startProviderServer();
    const home = await prepareHome(provider);
    const c = await start(home);
    provider.enqueue(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'a', name: 'mcp_chat_danger', arguments: { what: 'a' } },
          { id: 'b', name: 'mcp_chat_danger', arguments: { what: 'b' } },
        ],
      },
      { kind: 'reply', text: 'both done' },
    );
    const id = (await c.call('chat.send', { agentId: 'helper', text: 'do both' })).result.conversationId;
    const asked = () => c.events.flatMap((e) => (e.type === 'question' && e.change === 'asked' && e.question.kind === 'toolConfirmation' ? [e.question.request] : []));
    await waitUntil(() => asked().length === 2, 'two confirmation requests', 30_000);
    const requests = asked();
    expect(requests[0]!.groupId).toBeDefined();
    expect(requests[1]!.groupId).toBe(requests[0]!.groupId);
    expect(requests[0]).toMatchObject({ agentId: 'helper', conversationId: id });
    expect((await c.call('questions.respond', { id: requests[0]!.id, answer: { kind: 'toolConfirmation', approved: true, scope: 'always' } })).result).toEqual({ answered: true });
    expect((await c.call('questions.respond', { id: requests[1]!.id, answer: { kind: 'toolConfirmation', approved: true } })).result).toEqual({ answered: true });
    await c.waitFor(statusOf(id, 'done'), 'the turn');
    expect((await c.call('alwaysAllow.list', { agentId: 'helper' })).result.entries).toEqual([expect.objectContaining({ agentId: 'helper', toolName: 'mcp_chat_danger', serverId: 'chatos::chat' })]);
    expect((await c.call('alwaysAllow.revoke', { agentId: 'helper', toolName: 'mcp_chat_danger' })).result).toEqual({ revoked: true });
    expect((await c.call('alwaysAllow.list')).result.entries).toEqual([]);
  });
});
