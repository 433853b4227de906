import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import type { HostApiService } from '../../src/api/types.js';
import { HostApiMethods, type HostApiMethod, type HostApiParams, type HostApiResult } from '../../src/shared/hostApi.js';
import { agentUsing, startChatWorld, toolResultsIn } from '../helpers/chatWorld.js';

/** Agent memory through the HostApi (the Memory tab's methods) and through a chat (docs/using/agents.md#memory). */

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/files${file}` };

async function call<M extends HostApiMethod>(api: HostApiService, method: M, params: HostApiParams<M>): Promise<HostApiResult<M>> {
  const reply = await api.handle({ method, params });
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return HostApiMethods[method].result.parse(reply.result) as HostApiResult<M>;
}

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function?.name ?? t.name);

describe('agent memory', () => {
  it('what the model saved in one conversation reaches it in the next, marked as stored memories', async () => {
    const { host, provider } = await startChatWorld({ servers: {}, agents: [agentUsing([], { memory: { enabled: true } }), agentUsing([], { id: 'plain', name: 'Plain' })] });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'r1', name: 'memory_remember', arguments: { text: 'The user is allergic to peanuts.' } }] }, { kind: 'reply', text: 'Noted.' });
    expect((await host.chat.send({ agentId: 'helper', text: 'Remember: I am allergic to peanuts.' }).done).status).toBe('done');
    const [first] = await provider.waitForRequests(1);
    expect(toolNames(first!.body)).toEqual(expect.arrayContaining(['memory_remember', 'memory_recall', 'memory_list', 'memory_forget']));
    // Its instructions say it has a memory and how to use it.
    expect(JSON.stringify(first!.body)).toContain('You have a memory that lasts across conversations');

    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'q1', name: 'memory_recall', arguments: { query: 'allergic food' } }] }, { kind: 'reply', text: 'No peanuts, then.' });
    const second = host.chat.send({ agentId: 'helper', text: 'Suggest a snack.' });
    expect((await second.done).status).toBe('done');
    const recalled = new Map(toolResultsIn(provider.requests.at(-1)!.body)).get('q1')!;
    expect(recalled).toContain('These are stored memories');
    expect(recalled).toMatch(/<memory id="m_[0-9a-f]{16}" saved="[^"]+">\nThe user is allergic to peanuts\.\n<\/memory>/);

    // An agent without memory is offered none of it.
    provider.enqueue({ kind: 'reply', text: 'hi' });
    await host.chat.send({ agentId: 'plain', text: 'hi' }).done;
    expect(toolNames(provider.requests.at(-1)!.body).filter((name) => name.startsWith('memory_'))).toEqual([]);
    expect(JSON.stringify(provider.requests.at(-1)!.body)).not.toContain('You have a memory');
  });

  it('the Memory tab lists, searches, adds, edits and forgets through the api; bad input is refused with the fix', async () => {
    const { host } = await startChatWorld({ servers: {}, agents: [agentUsing([], { memory: { enabled: true } })] });
    const api = createHostApiService(host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
    const added = (await call(api, 'memory.remember', { agentId: 'helper', text: 'Meetings are on Tuesdays.' })).memory;
    expect(added).toMatchObject({ text: 'Meetings are on Tuesdays.', by: 'user' });
    await call(api, 'memory.remember', { agentId: 'helper', text: 'The team uses Postgres.' });
    expect(await call(api, 'memory.list', { agentId: 'helper' })).toMatchObject({ agentId: 'helper', enabled: true, shared: false, space: 'agent:helper', total: 2 });
    expect((await call(api, 'memory.list', { agentId: 'helper', query: 'tuesdays meetings' })).memories.map((m) => m.id)).toEqual([added.id]);

    const edited = (await call(api, 'memory.update', { agentId: 'helper', id: added.id, text: 'Meetings moved to Wednesdays.' })).memory;
    expect(edited).toMatchObject({ id: added.id, text: 'Meetings moved to Wednesdays.', createdAt: added.createdAt });
    expect((await call(api, 'memory.forget', { agentId: 'helper', id: added.id })).memory.id).toBe(added.id);
    expect((await call(api, 'memory.list', { agentId: 'helper' })).memories.map((m) => m.text)).toEqual(['The team uses Postgres.']);

    const tooLong = await api.handle({ method: 'memory.remember', params: { agentId: 'helper', text: 'x'.repeat(5000) } });
    expect(tooLong).toMatchObject({ ok: false, error: { code: 'MEMORY_TOO_LARGE', message: 'a memory is at most 4000 characters; this one has 5000' } });
    expect(!tooLong.ok && tooLong.error.hint).toMatch(/knowledge base/);
    expect(await api.handle({ method: 'memory.forget', params: { agentId: 'helper', id: added.id } })).toMatchObject({ ok: false, error: { code: 'MEMORY_NOT_FOUND' } });
    expect(await api.handle({ method: 'memory.list', params: { agentId: 'nobody' } })).toMatchObject({ ok: false, error: { code: 'MEMORY_AGENT_NOT_FOUND', message: 'no agent "nobody"' } });
    expect((await host.agents.memory.list('helper')).total).toBe(1);
  });
});
