import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../../src/api/hostApiService.js';
import { ChatError } from '../../../src/core/facades/errors.js';
import type { AssistantMessage, UserMessage } from '../../../src/shared/chat.js';
import { agentUsing, startChatWorld } from '../../helpers/chatWorld.js';
import { EVERYTHING_SERVER } from '../../helpers/gatewayHost.js';
import { repoRoot } from '../../helpers/tempDir.js';

/**
 * An MCP prompt sent into a conversation (docs/using/slash-commands.md#what-is-sent),
 * got over real stdio and answered by the local provider server over real
 * HTTP: what the model request carries. Its user messages are the user's
 * (images as image parts), its assistant turns go as assistant turns before
 * the user's last, an embedded resource as text naming its uri, and what
 * cannot be sent is said, never dropped.
 */

const PROMPTS_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'promptsServer.mjs');
const RED_PNG = 'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAH0lEQVR42mO4YGBAFcQwatCoQaMGjRo0atCoQQNvEACIEqwfbFPLPQAAAABJRU5ErkJggg==';

const servers = {
  everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
  prompts: { transport: 'stdio', command: process.execPath, args: [PROMPTS_SERVER] },
};

async function world(vision = true) {
  const started = await startChatWorld({ servers, model: { vision }, agents: [agentUsing(['everything', 'prompts'])] });
  const conversationId = started.host.chat.create('helper').id;
  const { caller } = started.host.tools.callers.agent('helper', 'main', conversationId);
  /** Gets the prompt as the conversation's agent and sends it, as the chat.sendPrompt handler does. */
  const send = async (serverId: string, name: string, args: Record<string, string> = {}) =>
    started.host.chat.sendPrompt({ conversationId, agentId: 'helper', prompt: await started.host.tools.prompts.get(caller, `chatos::${serverId}`, name, args) });
  return { ...started, conversationId, send };
}

/** The request's messages but the system prompt, each as role and its parts (a string content as one text part). */
const sentTurns = (body: any): { role: string; parts: any[] }[] =>
  body.messages.filter((m: any) => m.role !== 'system').map((m: any) => ({ role: m.role, parts: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content }));

async function refusal(run: () => Promise<unknown>): Promise<ChatError> {
  try {
    await run();
  } catch (error) {
    return error as ChatError;
  }
  throw new Error('expected a refusal');
}

describe('an MCP prompt sent into a conversation', () => {
  it("server-everything's embedded resource reaches the model as text naming its uri, in the user's message", async () => {
    const { host, provider, send } = await world();
    provider.enqueue({ kind: 'reply', text: 'read it' });
    const outcome = await (await send('everything', 'resource-prompt', { resourceType: 'Text', resourceId: '2' })).done;
    expect(outcome.status).toBe('done');
    const turns = sentTurns(provider.requests[0]!.body);
    // Its two user messages are one user turn.
    expect(turns.map((t) => t.role)).toEqual(['user']);
    const text = turns[0]!.parts.map((p) => p.text).join('\n');
    expect(text).toContain('demo://resource/dynamic/text/2');
    expect(text).toMatch(/Resource demo:\/\/resource\/dynamic\/text\/2 \(text\/plain\):\n\S/);
    const user = outcome.messages[0] as UserMessage;
    expect(user.prompt).toEqual({ serverId: 'chatos::everything', name: 'resource-prompt' });
    expect(host.chat.get(outcome.conversationId).messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('assistant turns go before the last user turn as assistant turns; images as image parts; audio and an image in an answer said, not dropped', async () => {
    const { host, provider, home, send } = await world();
    provider.enqueue({ kind: 'reply', text: 'Red.' });
    const started = await send('prompts', 'few-shot', { subject: 'this square' });
    const outcome = await started.done;
    expect(outcome.status).toBe('done');

    const turns = sentTurns(provider.requests[0]!.body);
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    expect(turns[0]!.parts).toEqual([{ type: 'text', text: 'Name the colour of a sky at noon.' }]);
    expect(turns[1]!.parts.map((p) => p.text).join('')).toBe('Blue.');
    const last = turns[2]!.parts;
    expect(last[0].text).toMatch(/^Name the colour of this square\.\n\n\[Left out of prompt "few-shot" of server "chatos::prompts": /);
    expect(last[0].text).toContain('image 1 (image/png) is in an assistant turn');
    expect(last[0].text).toContain('the audio (audio/wav) is not sent');
    expect(last[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${RED_PNG}` } });
    expect(last).toHaveLength(2);

    // Stored as sent, in order, each marked as the prompt's; the answer follows the last user turn.
    const stored = host.chat.get(outcome.conversationId).messages;
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(outcome.messages.map((m) => m.id)).toEqual(stored.map((m) => m.id));
    expect(started.userMessageId).toBe(stored[0]!.id);
    const example = stored[1] as AssistantMessage;
    expect(example).toMatchObject({ text: 'Blue.', prompt: { serverId: 'chatos::prompts', name: 'few-shot' }, status: 'complete' });
    expect((stored[3] as AssistantMessage).text).toBe('Red.');
    expect((stored[3] as AssistantMessage).prompt).toBeUndefined();
    const question = stored[2] as UserMessage;
    expect(question.attachments).toEqual([
      { kind: 'image', name: 'few-shot-image-2.png', mimeType: 'image/png', byteLength: 88, artifact: expect.stringMatching(/^artifacts\/attachments\/.+\.png$/) },
    ]);
    // The export says which turns the prompt wrote.
    const exported = host.chat.export(outcome.conversationId, 'md').text;
    expect(exported).toContain('## User (from prompt /few-shot of chatos::prompts)');
    expect(exported).toContain('## Assistant (from prompt /few-shot of chatos::prompts)\n\nBlue.');
    const file = path.join(home, 'chatos', 'conversations', outcome.conversationId, question.attachments![0]!.artifact);
    expect(fs.readFileSync(file).toString('base64')).toBe(RED_PNG);
  });

  it('a model without vision gets a note naming the image, never its data', async () => {
    const { provider, send } = await world(false);
    provider.enqueue({ kind: 'reply', text: 'cannot see' });
    await (
      await send('prompts', 'few-shot', { subject: 'it' })
    ).done;
    const last = sentTurns(provider.requests[0]!.body).at(-1)!;
    expect(JSON.stringify(last)).not.toContain(RED_PNG);
    expect(last.parts.map((p) => p.text).join('\n')).toContain('[image few-shot-image-2.png attached; this model does not read images]');
  });

  it('bytes that are not an image are not sent as one, nor a binary resource, and the message says so', async () => {
    const { provider, send } = await world();
    provider.enqueue({ kind: 'reply', text: 'ok' });
    const outcome = await (await send('prompts', 'not-an-image')).done;
    const turns = sentTurns(provider.requests[0]!.body);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.parts).toEqual([
      {
        type: 'text',
        text:
          'What is this?\n\n[Left out of prompt "not-an-image" of server "chatos::prompts": ' +
          "the binary resource test://archive.zip (application/zip, 4 bytes) is not sent: open it from the server's resources instead; " +
          'image 1 (said to be image/png) is not a PNG, JPEG, GIF or WebP image: it is not sent]',
      },
    ]);
    expect((outcome.messages[0] as UserMessage).attachments).toBeUndefined();
  });

  it('refuses a prompt with no user message, and a send as another agent, storing nothing', async () => {
    const { host, send, conversationId, provider } = await world();
    const empty = await refusal(() => send('prompts', 'answers-only'));
    expect(empty).toMatchObject({ code: 'PROMPT_EMPTY', message: 'prompt "answers-only" of server "chatos::prompts" gave no user message to send' });
    const got = await host.tools.prompts.get(host.tools.callers.agent('helper', 'main', conversationId).caller, 'chatos::prompts', 'not-an-image', {});
    const other = await refusal(() => host.chat.sendPrompt({ conversationId, agentId: 'someone-else', prompt: got }));
    expect(other).toMatchObject({ code: 'AGENT_MISMATCH' });
    expect(host.chat.get(conversationId).messages).toEqual([]);
    expect(provider.requests).toEqual([]);
  });

  it('goes through the HostApi as chat.sendPrompt: got as the agent, sent into its conversation', async () => {
    const { host, provider, conversationId } = await world();
    const api = createHostApiService(host, { face: 'serve', urls: { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/artifacts${file}` }, version: '9.9.9', locale: 'en-US' });
    provider.enqueue({ kind: 'reply', text: 'Red.' });
    const reply = await api.handle({ method: 'chat.sendPrompt', params: { agentId: 'helper', conversationId, serverId: 'chatos::prompts', name: 'few-shot', arguments: { subject: 'it' } } });
    expect(reply).toMatchObject({ ok: true, result: { conversationId } });
    await provider.waitForRequests(1);
    expect(sentTurns(provider.requests[0]!.body).map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    const missing = await api.handle({ method: 'chat.sendPrompt', params: { agentId: 'helper', conversationId, serverId: 'chatos::prompts', name: 'few-shot' } });
    expect(missing).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS', message: expect.stringContaining('needs "subject"') } });
  });

  it('starts the conversation when it is the first message of a new chat: listed and sent with no conversation yet', async () => {
    const { host, provider } = await world();
    const api = createHostApiService(host, { face: 'serve', urls: { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/artifacts${file}` }, version: '9.9.9', locale: 'en-US' });
    const before = host.chat.list().length;
    const listed = await api.handle({ method: 'mcpPrompts.list', params: { agentId: 'helper' } });
    expect(listed).toMatchObject({ ok: true, result: { prompts: expect.arrayContaining([expect.objectContaining({ name: 'few-shot', serverId: 'chatos::prompts' })]) } });
    // A prompt that cannot be got (an argument missing) starts nothing.
    const refused = await api.handle({ method: 'chat.sendPrompt', params: { agentId: 'helper', serverId: 'chatos::prompts', name: 'few-shot' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
    expect(host.chat.list()).toHaveLength(before);

    provider.enqueue({ kind: 'reply', text: 'Red.' });
    const reply = (await api.handle({ method: 'chat.sendPrompt', params: { agentId: 'helper', serverId: 'chatos::prompts', name: 'few-shot', arguments: { subject: 'it' } } })) as any;
    expect(reply.ok).toBe(true);
    const conversation = host.chat.get(reply.result.conversationId);
    expect(conversation.conversation.agentId).toBe('helper');
    expect(conversation.messages[0]).toMatchObject({ role: 'user', prompt: { serverId: 'chatos::prompts', name: 'few-shot' } });
    await provider.waitForRequests(1);
    expect(sentTurns(provider.requests[0]!.body).map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    expect(host.chat.list()).toHaveLength(before + 1);
  });
});
