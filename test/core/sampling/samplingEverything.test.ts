import * as fs from 'node:fs';
import { answerSampling, confirm, onAsked, onUpdated, pendingOf } from '../../helpers/questions.js';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SamplingRequest } from '../../../src/shared/sampling.js';
import { agentUsing, startChatWorld } from '../../helpers/chatWorld.js';
import { nextSampling, samplingOutcomes } from '../../helpers/samplingEvents.js';
import { EVERYTHING_SERVER, caller, textOf, waitUntil } from '../../helpers/gatewayHost.js';
import { sdkServerSource } from '../../helpers/sdkServer.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/**
 * MCP sampling through the host, against the MCP project's reference server
 * over stdio (and a small SDK server for tools in sampling): its sampling
 * tool is offered only because the host declares the capability; the
 * request reaches the host's SamplingService, the user reviews it, the
 * chat's provider code asks the local provider server over real HTTP, the
 * user sees the completion, and the server gets it back. Expiry runs on the
 * injected scheduler, never a real wait.
 */

const SAMPLE_TOOL = 'mcp_everything_trigger-sampling-request';
const everything = (extra: Record<string, unknown> = {}) => ({ transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], ...extra });
const asHelper = (conversationId: string) => caller(conversationId, { agentId: 'helper' });

async function samplingWorld(options: { entry?: Record<string, unknown>; scheduler?: TestScheduler; servers?: Record<string, unknown> } = {}) {
  const servers = options.servers ?? { everything: everything(options.entry) };
  return startChatWorld({ servers, agents: [agentUsing(Object.keys(servers))], ...(options.scheduler ? { host: { scheduler: options.scheduler } } : {}) });
}

/** The JSON the everything server puts after "LLM sampling result:". */
const resultOf = (text: string) => JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>;

describe('sampling with @modelcontextprotocol/server-everything', () => {
  it('offers its sampling tool; the user edits and approves, the edit reaches the provider, the completion is shown, then sent', async () => {
    const { host, provider } = await samplingWorld();
    const names = (await host.tools.list(asHelper('conv-s'))).tools.map((t) => t.name);
    expect(names).toContain(SAMPLE_TOOL);

    const seen = samplingOutcomes(host);
    provider.enqueue({ kind: 'reply', text: 'Haiku about spring', usage: { input: 21, output: 4 } });
    const asked = nextSampling(host, 'required');
    const call = host.tools.call(asHelper('conv-s'), SAMPLE_TOOL, { prompt: 'write a poem', maxTokens: 100_000 });
    const request = await asked;
    expect(request).toMatchObject({
      serverId: 'chatos::everything',
      serverName: 'everything',
      conversationId: 'conv-s',
      agentId: 'helper',
      stage: 'review',
      systemPrompt: 'You are a helpful test server.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Resource trigger-sampling-request context: write a poem' }] }],
      // The server asked for 100 000 tokens: clamped.
      maxTokens: 4096,
      tools: [],
      modelId: 'local',
    });
    expect(pendingOf(host, 'sampling').map((r) => r.id)).toEqual([request.id]);
    expect(provider.requests).toHaveLength(0);

    const completed = nextSampling(host, 'updated', 'completion');
    expect(
      answerSampling(host, request.id, {
        action: 'approve',
        edits: { systemPrompt: 'Be brief.', messages: [{ role: 'user', content: [{ type: 'text', text: 'Write a haiku instead' }] }], maxTokens: 50 },
      }),
    ).toBe(true);
    const shown = await completed;
    expect(shown.completion).toEqual({ model: 'test-model', stopReason: 'endTurn', content: [{ type: 'text', text: 'Haiku about spring' }], usage: { inputTokens: 21, outputTokens: 4 } });
    // The provider got the edited request, not the server's.
    const body = provider.requests[0]!.body;
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Write a haiku instead' },
    ]);
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(50);
    expect(JSON.stringify(body)).not.toContain('write a poem');

    expect(answerSampling(host, shown.id, { action: 'send' })).toBe(true);
    const text = textOf((await call).result);
    expect(resultOf(text)).toMatchObject({ role: 'assistant', model: 'test-model', stopReason: 'endTurn', content: { type: 'text', text: 'Haiku about spring' } });
    expect(seen).toEqual(['sent']);

    // The audit: asked and sent, with the model, sizes and token counts, never the text.
    const rows = host.audit.query({ tool: 'sampling/createMessage' });
    expect(rows.map((r) => [r.reason, r.decision, r.outcome])).toEqual([
      ['sent', 'approved', 'ok'],
      ['asked', null, null],
    ]);
    expect(rows[0]).toMatchObject({ serverId: 'chatos::everything', conversationId: 'conv-s', agentId: 'helper', appId: 'chatos' });
    expect(JSON.parse(rows[0]!.args!)).toMatchObject({
      modelId: 'local',
      messages: 1,
      maxTokens: 50,
      edited: true,
      answer: { model: 'test-model', stopReason: 'endTurn', inputTokens: 21, outputTokens: 4 },
    });
    expect(JSON.stringify(rows)).not.toContain('haiku');
  });

  it('declined at review: the model is never asked and the server hears the user rejected it', async () => {
    const { host, provider } = await samplingWorld();
    const asked = nextSampling(host, 'required');
    const call = host.tools.call(asHelper('conv-d'), SAMPLE_TOOL, { prompt: 'hi' });
    answerSampling(host, (await asked).id, { action: 'decline' });
    const { result } = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('User rejected sampling request');
    expect(provider.requests).toHaveLength(0);
    expect(host.audit.query({ tool: 'sampling/createMessage', limit: 1 })[0]).toMatchObject({ reason: 'declined', decision: 'declined', outcome: 'declined' });
  });

  it('declined once the completion is shown: the server never gets the answer', async () => {
    const { host, provider } = await samplingWorld();
    provider.enqueue({ kind: 'reply', text: 'SECRET ANSWER' });
    const asked = nextSampling(host, 'required');
    const call = host.tools.call(asHelper('conv-c'), SAMPLE_TOOL, { prompt: 'hi' });
    const completed = nextSampling(host, 'updated', 'completion');
    answerSampling(host, (await asked).id, { action: 'approve' });
    answerSampling(host, (await completed).id, { action: 'decline' });
    const text = textOf((await call).result);
    expect(text).toContain('User rejected sampling request');
    expect(text).not.toContain('SECRET ANSWER');
  });

  it('nobody answers: after 10 minutes (the injected clock) the request is declined, outcome expired', async () => {
    const scheduler = new TestScheduler();
    // The call's own maxTotalTimeout (10 min by default) bounds the wait too, on the same clock: given longer here, so
    // the request's own expiry is what ends it.
    const { host } = await samplingWorld({ scheduler, entry: { maxTotalTimeout: 20 * 60_000 } });
    const seen = samplingOutcomes(host);
    const asked = nextSampling(host, 'required');
    const call = host.tools.call(asHelper('conv-x'), SAMPLE_TOOL, { prompt: 'hi' });
    const request = await asked;
    expect(request.expiresAt - request.createdAt).toBe(10 * 60_000);
    scheduler.advance(10 * 60_000 - 1);
    expect(pendingOf(host, 'sampling')).toHaveLength(1);
    scheduler.advance(1);
    expect(textOf((await call).result)).toContain('nobody answered the sampling request in time');
    expect(seen).toEqual(['expired']);
    expect(answerSampling(host, request.id, { action: 'approve' })).toBe(false);
  });

  it('always allow: remembered per server, later requests run without a card (audited), until revoked; the rate limit still holds', async () => {
    const { host, provider } = await samplingWorld({ entry: { sampling: { perMinute: 3 } } });
    provider.enqueue({ kind: 'reply', text: 'one' }, { kind: 'reply', text: 'two' }, { kind: 'reply', text: 'three' });
    const cards: SamplingRequest[] = [];
    onAsked(host, 'sampling', (r) => cards.push(r));
    const asked = nextSampling(host, 'required');
    const first = host.tools.call(asHelper('conv-a'), SAMPLE_TOOL, { prompt: '1' });
    const completed = nextSampling(host, 'updated', 'completion');
    answerSampling(host, (await asked).id, { action: 'approve', always: true });
    answerSampling(host, (await completed).id, { action: 'send' });
    expect(textOf((await first).result)).toContain('"text": "one"');
    expect(host.mcp.sampling.alwaysAllowed('chatos::everything')).toBe(true);

    // Remembered: no card, the answer goes straight back, and the audit says it ran unreviewed.
    expect(textOf((await host.tools.call(asHelper('conv-a'), SAMPLE_TOOL, { prompt: '2' })).result)).toContain('"text": "two"');
    expect(cards).toHaveLength(1);
    expect(JSON.parse(host.audit.query({ tool: 'sampling/createMessage', limit: 1 })[0]!.args!)).toMatchObject({ remembered: true });

    // Three a minute for this server (mcp.yaml): the fourth is refused with the reason, and the provider is not asked.
    expect(textOf((await host.tools.call(asHelper('conv-a'), SAMPLE_TOOL, { prompt: '3' })).result)).toContain('"text": "three"');
    const limited = await host.tools.call(asHelper('conv-a'), SAMPLE_TOOL, { prompt: '4' });
    expect(textOf(limited.result)).toContain('server "chatos::everything" asked 3 sampling requests in the last minute; at most 3');
    expect(provider.requests).toHaveLength(3);
    expect(host.audit.query({ tool: 'sampling/createMessage', limit: 1 })[0]).toMatchObject({ decision: 'refused', reason: 'RATE_LIMITED' });

    host.mcp.sampling.revoke('chatos::everything');
    expect(host.mcp.sampling.alwaysAllowed('chatos::everything')).toBe(false);
  });

  it('a caller whose agent has no model, and no model in mcp.yaml: refused with how to fix it', async () => {
    const { host, provider } = await samplingWorld();
    const refused = await host.tools.call(caller('conv-n'), SAMPLE_TOOL, { prompt: 'hi' });
    expect(textOf(refused.result)).toContain('no model to sample with: the caller has no agent with a model; set servers.everything.sampling.model in mcp.yaml');
    expect(provider.requests).toHaveLength(0);
    expect(host.audit.query({ tool: 'sampling/createMessage', limit: 1 })[0]).toMatchObject({ decision: 'refused', reason: 'NO_MODEL', conversationId: 'conv-n' });
  });
});

/** A server that samples with tools, answers the model's tool use, and samples again; or sends what it is told. */
function samplingServer(dir: string, trigger: string): string {
  const file = path.join(dir, 'server.mjs');
  fs.writeFileSync(
    file,
    sdkServerSource(
      'sampler',
      `import * as fs from 'node:fs';
import { z } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'node_modules', 'zod', 'index.js')).href)};
const weather = { name: 'get_weather', description: 'The weather in a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
server.registerTool('ask_with_tools', { description: 'samples with a tool' }, async () => {
  const messages = [{ role: 'user', content: { type: 'text', text: 'What is the weather in Paris?' } }];
  const first = await server.server.createMessage({ messages, maxTokens: 200, tools: [weather] });
  const uses = first.content.filter((c) => c.type === 'tool_use');
  messages.push({ role: 'assistant', content: first.content });
  messages.push({ role: 'user', content: uses.map((u) => ({ type: 'tool_result', toolUseId: u.id, content: [{ type: 'text', text: 'Sunny, 21 C in ' + u.input.city }] })) });
  const second = await server.server.createMessage({ messages, maxTokens: 200, tools: [weather] });
  return { content: [{ type: 'text', text: JSON.stringify({ first, second }) }] };
});
server.registerTool('ask_raw', { description: 'sends raw params', inputSchema: { params: z.string() } }, async ({ params }) => {
  try {
    await server.server.request({ method: 'sampling/createMessage', params: JSON.parse(params) }, z.any());
    return { content: [{ type: 'text', text: 'answered' }] };
  } catch (e) {
    return { content: [{ type: 'text', text: 'refused: ' + e.message }] };
  }
});
let settled = Promise.resolve('never asked');
server.registerTool('ask_when_told', { description: 'samples later' }, async () => {
  settled = new Promise((resolve) => {
    const timer = setInterval(() => {
      if (!fs.existsSync(${JSON.stringify(trigger)})) return;
      clearInterval(timer);
      server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 })
        .then(() => resolve('answered'), (e) => resolve('refused: ' + e.message));
    }, 20);
  });
  return { content: [{ type: 'text', text: 'will ask when told' }] };
});
server.registerTool('last_answer', { description: 'what the request got' }, async () => ({ content: [{ type: 'text', text: await settled }] }));`,
    ),
  );
  return file;
}

describe('sampling with tools, bounds, and the policy (a small SDK server)', () => {
  async function samplerWorld() {
    const dir = tempDir('chatos-sampler-');
    const trigger = path.join(dir, 'ask-now');
    const world = await samplingWorld({ servers: { sampler: { transport: 'stdio', command: process.execPath, args: [samplingServer(dir, trigger)] } } });
    return { ...world, trigger };
  }

  it('tools in sampling: the tools reach the model, its call comes back as tool_use (stopReason toolUse), the result goes to the model', async () => {
    const { host, provider } = await samplerWorld();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Paris' } }] }, { kind: 'reply', text: 'It is sunny in Paris.' });
    // Both requests reviewed and their completions sent, as a person would.
    onAsked(host, 'sampling', (r) => answerSampling(host, r.id, { action: 'approve' }));
    onUpdated(host, 'sampling', (r) => r.stage === 'completion' && answerSampling(host, r.id, { action: 'send' }));
    const { first, second } = JSON.parse(textOf((await host.tools.call(asHelper('conv-t'), 'mcp_sampler_ask_with_tools', {})).result));
    expect(first).toEqual({ role: 'assistant', model: 'test-model', stopReason: 'toolUse', content: [{ type: 'tool_use', id: 'call_w', name: 'get_weather', input: { city: 'Paris' } }] });
    expect(second).toMatchObject({ stopReason: 'endTurn', content: [{ type: 'text', text: 'It is sunny in Paris.' }] });

    expect(provider.requests[0]!.body.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
    ]);
    const sent = provider.requests[1]!.body.messages;
    expect(sent.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_w', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] });
    expect(sent.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_w', content: 'Sunny, 21 C in Paris' });
  });

  it('refuses a request with an unknown content type, too many messages, or no maxTokens, saying why; nothing is shown', async () => {
    const { host, provider } = await samplerWorld();
    const cards: SamplingRequest[] = [];
    onAsked(host, 'sampling', (r) => cards.push(r));
    const raw = async (params: unknown) => textOf((await host.tools.call(asHelper('conv-b'), 'mcp_sampler_ask_raw', { params: JSON.stringify(params) })).result);
    const hi = { role: 'user', content: { type: 'text', text: 'hi' } };
    expect(await raw({ messages: [{ role: 'user', content: { type: 'video', data: 'x' } }], maxTokens: 10 })).toContain(
      'messages[0].content[0] has content type "video", which ChatOS does not sample with',
    );
    expect(await raw({ messages: Array.from({ length: 51 }, () => hi), maxTokens: 10 })).toContain('51 messages; at most 50');
    expect(await raw({ messages: [hi] })).toContain('maxTokens undefined is not a positive whole number');
    expect(await raw({ messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(100_001) } }], maxTokens: 10 })).toContain('100001 characters of text; at most 100000');
    expect(cards).toEqual([]);
    expect(provider.requests).toHaveLength(0);
    expect(host.audit.query({ tool: 'sampling/createMessage', limit: 1 })[0]).toMatchObject({ decision: 'refused', reason: 'SAMPLING_REFUSED' });
  });

  it('what the user decided about a server leaves with it: another program added under its name is asked about afresh', async () => {
    const { host, provider } = await samplerWorld();
    const cards: SamplingRequest[] = [];
    onAsked(host, 'sampling', (r) => {
      cards.push(r);
      // The first program's request is allowed always; any later card is declined.
      answerSampling(host, r.id, cards.length === 1 ? { action: 'approve', always: true } : { action: 'decline' });
    });
    onUpdated(host, 'sampling', (r) => r.stage === 'completion' && answerSampling(host, r.id, { action: 'send' }));
    provider.enqueue({ kind: 'reply', text: 'first' });
    const hi = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 };
    expect(textOf((await host.tools.call(asHelper('conv-r'), 'mcp_sampler_ask_raw', { params: JSON.stringify(hi) })).result)).toBe('answered');
    expect(host.mcp.sampling.alwaysAllowed('chatos::sampler')).toBe(true);
    // One of its tools raised to confirm, and allowed always by the user.
    host.mcp.servers.setPermission('chatos::sampler', 'last_answer', 'confirm');
    onAsked(host, 'toolConfirmation', (request) => void confirm(host, request.id, true, 'always'));
    await host.tools.call(asHelper('conv-r'), 'mcp_sampler_last_answer', {});
    expect(host.agents.alwaysAllow.list('helper').map((entry) => entry.toolName)).toEqual(['mcp_sampler_last_answer']);

    await host.mcp.admin.remove('sampler');
    await host.mcp.admin.add({ name: 'sampler', transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] });
    expect(host.mcp.sampling.alwaysAllowed('chatos::sampler')).toBe(false);
    expect(host.mcp.settings.of('chatos::sampler').permissionOverrides).toEqual({});
    expect(host.agents.alwaysAllow.list('helper')).toEqual([]);

    // The new program's request gets a card, as any new server's would (declined here), and the model is not asked.
    provider.enqueue({ kind: 'reply', text: 'unseen' });
    await host.tools.call(asHelper('conv-r'), 'mcp_sampler_trigger-sampling-request', { prompt: 'anything' });
    expect(cards.map((card) => card.serverId)).toEqual(['chatos::sampler', 'chatos::sampler']);
    expect(provider.requests).toHaveLength(1);
  });

  it('a server asking while no call of it is in flight is refused by the policy, and the audit says why', async () => {
    const { host, trigger } = await samplerWorld();
    const cards: SamplingRequest[] = [];
    onAsked(host, 'sampling', (r) => cards.push(r));
    expect(textOf((await host.tools.call(asHelper('conv-i'), 'mcp_sampler_ask_when_told', {})).result)).toBe('will ask when told');
    fs.writeFileSync(trigger, '');
    await waitUntil(() => host.audit.query({ tool: 'sampling/createMessage' }).length > 0, 'the refusal in the audit');
    expect(host.audit.query({ tool: 'sampling/createMessage' })[0]).toMatchObject({ serverId: 'chatos::sampler', decision: 'refused', reason: 'IDLE_SERVER' });
    expect(textOf((await host.tools.call(asHelper('conv-i'), 'mcp_sampler_last_answer', {})).result)).toMatch(/^refused: .*server "chatos::sampler" has no tool call in flight/);
    expect(cards).toEqual([]);
  });
});
