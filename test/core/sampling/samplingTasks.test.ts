import { describe, expect, it } from 'vitest';
import { answerSampling } from '../../helpers/questions.js';
import { agentUsing, startChatWorld } from '../../helpers/chatWorld.js';
import { nextSampling, samplingOutcomes } from '../../helpers/samplingEvents.js';
import type { HostOptions } from '../../../src/core/host.js';
import { EVERYTHING_SERVER, caller, textOf } from '../../helpers/gatewayHost.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/**
 * A server's sampling request run as a task (MCP 2025-11-25), against the
 * MCP project's reference server over stdio: its async sampling tool is
 * offered only because the host declares tasks for sampling/createMessage;
 * the host answers with a task at once, the same review card is shown, the
 * local provider server answers over real HTTP once approved, and the
 * server, polling tasks/get, fetches the completion through tasks/result.
 */

const ASYNC_TOOL = 'mcp_everything_trigger-sampling-request-async';
const asHelper = (conversationId: string) => caller(conversationId, { agentId: 'helper' });

async function samplingWorld(entry: Record<string, unknown> = {}, host: Partial<HostOptions> = {}) {
  const servers = { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], ...entry } };
  return startChatWorld({ servers, agents: [agentUsing(Object.keys(servers))], host });
}

describe('sampling requests run as tasks (server-everything)', () => {
  it('offers the async tool; the task is reviewed, run on the provider, its completion shown, sent, and the server fetches it with tasks/result', async () => {
    // A call timeout shorter than the user takes, on the host's scheduler: it stands still while the card waits, as for a request answered in place.
    const scheduler = new TestScheduler();
    const { host, provider } = await samplingWorld({ timeout: 1_500 }, { scheduler });
    expect((await host.tools.list(asHelper('conv-t'))).tools.map((t) => t.name)).toContain(ASYNC_TOOL);

    const seen = samplingOutcomes(host);
    provider.enqueue({ kind: 'reply', text: 'An async haiku', usage: { input: 12, output: 3 } });
    const asked = nextSampling(host, 'required');
    const call = host.tools.call(asHelper('conv-t'), ASYNC_TOOL, { prompt: 'write a poem' });
    const request = await asked;
    expect(request).toMatchObject({
      serverId: 'chatos::everything',
      conversationId: 'conv-t',
      agentId: 'helper',
      stage: 'review',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Resource trigger-sampling-request-async context: write a poem' }] }],
    });
    expect(provider.requests).toHaveLength(0);
    // Longer than the call's timeout: the call is still there.
    scheduler.advance(2_500);

    const completed = nextSampling(host, 'updated', 'completion');
    expect(answerSampling(host, request.id, { action: 'approve' })).toBe(true);
    const shown = await completed;
    expect(shown.completion?.content).toEqual([{ type: 'text', text: 'An async haiku' }]);
    expect(answerSampling(host, shown.id, { action: 'send' })).toBe(true);

    const { result } = await call;
    const text = textOf(result);
    expect(result.isError).toBeFalsy();
    expect(text).toContain('[COMPLETED] Async sampling completed!');
    expect(text).toMatch(/Task created: [0-9a-f]{32}/);
    expect(JSON.parse(text.slice(text.indexOf('**Result:**') + '**Result:**'.length))).toMatchObject({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: 'An async haiku' },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: expect.any(String) } },
    });
    expect(seen).toEqual(['sent']);
    // The same audit as a request answered in place.
    expect(host.audit.query({ tool: 'sampling/createMessage' }).map((r) => [r.reason, r.decision])).toEqual([
      ['sent', 'approved'],
      ['asked', null],
    ]);
  });

  it('declined: the task fails with the reason, and the model is never asked', async () => {
    const { host, provider } = await samplingWorld();
    const asked = nextSampling(host, 'required');
    const call = host.tools.call(asHelper('conv-d'), ASYNC_TOOL, { prompt: 'hi' });
    answerSampling(host, (await asked).id, { action: 'decline' });
    const text = textOf((await call).result);
    expect(text).toContain('[FAILED] User rejected sampling request');
    expect(text).not.toMatch(/\bat .*\.js:\d+/);
    expect(provider.requests).toHaveLength(0);
    expect(host.audit.query({ tool: 'sampling/createMessage', limit: 1 })[0]).toMatchObject({ reason: 'declined', decision: 'declined' });
  });

  it('a caller with no model: refused as for a request answered in place, the task failed with how to fix it', async () => {
    const { host, provider } = await samplingWorld();
    const text = textOf((await host.tools.call(caller('conv-n'), ASYNC_TOOL, { prompt: 'hi' })).result);
    expect(text).toContain('[FAILED] ChatOS refused the sampling request: no model to sample with');
    expect(provider.requests).toHaveLength(0);
    expect(host.audit.query({ tool: 'sampling/createMessage', limit: 1 })[0]).toMatchObject({ decision: 'refused', reason: 'NO_MODEL' });
  });
});
