import { describe, expect, it } from 'vitest';
import { confirm, onAsked, pendingOf } from '../../helpers/questions.js';
import { createHost } from '../../../src/core/host.js';
import type { AssistantMessage } from '../../../src/shared/chat.js';
import { startChatWorld } from '../../helpers/chatWorld.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';
import type { Host } from '../../../src/core/host.js';

/** The chat operations: branches, export, search, delete, and conversations that outlive the process. */

const leasesOf = (host: Host, conversationId: string) =>
  host.mcp.servers
    .snapshots()
    .flatMap((s) => s.leases)
    .filter((l) => l.conversationId === conversationId).length;

describe('chat operations', () => {
  it('regenerate and edit make branches; the earlier ones stay reachable', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', text: 'first answer' });
    const turn = host.chat.send({ agentId: 'helper', text: 'question' });
    await turn.done;
    const id = turn.conversationId;
    provider.enqueue({ kind: 'reply', text: 'second answer' });
    await host.chat.regenerate({ conversationId: id }).done;
    let detail = host.chat.get(id);
    expect(detail.messages.map((m) => (m.role === 'assistant' ? m.text : m.role))).toEqual(['user', 'second answer']);
    const [oldAnswer, newAnswer] = detail.siblings[detail.messages[1]!.id]!;
    expect(newAnswer).toBe(detail.messages[1]!.id);
    // The second request was the same history as the first: the old answer is not part of it.
    expect(provider.requests[1]!.body.messages).toEqual(provider.requests[0]!.body.messages);

    provider.enqueue({ kind: 'reply', text: 'edited answer' });
    const edited = host.chat.edit({ conversationId: id, messageId: detail.messages[0]!.id, text: 'better question' });
    await edited.done;
    detail = host.chat.get(id);
    expect(detail.messages.map((m) => (m.role === 'user' ? m.text : m.role === 'assistant' ? m.text : m.role))).toEqual(['better question', 'edited answer']);
    expect(detail.siblings[edited.userMessageId!]).toHaveLength(2);

    const back = host.chat.setBranch(id, oldAnswer!);
    expect(back.messages.map((m) => (m.role === 'assistant' ? m.text : m.role === 'user' ? m.text : ''))).toEqual(['question', 'first answer']);
  });

  it('exports as Markdown and JSON, and searches titles and message text', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', text: 'The capital of France is Paris.', usage: { input: 10, output: 8 } });
    const turn = host.chat.send({ agentId: 'helper', text: 'Capital of France?' });
    await turn.done;
    const md = host.chat.export(turn.conversationId, 'md');
    expect(md).toMatchObject({ filename: 'Capital-of-France.md', mimeType: 'text/markdown' });
    expect(md.text).toContain('# Capital of France?');
    expect(md.text).toContain('## User\n\nCapital of France?');
    expect(md.text).toContain('The capital of France is Paris.');
    const json = JSON.parse(host.chat.export(turn.conversationId, 'json').text);
    expect(json).toMatchObject({ format: 'chatos-conversation', version: 1, conversation: { id: turn.conversationId } });
    expect(json.messages).toHaveLength(2);

    expect(host.chat.search('paris')).toEqual([expect.objectContaining({ conversationId: turn.conversationId, role: 'assistant', snippet: 'The capital of France is Paris.' })]);
    expect(host.chat.search('FRANCE').map((h) => h.role)).toEqual(['title', 'user', 'assistant']);
    expect(host.chat.search('nowhere')).toEqual([]);
  });

  it('the model is offered mcp_release; deleting a conversation releases its leases and forgets its approvals', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'e', name: 'mcp_chat_echo', arguments: { text: 'x' } }] },
      { kind: 'reply', toolCalls: [{ id: 'r', name: 'mcp_release', arguments: { serverId: 'chatos::chat' } }] },
      { kind: 'reply', text: 'released' },
    );
    const turn = host.chat.send({ agentId: 'helper', text: 'use and release' });
    const outcome = await turn.done;
    expect(outcome.status).toBe('done');
    expect(JSON.stringify(provider.requests[2]!.body)).toContain(`Released this conversation's instance of \\"chatos::chat\\"`);
    expect(leasesOf(host, turn.conversationId)).toBe(0);

    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd', name: 'mcp_chat_danger', arguments: {} }] }, { kind: 'reply', text: 'ok' });
    const approve = onAsked(host, 'toolConfirmation', (request) => void confirm(host, request.id, true, 'conversation'));
    const other = host.chat.send({ agentId: 'helper', text: 'hold a lease' });
    await other.done;
    approve();
    expect(leasesOf(host, other.conversationId)).toBe(1);
    // Approved for this conversation: asked no more while it lasts.
    expect(await internalsOf(host).tools.confirmations.requestDecision('chatos::chat', 'mcp_chat_danger', {}, { conversationId: other.conversationId })).toBe('approved');
    expect(await host.chat.delete(other.conversationId)).toEqual({ deleted: true, released: 1 });
    expect(leasesOf(host, other.conversationId)).toBe(0);
    const asked = internalsOf(host).tools.confirmations.requestDecision('chatos::chat', 'mcp_chat_danger', {}, { conversationId: other.conversationId });
    expect(pendingOf(host, 'toolConfirmation').length).toBe(1);
    internalsOf(host).tools.confirmations.rejectAll();
    expect(await asked).toBe('declined');
    expect(() => host.chat.get(other.conversationId)).toThrow(expect.objectContaining({ code: 'CONVERSATION_NOT_FOUND' }));
  });

  it('conversations and their messages outlive the process', async () => {
    const { host, provider, home } = await startChatWorld();
    provider.enqueue({ kind: 'reply', text: 'remembered', usage: { input: 3, output: 2 } });
    const turn = host.chat.send({ agentId: 'helper', text: 'remember me' });
    await turn.done;
    await host.dispose();

    const again = createHost({ home, appRoot: repoRoot, builtinPluginsDir: tempDir(), defaultsDir: tempDir() });
    await again.start();
    try {
      expect(again.chat.list().map((c) => [c.id, c.title, c.status.kind, c.totals.answers])).toEqual([[turn.conversationId, 'remember me', 'done', 1]]);
      const detail = again.chat.get(turn.conversationId);
      expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect((detail.messages[1] as AssistantMessage).text).toBe('remembered');
    } finally {
      await again.dispose();
    }
  });

  it('refuses a second turn while one runs, and a send to a conversation that does not exist', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'hang' });
    const turn = host.chat.send({ agentId: 'helper', text: 'wait' });
    expect(() => host.chat.send({ conversationId: turn.conversationId, text: 'again' })).toThrow(expect.objectContaining({ code: 'CONVERSATION_BUSY' }));
    host.chat.stop(turn.conversationId);
    await turn.done;
    expect(() => host.chat.send({ conversationId: 'nope', text: 'x' })).toThrow(expect.objectContaining({ code: 'CONVERSATION_NOT_FOUND' }));
    expect(() => host.chat.send({ agentId: 'ghost', text: 'x' })).toThrow(expect.objectContaining({ code: 'AGENT_NOT_FOUND' }));
  });

  it('keeps a conversation parsed between turns, and reads it again when another process wrote to it', async () => {
    const { host } = await startChatWorld();
    const conversation = host.chat.create('helper', 'cached');
    const store = internalsOf(host).chat.service.store;
    store.append(conversation.id, { id: 'u1', parentId: null, at: 1, role: 'user', text: 'one' });
    expect(store.open(conversation.id).tree.size).toBe(1);
    store.append(conversation.id, { id: 'u2', parentId: 'u1', at: 2, role: 'user', text: 'two' });
    expect(store.open(conversation.id).leafId).toBe('u2');
    // Another process appends to the file: the next open sees its line.
    store.log(conversation.id).append({ id: 'u3', parentId: 'u2', at: 3, role: 'user', text: 'three' });
    const opened = store.open(conversation.id);
    expect(opened.leafId).toBe('u3');
    expect(opened.tree.size).toBe(3);
    store.append(conversation.id, { id: 'u4', parentId: 'u3', at: 4, role: 'user', text: 'four' });
    expect(host.chat.get(conversation.id).messages.map((m) => m.id)).toEqual(['u1', 'u2', 'u3', 'u4']);
  });

  it('a run killed before its row was saved reads as interrupted from its file, and resumes', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', text: 'first' });
    const turn = host.chat.send({ agentId: 'helper', text: 'one' });
    await turn.done;
    // What a process killed right after writing the user message of its next turn leaves: the line, and the row as it was.
    const leaf = host.chat.get(turn.conversationId).conversation.leafId!;
    internalsOf(host).chat.service.store.log(turn.conversationId).append({ id: 'late', parentId: leaf, at: 5, role: 'user', text: 'two' });
    const detail = host.chat.get(turn.conversationId);
    expect(detail.conversation).toMatchObject({ leafId: 'late', status: { kind: 'stopped', stop: { kind: 'interrupted' } } });
    provider.enqueue({ kind: 'reply', text: 'second' });
    expect((await host.chat.resume(turn.conversationId).done).status).toBe('done');
    expect(host.chat.get(turn.conversationId).messages.map((m) => (m.role === 'user' || m.role === 'assistant' ? m.text : ''))).toEqual(['one', 'first', 'two', 'second']);
  });

  it('does not delete a conversation another live process is answering in', async () => {
    const { host } = await startChatWorld();
    const conversation = host.chat.create('helper', 'elsewhere');
    // The parent of this test process is alive and is not this process: as a chatos serve answering in it would be.
    internalsOf(host).chat.service.store.update(conversation.id, (c) => ({ ...c, status: { kind: 'running', pid: process.ppid, since: 0 } }));
    await expect(host.chat.delete(conversation.id)).rejects.toMatchObject({ code: 'CONVERSATION_BUSY' });
    expect(host.chat.list().map((c) => c.id)).toEqual([conversation.id]);
  });
});
