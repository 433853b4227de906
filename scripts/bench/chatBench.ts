import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import OpenAI from 'openai';
import { findAppRoot } from '../../src/core/appPaths.js';
import type { ChatEvent } from '../../src/core/chat/chatPolicy.js';
import { ConversationIndex } from '../../src/core/chat/conversations/conversationIndex.js';
import { ConversationStore } from '../../src/core/chat/conversations/conversationStore.js';
import { RecordsStore } from '../../src/core/store/recordsStore.js';
import { createHost, type Host } from '../../src/core/host.js';
import type { ConversationMessage } from '../../src/shared/chat.js';
import { sseServer, type Answer } from './sseProvider.js';
import { atMost, check, grouped, info, median, type BenchRow, type BenchSection } from './section.js';

/**
 * The chat loop against a local OpenAI-compatible server speaking SSE, in
 * one run:
 *
 * - time to first token through the host (ChatService, a regenerated answer
 *   in one conversation, so each request is the same) against the official
 *   `openai` SDK called directly on the same server, interleaved one by one;
 * - a turn whose model asks for 5 tool calls of 200 ms each (the chat
 *   fixture's `sleep`, a real stdio MCP server through the gateway): the
 *   time from the first call starting to the last result;
 * - appending to, and opening, a conversation of 10,000 messages.
 */

const repoRoot = findAppRoot();
const CHAT_FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'servers', 'chatServer.mjs');
const TTFT_ROUNDS = 40;
const TTFT_WARMUP = 5;
const TOOL_MS = 200;
const TOOL_RUNS = 5;
const BIG = 10_000;
const APPENDS = 200;
const OPENS = 5;

async function startHost(home: string, baseUrl: string): Promise<Host> {
  const empty = path.join(home, 'empty');
  fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
  fs.mkdirSync(empty, { recursive: true });
  fs.writeFileSync(
    path.join(home, 'chatos', 'mcp.yaml'),
    `version: 1\nservers:\n  chat:\n    transport: stdio\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(CHAT_FIXTURE)}]\n`,
  );
  const host = createHost({ home, appRoot: repoRoot, builtinPluginsDir: empty, defaultsDir: empty, sessionRoot: home });
  await host.start();
  await host.models.create({ id: 'local', name: 'Local', api: 'openai', baseUrl: baseUrl, model: 'bench' });
  host.agents.create({ id: 'plain', name: 'Plain', modelId: 'local', systemPrompt: 'Be brief.' });
  host.agents.create({ id: 'tools', name: 'Tools', modelId: 'local', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::chat'] }] });
  return host;
}

/** Resolves with the time of the first event that matches, from now. */
function firstEvent(host: Host, match: (e: ChatEvent) => boolean): { at: Promise<number> } {
  let stop = () => {};
  const at = new Promise<number>((resolve) => {
    stop = host.chat.onEvent((event) => {
      if (match(event)) resolve(performance.now());
    });
  });
  return { at: at.finally(() => stop()) };
}

async function ttftFigures(host: Host, baseUrl: string, notes: string[]): Promise<BenchRow[]> {
  const sdk = new OpenAI({ baseURL: baseUrl, apiKey: 'unused', maxRetries: 0, logLevel: 'off' });
  const direct = async () => {
    const started = performance.now();
    const stream = await sdk.chat.completions.create({
      model: 'bench',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    let first = 0;
    for await (const chunk of stream) if (!first && chunk.choices[0]?.delta?.content) first = performance.now();
    return first - started;
  };
  const first = host.chat.send({ agentId: 'plain', text: 'hi' });
  check((await first.done).status === 'done', 'the first chat turn did not finish');
  const viaHost = async () => {
    const started = performance.now();
    const delta = firstEvent(host, (e) => e.type === 'delta');
    const turn = host.chat.regenerate({ conversationId: first.conversationId });
    const at = await delta.at;
    check((await turn.done).status === 'done', 'a chat turn did not finish');
    return at - started;
  };
  for (let i = 0; i < TTFT_WARMUP; i++) {
    await direct();
    await viaHost();
  }
  const hostTimes: number[] = [];
  const sdkTimes: number[] = [];
  for (let i = 0; i < TTFT_ROUNDS; i++) {
    // Alternating which goes first, so neither always follows the other's garbage.
    if (i % 2) {
      sdkTimes.push(await direct());
      hostTimes.push(await viaHost());
    } else {
      hostTimes.push(await viaHost());
      sdkTimes.push(await direct());
    }
  }
  const hostMs = median(hostTimes);
  const sdkMs = median(sdkTimes);
  const ratio = hostMs / sdkMs;
  const overhead = hostMs - sdkMs;
  notes.push(
    `time to first token: median of ${TTFT_ROUNDS} interleaved requests each (after ${TTFT_WARMUP} warm-up); the host's includes appending to the conversation, its index row, resolving the agent and its tools, building the history`,
  );
  return grouped('time to first token vs the openai SDK on the same server', [
    info('openai SDK directly', sdkMs, 'ms'),
    info('through the host (ChatService)', hostMs, 'ms'),
    info('ratio host / SDK', Number(ratio.toFixed(3)), 'x'),
    { name: 'host overhead (<= 1.05x or <= 5 ms)', value: overhead, unit: 'ms', target: '<= 1.05x or <= 5 ms', pass: ratio <= 1.05 || overhead <= 5 },
  ]);
}

async function toolFigures(host: Host, answers: Answer[], notes: string[]): Promise<BenchRow[]> {
  const sleepCalls = { calls: Array.from({ length: 5 }, () => ({ name: 'mcp_chat_sleep', args: { ms: TOOL_MS } })) };
  const phases: number[] = [];
  const turns: number[] = [];
  // The first turn starts the server (the conversation's own instance): not counted. The others run in the same conversation.
  let conversationId: string | undefined;
  for (let run = 0; run <= TOOL_RUNS; run++) {
    answers.push(sleepCalls, { text: 'slept' });
    let firstStart = 0;
    let lastEnd = 0;
    const stop = host.chat.onEvent((event) => {
      if (event.type !== 'toolCall') return;
      if (event.call.phase === 'started' && !firstStart) firstStart = performance.now();
      if (event.call.phase === 'finished') lastEnd = performance.now();
    });
    const started = performance.now();
    const turn = host.chat.send({ ...(conversationId ? { conversationId } : { agentId: 'tools' }), text: 'sleep five times' });
    conversationId = turn.conversationId;
    const outcome = await turn.done;
    stop();
    check(outcome.status === 'done', `the tools turn ended ${outcome.status}: ${outcome.stop?.message}`);
    const results = outcome.messages.filter((m) => m.role === 'tool');
    check(results.length === 5 && results.every((m) => m.role === 'tool' && m.status === 'ok'), 'the 5 sleep calls did not all succeed');
    if (run === 0) continue;
    phases.push(lastEnd - firstStart);
    turns.push(performance.now() - started);
  }
  notes.push(`5 tool calls of ${TOOL_MS} ms in one message: median of ${TOOL_RUNS} turns of one conversation, after a first one that started its own instance of the (stateful) server`);
  const limit = 1.3 * TOOL_MS;
  return grouped('a turn asking for 5 tools of 200 ms', [
    atMost('first call started to last result', Number(median(phases).toFixed(1)), 'ms', limit),
    info('whole turn (2 model requests)', median(turns), 'ms'),
  ]);
}

function bigConversation(agentId: string): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  let parentId: string | null = null;
  const prose = 'The quick brown fox jumps over the lazy dog; '.repeat(6);
  for (let i = 0; messages.length < BIG; i++) {
    const id = `m${messages.length}`;
    const kind = messages.length % 4;
    const message: ConversationMessage =
      kind === 0
        ? { id, parentId, at: i, role: 'user', text: `${i}: ${prose}` }
        : kind === 1
          ? {
              id,
              parentId,
              at: i,
              role: 'assistant',
              agentId,
              modelId: 'local',
              text: '',
              toolCalls: [{ id: `c${i}`, name: 'mcp_chat_echo', argumentsText: '{"text":"x"}' }],
              status: 'complete',
              stats: { durationMs: 10, toolsSent: 6, attempts: 1, inputTokens: 100, outputTokens: 10 },
            }
          : kind === 2
            ? {
                id,
                parentId,
                at: i,
                role: 'tool',
                callId: `c${i}`,
                name: 'mcp_chat_echo',
                content: [{ type: 'text', text: prose.repeat(3) }],
                isError: false,
                status: 'ok',
                durationMs: 3,
                serverId: 'chatos::chat',
              }
            : { id, parentId, at: i, role: 'assistant', agentId, modelId: 'local', text: prose, toolCalls: [], status: 'complete', stats: { durationMs: 10, toolsSent: 6, attempts: 1 } };
    messages.push(message);
    parentId = id;
  }
  return messages;
}

/** The conversation store alone (the one ChatService keeps), on its own admin DB: a host would add nothing to what is measured. */
async function storeFigures(dir: string, notes: string[]): Promise<BenchRow[]> {
  const records = await RecordsStore.open(path.join(dir, 'admin.db'), { saveChanges: false });
  const store = new ConversationStore({ index: new ConversationIndex(records), dir: path.join(dir, 'conversations'), now: () => Date.now(), runningHere: () => false });
  const conversation = store.create({ agentId: 'plain', title: 'big' });
  const log = store.log(conversation.id);
  const messages = bigConversation('plain');
  for (const message of messages) log.append(message);
  store.update(conversation.id, (c) => ({ ...c, leafId: messages.at(-1)!.id }));
  const size = fs.statSync(log.file).size;

  const appendTimes: number[] = [];
  let parentId = messages.at(-1)!.id;
  for (let i = 0; i < APPENDS; i++) {
    const message: ConversationMessage = { id: `extra${i}`, parentId, at: i, role: 'user', text: `appended ${i}` };
    const t0 = performance.now();
    store.append(conversation.id, message);
    appendTimes.push(performance.now() - t0);
    parentId = message.id;
  }
  const openTimes: number[] = [];
  for (let i = 0; i < OPENS; i++) {
    // Written past the store, as another process would: the next open reads and parses the whole file again.
    const message: ConversationMessage = { id: `other${i}`, parentId, at: i, role: 'user', text: 'from another process' };
    log.append(message);
    parentId = message.id;
    const t0 = performance.now();
    const detail = store.detail(conversation.id);
    openTimes.push(performance.now() - t0);
    check(detail.messages.length === BIG + APPENDS + i + 1, `the conversation opened with ${detail.messages.length} messages`);
  }
  notes.push(
    `a conversation of ${BIG} messages (${(size / 1024 / 1024).toFixed(1)} MiB of JSON lines: user, call, result, answer); append: median of ${APPENDS}; open (read and parse the whole file, index it, walk the branch: as after another process wrote to it): median of ${OPENS}`,
  );
  return grouped(`a conversation of ${BIG} messages`, [
    atMost('append one message', Number(median(appendTimes).toFixed(3)), 'ms', 5),
    atMost('open it (conversations.get)', Number(median(openTimes).toFixed(1)), 'ms', 300),
  ]);
}

export async function runChatBench(): Promise<BenchSection> {
  check(fs.existsSync(CHAT_FIXTURE), `${CHAT_FIXTURE} is missing`);
  const answers: Answer[] = [];
  const provider = await sseServer(() => answers.shift() ?? { text: 'Hello' });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-chat-bench-'));
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const host = await startHost(home, provider.url);
  try {
    rows.push(...(await ttftFigures(host, provider.url, notes)));
    rows.push(...(await toolFigures(host, answers, notes)));
    rows.push(...(await storeFigures(path.join(home, 'store'), notes)));
  } finally {
    await host.dispose();
    await provider.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
  return { title: 'Chat: the conversation loop (local OpenAI-compatible SSE server, real stdio MCP server)', rows, notes };
}
