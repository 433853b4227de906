import { describe, expect, it } from 'vitest';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../../../../src/core/host.js';
import { McpRuntimeError } from '../../../../src/core/mcp/mcpRuntimeError.js';
import { caller, fixtureServer, pidOf, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { stderrLine as serverStderrLine } from '../../../helpers/serverStderr.js';

const SERVER = 'chatos::echo';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, and it succeeded');
}

/** The first stderr line of the echo server containing `needle`. */
const stderrLine = (host: Host, needle: string) => serverStderrLine(host, SERVER, needle);

describe('call timeout, cancellation and progress (real stdio server)', () => {
  it('a call past the server timeout fails with CALL_TIMEOUT quickly, and the server is told to cancel it', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer({ timeout: 300 }) }));
    const who = caller('conv-t');
    const pid = pidOf((await host.tools.call(who, 'mcp_echo_pid', {})).result); // started: the timing below is the call's alone

    const started = Date.now();
    const error = await rejection(host.tools.call(who, 'mcp_echo_slow', { ms: 5_000 }));
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('CALL_TIMEOUT');
    expect(error.message).toContain('300 ms');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(5_000); // the server would have answered at 5 s
    // notifications/cancelled reached the server: its handler's signal fired.
    expect(await stderrLine(host, 'cancelled:')).toMatch(/^cancelled: /);

    // The server survives a cancelled call: the same process answers the next one.
    const next = await host.tools.call(who, 'mcp_echo_pid', {});
    expect(pidOf(next.result)).toBe(pid);
  });

  it('an aborted signal ends the call with CALL_ABORTED and cancels it on the server', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const controller = new AbortController();
    const started = Date.now();
    // Abort when the server reports its first step: the call is surely running there.
    const call = host.tools.call(caller('conv-a'), 'mcp_echo_slow', { ms: 10_000, steps: 40 }, { signal: controller.signal, onProgress: () => controller.abort('user pressed stop') });
    const error = await rejection(call);
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('CALL_ABORTED');
    expect(Date.now() - started).toBeLessThan(10_000); // the call would have run for 10 s
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
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer({ timeout: 1_000 }) }));
    const who = caller('conv-r');
    await host.tools.call(who, 'mcp_echo_pid', {});
    const seen: number[] = [];
    // 2 s in all, a report every 250 ms: longer than the timeout, never silent for as long.
    const { result } = await host.tools.call(who, 'mcp_echo_slow', { ms: 2_000, steps: 8 }, { onProgress: (p) => seen.push(p.progress) });
    expect(textOf(result)).toBe('waited 2000');
    expect(seen.length).toBeGreaterThanOrEqual(7); // the last may be lost to the SDK (see above)
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8].slice(0, seen.length));
  });

  it('progress restarts the timeout of every call, not only of callers that follow it', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer({ timeout: 600 }) }));
    const who = caller('conv-n');
    await host.tools.call(who, 'mcp_echo_pid', {});
    // 2 s in all, a report every 200 ms, no onProgress: the call still asks for progress, so it lives past its 600 ms.
    const { result } = await host.tools.call(who, 'mcp_echo_slow', { ms: 2_000, steps: 10 });
    expect(textOf(result)).toBe('waited 2000');
  });

  it('a call that keeps reporting progress ends at its maximum total time, and the server is told to cancel it', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer({ timeout: 600, maxTotalTimeout: 1_000 }) }));
    const who = caller('conv-m');
    await host.tools.call(who, 'mcp_echo_pid', {});
    const reports: number[] = [];
    // 60 s with a report every 200 ms: never silent for 600 ms, so only the maximum total time ends it.
    const error = await rejection(host.tools.call(who, 'mcp_echo_slow', { ms: 60_000, steps: 300 }, { onProgress: (p) => reports.push(p.progress) }));
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('CALL_TIMEOUT');
    expect(error.message).toContain('maximum total time of 1000 ms');
    expect((error as McpRuntimeError).fix).toContain('maxTotalTimeout');
    expect(reports.length).toBeGreaterThanOrEqual(1);
    expect(await stderrLine(host, 'cancelled:')).toMatch(/^cancelled: /);
  });
});
