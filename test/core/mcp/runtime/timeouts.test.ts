import { describe, expect, it } from 'vitest';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../../../../src/core/host.js';
import { McpRuntimeError } from '../../../../src/core/mcp/mcpRuntimeError.js';
import { caller, fixtureServer, pidOf, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { internalsOf } from '../../../../src/core/modules/hostInternals.js';
import { TestScheduler } from '../../../helpers/testScheduler.js';

const SERVER = 'chatos::echo';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, and it succeeded');
}

/** Resolves with the first stderr line of the server containing `needle` (already logged, or the next to come). */
function stderrLine(host: Host, needle: string, timeoutMs = 10_000): Promise<string> {
  const log = internalsOf(host).mcp.runtime.connections.logOf(SERVER);
  const seen = log.entries().find((e) => e.stream === 'stderr' && e.text.includes(needle));
  if (seen) return Promise.resolve(seen.text);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(
        new Error(
          `no stderr line with "${needle}" within ${timeoutMs} ms; log:\n${log
            .entries()
            .map((e) => `${e.stream}: ${e.text}`)
            .join('\n')}`,
        ),
      );
    }, timeoutMs);
    const stop = log.onAppend((entry) => {
      if (entry.stream !== 'stderr' || !entry.text.includes(needle)) return;
      clearTimeout(timer);
      stop();
      resolve(entry.text);
    });
  });
}

/**
 * Moves the host's time by `stepMs` each time the call's deadline of `timeoutMs` is armed afresh (first the `from`th
 * timer of that length: the call's start; then each progress report that restarts it), until the call ends; says how often.
 */
async function stepAtEachArming(scheduler: TestScheduler, call: Promise<unknown>, timeoutMs: number, stepMs: number, from: number): Promise<number> {
  let ended = false;
  const end = call.then(
    () => void (ended = true),
    () => void (ended = true),
  );
  let steps = 0;
  for (let armed = from; ;) {
    await Promise.race([scheduler.timerSet(timeoutMs, armed), end]);
    if (ended) return steps;
    scheduler.advance(stepMs);
    steps++;
    // Reports that came meanwhile armed it again already: the next step waits for one after this.
    armed = scheduler.timersSet(timeoutMs) + 1;
  }
}

/** The host's time is the test's (its call deadlines run on it); the servers and the SDK keep real time. */
async function echoHost(entry: Record<string, unknown>) {
  const scheduler = new TestScheduler();
  const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer(entry) }), { scheduler });
  return { host, scheduler };
}

describe('call timeout, cancellation and progress (real stdio server)', () => {
  it('a call past the server timeout fails with CALL_TIMEOUT at that timeout, and the server is told to cancel it', async () => {
    const { host, scheduler } = await echoHost({ timeout: 300 });
    const who = caller('conv-t');
    const pid = pidOf((await host.tools.call(who, 'mcp_echo_pid', {})).result); // started: its own deadline was the first of 300 ms

    let settled = false;
    const failed = rejection(host.tools.call(who, 'mcp_echo_slow', { ms: 60_000 })).finally(() => (settled = true));
    await scheduler.timerSet(300, 2); // the slow call's deadline is armed: the call is on its way to the server
    scheduler.advance(299);
    // A call sent after it and answered: the server has read the slow one (one pipe, in order), and 299 ms did not end it.
    expect(pidOf((await host.tools.call(who, 'mcp_echo_pid', {})).result)).toBe(pid);
    expect(settled).toBe(false);
    scheduler.advance(1);
    const error = await failed;
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('CALL_TIMEOUT');
    expect(error.message).toContain('300 ms');
    // notifications/cancelled reached the server: its handler's signal fired.
    expect(await stderrLine(host, 'cancelled:')).toMatch(/^cancelled: /);

    // The server survives a cancelled call: the same process answers the next one.
    const next = await host.tools.call(who, 'mcp_echo_pid', {});
    expect(pidOf(next.result)).toBe(pid);
  });

  it('an aborted signal ends the call with CALL_ABORTED and cancels it on the server', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const controller = new AbortController();
    // Abort when the server reports its first step: the call is surely running there. Not aborted, it would answer (and rejection() fail).
    const call = host.tools.call(caller('conv-a'), 'mcp_echo_slow', { ms: 10_000, steps: 40 }, { signal: controller.signal, onProgress: () => controller.abort('user pressed stop') });
    const error = await rejection(call);
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('CALL_ABORTED');
    expect(await stderrLine(host, 'cancelled:')).toContain('cancelled:');
  });

  it('progress notifications reach onProgress, in order', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const seen: Progress[] = [];
    const { result } = await host.tools.call(caller('conv-p'), 'mcp_echo_slow', { ms: 600, steps: 3 }, { onProgress: (p) => seen.push(p) });
    expect(textOf(result)).toBe('waited 600');
    // The SDK client dispatches notifications a microtask late but drops a request's progress handler as soon as
    // its response is read, so a report written right before the result (the last one here) may be lost.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.map((p) => [p.progress, p.total])).toEqual(
      [
        [1, 3],
        [2, 3],
        [3, 3],
      ].slice(0, seen.length),
    );
  });

  it('a server reporting progress is alive: each report restarts the timeout', async () => {
    // 1,300 ms: a length no other timer of the host has (the trust watch polls every 1,000), so each one set is this deadline.
    const { host, scheduler } = await echoHost({ timeout: 1_300 });
    const who = caller('conv-r');
    await host.tools.call(who, 'mcp_echo_pid', {});
    const seen: number[] = [];
    // Eight reports; 1,200 ms of the host's time pass before each: longer than the timeout in all, never as long without one.
    const call = host.tools.call(who, 'mcp_echo_slow', { ms: 800, steps: 8 }, { onProgress: (p) => seen.push(p.progress) });
    const steps = await stepAtEachArming(scheduler, call, 1_300, 1_200, 2);
    const { result } = await call;
    expect(textOf(result)).toBe('waited 800');
    expect(steps).toBeGreaterThanOrEqual(3); // 3,600 ms and more: past the timeout, which each report restarted
    expect(seen.length).toBeGreaterThanOrEqual(7); // the last may be lost to the SDK (see above)
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8].slice(0, seen.length));
  });

  it('progress restarts the timeout of every call, not only of callers that follow it', async () => {
    const { host, scheduler } = await echoHost({ timeout: 600 });
    const who = caller('conv-n');
    await host.tools.call(who, 'mcp_echo_pid', {});
    // Ten reports, no onProgress: the call still asks for progress, so it lives past its 600 ms, 500 ms before each report.
    const call = host.tools.call(who, 'mcp_echo_slow', { ms: 1_000, steps: 10 });
    const steps = await stepAtEachArming(scheduler, call, 600, 500, 2);
    const { result } = await call;
    expect(textOf(result)).toBe('waited 1000');
    expect(steps).toBeGreaterThanOrEqual(3); // 1,500 ms and more: past the timeout, which each report restarted
  });

  it('a call that keeps reporting progress ends at its maximum total time, and the server is told to cancel it', async () => {
    // The host's time stands still: its timeout never ends the call, only the SDK's maximum total time (real time) can.
    const { host } = await echoHost({ timeout: 600, maxTotalTimeout: 1_000 });
    const who = caller('conv-m');
    await host.tools.call(who, 'mcp_echo_pid', {});
    const reports: number[] = [];
    // 60 s with a report every 200 ms: only the maximum total time ends it.
    const error = await rejection(host.tools.call(who, 'mcp_echo_slow', { ms: 60_000, steps: 300 }, { onProgress: (p) => reports.push(p.progress) }));
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('CALL_TIMEOUT');
    expect(error.message).toContain('maximum total time of 1000 ms');
    expect((error as McpRuntimeError).fix).toContain('maxTotalTimeout');
    expect(reports.length).toBeGreaterThanOrEqual(1);
    expect(await stderrLine(host, 'cancelled:')).toMatch(/^cancelled: /);
  });
});
