import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findAppRoot } from '../../src/core/appPaths.js';
import type { ChatMemoryRequest, ChatMemorySample } from './chatMemoryChild.js';
import { runBenchChild } from './benchChild.js';
import { sseServer } from './sseProvider.js';
import { atMost, check, grouped, info, type BenchRow, type BenchSection } from './section.js';

/**
 * The host's memory over many chat turns (issue 39): a fresh host process
 * (chatMemoryChild.ts) runs turns back to back, each a model request over
 * real HTTP (SSE) asking for a tool, the call to a real stdio MCP server
 * through the gateway, and a second request for the answer, in
 * conversations of 10 turns written to disk. Its RSS after the first 50
 * turns is the baseline: the process has loaded its code, started its
 * first servers and warmed up by then. No collection is forced before a
 * sample (chatMemoryChild.ts says why).
 * The process starts as the `chatos` command starts Node, its variables
 * and flags (bin/chatos.js says why it bounds V8's young generation and
 * glibc's arenas).
 */

const CHILD = path.join(findAppRoot(), 'dist', 'scripts', 'bench', 'chatMemoryChild.js');
/** `CHATOS_BENCH_CHAT_TURNS=1000 npm run bench -- memory` runs longer; the target stays on turn 500. */
const TURNS = Math.max(500, Number(process.env.CHATOS_BENCH_CHAT_TURNS) || 500);
const BASE_TURN = 50;
const TARGET_TURN = 500;
const TURNS_PER_CONVERSATION = 10;
const GROWTH_LIMIT = 1.2;

const ANSWER = `Here is what the tool said, in short:\n\n- it answered\n- it echoed the text\n- nothing failed\n\n${'The quick brown fox jumps over the lazy dog. '.repeat(8)}`;

/** How the `chatos` command starts Node (its shebang line): the variables it sets and Node's flags, so the host runs as `chatos serve` does. */
function commandStart(): { env: Record<string, string>; flags: string[] } {
  const first = fs.readFileSync(path.join(findAppRoot(), 'bin', 'chatos.js'), 'utf8').split('\n', 1)[0]!;
  const words = /^#!\/usr\/bin\/env (?:-S )?(.*)$/.exec(first)?.[1]?.split(' ').filter(Boolean) ?? [];
  const node = words.indexOf('node');
  check(node >= 0, `bin/chatos.js starts with "${first}", not "#!/usr/bin/env [-S] [NAME=value ...] node …"`);
  const assignments = words.slice(0, node).map((word) => /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(word));
  check(
    assignments.every((assignment) => assignment !== null),
    `bin/chatos.js sets something other than NAME=value before node: "${first}"`,
  );
  return { env: Object.fromEntries(assignments.map((assignment) => [assignment![1]!, assignment![2]!])), flags: words.slice(node + 1) };
}

/** The variables and flags of the command's start, as its shebang writes them. */
function chatosStartText(): string {
  const { env, flags } = commandStart();
  return [...Object.entries(env).map(([name, value]) => `${name}=${value}`), 'node', ...flags].join(' ');
}

async function runChild(request: ChatMemoryRequest): Promise<ChatMemorySample[]> {
  const { env, flags } = commandStart();
  const printed = await runBenchChild([...flags, CHILD, JSON.stringify(request)], 'the chat memory host', env);
  return printed
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ChatMemorySample);
}

function sampleRows(sample: ChatMemorySample): BenchRow[] {
  return grouped(`after turn ${sample.turn} (${sample.seconds.toFixed(0)} s)`, [
    info('RSS', sample.rss, 'MiB'),
    info('JS heap used', sample.heapUsed, 'MiB'),
    info('JS heap total (V8 reserved)', sample.heapTotal, 'MiB'),
    info('external', sample.external, 'MiB'),
    info('of which array buffers', sample.arrayBuffers, 'MiB'),
  ]);
}

export async function runChatMemoryBench(): Promise<BenchSection> {
  if (!fs.existsSync(CHILD)) throw new Error('dist/scripts is missing: run "npm run build"');
  // A tool call first; once its result is in the history, the answer.
  const provider = await sseServer((request) => (request.messages?.at(-1)?.role === 'tool' ? { text: ANSWER } : { calls: [{ name: 'mcp_chat_echo', args: { text: 'x'.repeat(200) } }] }));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-bench-memory-'));
  try {
    const sampleAt = [BASE_TURN, 100, 250, TARGET_TURN, ...(TURNS > TARGET_TURN ? [TURNS] : [])];
    const samples = await runChild({ home, baseUrl: provider.url, turns: TURNS, turnsPerConversation: TURNS_PER_CONVERSATION, sampleAt });
    const at = (turn: number) => samples.find((sample) => sample.turn === turn);
    const base = at(BASE_TURN);
    const target = at(TARGET_TURN);
    check(base && target, `the host printed no sample for turn ${BASE_TURN} or ${TARGET_TURN}`);
    const rows = samples.flatMap(sampleRows);
    rows.push(
      ...grouped('growth', [
        atMost(`RSS at turn ${TARGET_TURN} / at turn ${BASE_TURN}`, Number((target.rss / base.rss).toFixed(3)), 'x', GROWTH_LIMIT),
        ...(TURNS > TARGET_TURN
          ? [
              info(`RSS at turn ${TURNS} / at turn ${BASE_TURN}`, samples.at(-1)!.rss / base.rss, 'x'),
              // Whether the growth goes on past the target's turn, or was a step the process took once.
              info(`RSS at turn ${TURNS} / at turn ${TARGET_TURN}`, samples.at(-1)!.rss / target.rss, 'x'),
            ]
          : []),
      ]),
    );
    return {
      title: `Chat memory: ${TURNS} chat turns with a tool in a fresh host process (local SSE model server, real stdio MCP server)`,
      rows,
      notes: [
        `conversations of ${TURNS_PER_CONVERSATION} turns, each ended after its last turn (its server instance stops; the next conversation starts another); turns run back to back, with no pause between them`,
        'each sample is the process as it is then, garbage not yet collected included: a forced collection would change how V8 sizes its heap from then on, which is part of what is measured',
        `the host process starts as the chatos command starts Node (${chatosStartText()}; bin/chatos.js says why)`,
      ],
    };
  } finally {
    await provider.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
