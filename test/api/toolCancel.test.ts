import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import { HostEventSchema, type HostEventMessage } from '../../src/shared/hostApi.js';
import { agentUsing, chatServerEntry } from '../helpers/chatWorld.js';
import { startTestHost, waitUntil, writeMcpYaml } from '../helpers/gatewayHost.js';

/** A Playground call made with a callId: the server's progress arrives as events, and tools.cancel really cancels it (the server is told). */

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/a${file}` };

describe('tools.call with a callId', () => {
  it('passes progress on as tool.progress events and tools.cancel aborts the MCP request', async () => {
    const t = await startTestHost(({ home }) => writeMcpYaml(home, { chat: chatServerEntry() }));
    t.host.agents.create(agentUsing(['chat']));
    const api = createHostApiService(t.host, { face: 'serve', urls, version: '0', locale: 'en-US' });
    const events: HostEventMessage[] = [];
    api.onEvent((event) => events.push(HostEventSchema.parse(event)));

    const callId = 'call-0001';
    const calling = api.handle({ method: 'tools.call', params: { agentId: 'helper', conversationId: 'pg-1', tool: 'mcp_chat_slow', args: { steps: 10_000, stepMs: 50 }, callId } });
    const progress = () => events.filter((e): e is Extract<HostEventMessage, { type: 'tool.progress' }> => e.type === 'tool.progress' && e.callId === callId);
    await waitUntil(() => progress().length >= 2, 'two progress events', 20_000);
    expect(progress()[1]).toEqual({ type: 'tool.progress', callId, progress: 2, total: 10_000, message: 'step 2 of 10000' });

    expect(await api.handle({ method: 'tools.cancel', params: { callId: 'call-9999' } })).toEqual({ ok: true, result: { cancelled: false } });
    expect(await api.handle({ method: 'tools.cancel', params: { callId } })).toEqual({ ok: true, result: { cancelled: true } });
    const reply = await calling;
    expect(reply).toMatchObject({ ok: false, error: { code: 'CALL_ABORTED' } });
    const log = t.host.mcp.connections.logOf('chatos::chat');
    await waitUntil(() => log.entries().some((e) => e.text.includes('slow cancelled')), 'the server to be told of the cancellation', 20_000);
    // The audit says it was cancelled, not that it failed.
    expect(await api.handle({ method: 'audit.list', params: { tool: 'mcp_chat_slow' } })).toMatchObject({
      ok: true,
      result: { records: [{ outcome: 'cancelled', args: '{"steps":10000,"stepMs":50}' }] },
    });
    // A bad id is refused by the contract.
    expect(await api.handle({ method: 'tools.cancel', params: { callId: '../x' } })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    api.dispose();
  });

  it("audit.list filters by app, agent, tool, decision and outcome, and keeps each call's arguments and result", async () => {
    const t = await startTestHost(({ home }) => writeMcpYaml(home, { chat: chatServerEntry() }));
    t.host.agents.create(agentUsing(['chat']));
    const api = createHostApiService(t.host, { face: 'serve', urls, version: '0', locale: 'en-US' });
    const call = (tool: string, args: Record<string, unknown>) => api.handle({ method: 'tools.call', params: { agentId: 'helper', conversationId: 'pg-2', tool, args } });
    expect(await call('mcp_chat_echo', { text: 'hello history' })).toMatchObject({ ok: true });
    expect(await call('mcp_chat_nope', {})).toMatchObject({ ok: false });
    const list = async (params: Record<string, unknown>) => {
      const reply = await api.handle({ method: 'audit.list', params });
      if (!reply.ok) throw new Error(reply.error.message);
      return (reply.result as { records: { tool: string | null; args?: string; result?: string; outcome: string | null }[] }).records;
    };
    expect(await list({ tool: 'mcp_chat_echo' })).toEqual([
      expect.objectContaining({ tool: 'mcp_chat_echo', agentId: 'helper', args: '{"text":"hello history"}', result: 'hello history', outcome: 'ok', durationMs: expect.any(Number) }),
    ]);
    expect((await list({ outcome: 'refused' })).map((r) => r.tool)).toEqual(['mcp_chat_nope']);
    expect(await list({ agentId: 'someone-else' })).toEqual([]);
    expect((await list({ appId: 'com.example.nowhere' })).length).toBe(0);
    expect((await list({ decision: 'auto' })).map((r) => r.tool)).toEqual(['mcp_chat_echo']);
    api.dispose();
  });
});
