/**
 * The host of the chat memory bench (chatMemoryBench.ts), in a fresh Node
 * process of its own so that nothing else lives in the process measured:
 *
 *   node dist/scripts/bench/chatMemoryChild.js '<ChatMemoryRequest as JSON>'
 *
 * Runs chat turns back to back against the bench's model server, each
 * calling a tool of a real stdio MCP server through the gateway, in
 * conversations of a few turns written to disk; a conversation is ended
 * when its turns are done (as the idle sweep or the agent's mcp_release
 * would), so its server instance stops and the next one starts another.
 * Prints one JSON line (ChatMemorySample) at each turn asked for.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findAppRoot } from '../../src/core/appPaths.js';
import { createHost } from '../../src/core/host.js';

export interface ChatMemoryRequest {
  home: string;
  /** The model server's OpenAI base URL. */
  baseUrl: string;
  turns: number;
  turnsPerConversation: number;
  /** Turns after which memory is sampled. */
  sampleAt: number[];
}

export interface ChatMemorySample {
  turn: number;
  /** Wall time since the first turn started. */
  seconds: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

const CHAT_FIXTURE = path.join(findAppRoot(), 'test', 'fixtures', 'servers', 'chatServer.mjs');
const MiB = 2 ** 20;

/**
 * The process as it is at that moment: no collection is forced first, since
 * one changes how V8 sizes its heap from then on (the young generation among
 * it), which is part of what is measured.
 */
function sample(turn: number, seconds: number): ChatMemorySample {
  const memory = process.memoryUsage();
  return {
    turn,
    seconds,
    rss: memory.rss / MiB,
    heapUsed: memory.heapUsed / MiB,
    heapTotal: memory.heapTotal / MiB,
    external: memory.external / MiB,
    arrayBuffers: memory.arrayBuffers / MiB,
  };
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]!) as ChatMemoryRequest;
  const empty = path.join(request.home, 'empty');
  fs.mkdirSync(path.join(request.home, 'chatos'), { recursive: true });
  fs.mkdirSync(empty, { recursive: true });
  fs.writeFileSync(
    path.join(request.home, 'chatos', 'mcp.yaml'),
    `version: 1\nservers:\n  chat:\n    transport: stdio\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(CHAT_FIXTURE)}]\n`,
  );
  const host = createHost({ home: request.home, appRoot: findAppRoot(), builtinPluginsDir: empty, defaultsDir: empty, sessionRoot: request.home });
  await host.start();
  await host.models.create({ id: 'local', name: 'Local', api: 'openai', baseUrl: request.baseUrl, model: 'bench' });
  host.agents.create({ id: 'tools', name: 'Tools', modelId: 'local', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::chat'] }] });
  const started = performance.now();
  let conversationId: string | undefined;
  for (let turn = 1; turn <= request.turns; turn++) {
    const turnRun = host.chat.send({ ...(conversationId ? { conversationId } : { agentId: 'tools' }), text: `turn ${turn}: echo this back` });
    conversationId = turnRun.conversationId;
    const outcome = await turnRun.done;
    if (outcome.status !== 'done') throw new Error(`turn ${turn} ended ${outcome.status}: ${outcome.stop?.message}`);
    if (!outcome.messages.some((message) => message.role === 'tool' && message.status === 'ok')) throw new Error(`turn ${turn} called no tool`);
    if (turn % request.turnsPerConversation === 0) {
      await host.tools.leases.end(conversationId);
      conversationId = undefined;
    }
    if (request.sampleAt.includes(turn)) process.stdout.write(`${JSON.stringify(sample(turn, (performance.now() - started) / 1000))}\n`);
  }
  await host.dispose();
}

await main();
