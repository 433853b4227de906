import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { withoutStackTraces } from '../../src/core/mcp/stackTrace.js';
import { createModelClient } from '../../src/core/models/providers/modelClient.js';
import { userText } from '../../src/core/models/providers/modelRequest.js';
import { atMost, check, gcNow, info, type BenchRow, type BenchSection } from './section.js';

/**
 * Linear cost on hostile input, on a clock. The tests count the work
 * (test/core/mcp/stackTrace.test.ts: the characters each regex run is
 * given; test/security/providerStreamBounds.test.ts: the pieces a long
 * event reaches the SDK in); time ratios belong here, where a loaded
 * machine's garbage collection makes a figure noisy, not a test flaky.
 *
 * - stack traces: withoutStackTraces on 4× the text (lines shaped to make
 *   a backtracking frame pattern work hard) within 8× the time; quadratic
 *   would be 16×;
 * - a provider's long event: one server-sent event of 6 MiB through the
 *   model client (the openai SDK behind the host's event bound) within 4×
 *   the time of 2 MiB; one SDK rescan per 64 KiB read (quadratic) made 9×.
 *
 * Sizes are run in turn, round after round, each after a full garbage
 * collection, and the fastest rounds of each compared, in this process's
 * CPU time: at load 20 wall-time medians moved from 3× to 45× with the
 * collector and the other processes; CPU time stayed within 2.6–3.9×.
 */

const MiB = 1024 * 1024;
const STACK_ROUNDS = 9;
const STREAM_ROUNDS = 9;

const hostileText = (n: number) => `x\n${`  at ${':1 '.repeat(50)}\n  File "${'", line 1, in x'.repeat(40)}\n${' '.repeat(300)}\n`.repeat(n)}`;

/** The fastest of the times. */
const fastest = (times: number[]) => Math.min(...times);

/** CPU milliseconds this process spent since `start` (process.cpuUsage()): the work done, which another process's load stretches far less than the wall clock. */
const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

function stackTraceRows(gc: () => void): BenchRow[] {
  const small = hostileText(500);
  const large = hostileText(2_000);
  const took = (text: string) => {
    gc();
    const started = process.cpuUsage();
    withoutStackTraces(text);
    return cpuMsSince(started);
  };
  const smallTimes: number[] = [];
  const largeTimes: number[] = [];
  for (let round = 0; round < STACK_ROUNDS; round++) (smallTimes.push(took(small)), largeTimes.push(took(large)));
  return [
    info('stack traces: 0.5 MB of hostile text (fastest)', fastest(smallTimes), 'ms CPU'),
    info('stack traces: 2 MB of it (fastest)', fastest(largeTimes), 'ms CPU'),
    atMost('stack traces: 4x the text, time ratio', fastest(largeTimes) / fastest(smallTimes), 'x', 8),
  ];
}

/** A provider whose answer is one event of `bytes` characters (as last set), sent in 64 KiB pieces, then its end. */
async function longEventServer(): Promise<{ url: string; answerWith(bytes: number): void; close(): Promise<void> }> {
  let bytes = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const event = chunk({ content: 'w'.repeat(bytes) });
      for (let at = 0; at < event.length; at += 65_536) {
        if (!res.write(event.slice(at, at + 65_536))) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  // Longer than the client keeps an idle socket: a socket closed by the server just as the client reuses it is a reset.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answerWith: (next) => void (bytes = next),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function streamRows(gc: () => void): Promise<BenchRow[]> {
  const server = await longEventServer();
  try {
    const client = createModelClient({ id: 'm', name: 'M', api: 'openai', baseUrl: `${server.url}/v1`, model: 'm', vision: false, key: { kind: 'none' } }, undefined);
    const took = async (bytes: number) => {
      server.answerWith(bytes);
      gc();
      const started = process.cpuUsage();
      let text = 0;
      for await (const event of client.stream({ messages: [userText('?')] }, { maxAnswerChars: 64 * MiB, maxEventBytes: 64 * MiB })) {
        if (event.type === 'text-delta') text += event.text.length;
      }
      check(text === bytes, `the ${bytes}-character answer arrived whole (${text})`);
      return cpuMsSince(started);
    };
    await took(256 * 1024); // warm: the SDK's modules and the connection
    const smallTimes: number[] = [];
    const largeTimes: number[] = [];
    for (let round = 0; round < STREAM_ROUNDS; round++) (smallTimes.push(await took(2 * MiB)), largeTimes.push(await took(6 * MiB)));
    return [
      info('provider stream: one 2 MiB event (fastest)', fastest(smallTimes), 'ms CPU'),
      info('provider stream: one 6 MiB event (fastest)', fastest(largeTimes), 'ms CPU'),
      atMost('provider stream: 3x the bytes, time ratio', fastest(largeTimes) / fastest(smallTimes), 'x', 4),
    ];
  } finally {
    await server.close();
  }
}

export async function runLinearBench(): Promise<BenchSection> {
  const gc = gcNow();
  return {
    title: 'Linear cost on hostile input',
    rows: [...stackTraceRows(gc), ...(await streamRows(gc))],
    notes: [`the fastest of ${STACK_ROUNDS} (stack traces) and ${STREAM_ROUNDS} (stream) rounds, the sizes in turn, each after a full GC; the tests count the same work without a clock`],
  };
}
