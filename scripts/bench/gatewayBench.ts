import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findAppRoot } from '../../src/core/appPaths.js';
import { createHost, type Host } from '../../src/core/host.js';
import type { Caller } from '../../src/core/mcp/gateway/toolGateway.js';
import { atMost, check, grouped, info, median, percentile, type BenchRow, type BenchSection } from './section.js';

/**
 * The tool gateway against the SDK's own Client, on the same server, in the
 * same run. The server is @modelcontextprotocol/server-everything over stdio,
 * configured as an mcp.yaml server in a temporary CHATOS home and called
 * through host.gateway.callTool; the baseline is a bare SDK Client
 * (StdioClientTransport) on its own server-everything process. Both share
 * this process, so a GC pause or a busy core hits whichever is running: the
 * runs alternate in blocks (and which goes first alternates too) to spread
 * that noise evenly.
 *
 * Hot reload uses the lighter test fixture server (20 of them): one server's
 * environment changes in mcp.yaml, which changes the tools it lists, and the
 * time runs from the write until the gateway offers the new list.
 */

const repoRoot = findAppRoot();
const EVERYTHING = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'servers', 'gatewayServer.mjs');

// Both server processes and both clients must be warm (JIT-compiled): with 300 warm-up calls the figures were
// dominated by server-everything still warming up (its per-call time keeps falling for thousands of calls), which
// is not what a host running for hours feels. Both sides get the same warm-up.
const WARMUP_CALLS = 3_000;
const CONC_WARMUP_ROUNDS = 2;
const SEQ_CALLS = 1_000;
const SEQ_BLOCK = 50;
const CONC_CALLS = 1_000;
const CONC_IN_FLIGHT = 50;
const CONC_ROUNDS = 5;
const COLD_RUNS = 9;
const RELOAD_SERVERS = 20;
const RELOAD_RUNS = 5;
const RELOAD_CHANGED = 'srv07';
const RELOAD_TIMEOUT_MS = 10_000;

const MEDIAN_RATIO_LIMIT = 1.1;
const P99_RATIO_LIMIT = 1.25;
const THROUGHPUT_RATIO_MIN = 0.9;
const COLD_RATIO_LIMIT = 1.1;
const RELOAD_LIMIT_MS = 600;

const caller = (conversationId = 'bench'): Caller => ({ appId: 'chatos', conversationId, flow: 'main' });
const ECHO_ARGS = { message: 'hi' };

function yamlServer(key: string, command: string, args: string[], env: Record<string, string> = {}): string {
  const lines = [`  ${key}:`, '    transport: stdio', `    command: ${JSON.stringify(command)}`, `    args: ${JSON.stringify(args)}`];
  if (Object.keys(env).length) lines.push(`    env: ${JSON.stringify(env)}`);
  return lines.join('\n');
}

function writeMcpYaml(file: string, servers: string[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `version: 1\nservers:\n${servers.join('\n')}\n`);
}

async function startHost(home: string): Promise<Host> {
  const empty = path.join(home, 'empty');
  fs.mkdirSync(empty, { recursive: true });
  // No built-in plugins and no bundled provider defaults: only the benchmark's own servers are visible, so nothing else starts on a listing.
  const host = createHost({ home, appRoot: repoRoot, builtinPluginsDir: empty, defaultsDir: empty, sessionRoot: home });
  await host.start();
  return host;
}

function echoText(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}

async function bareClient(): Promise<{ client: Client; close: () => Promise<void> }> {
  const client = new Client({ name: 'bench-baseline', version: '0.0.0' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'pipe' }));
  return { client, close: () => client.close() };
}

/** Runs `count` calls with `inFlight` at once; returns calls per second. */
async function throughput(count: number, inFlight: number, call: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next++;
        await call();
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const ratioRow = (name: string, ratio: number, limit: number): BenchRow => atMost(name, Number(ratio.toFixed(3)), 'x', limit);

export async function runGatewayBench(): Promise<BenchSection> {
  check(fs.existsSync(EVERYTHING), `${EVERYTHING} is missing: npm ci installs @modelcontextprotocol/server-everything`);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-gateway-bench-'));
  try {
    rows.push(...(await echoFigures(path.join(base, 'echo'), notes)));
    rows.push(...(await coldFigures(path.join(base, 'cold'), notes)));
    rows.push(...(await reloadFigures(path.join(base, 'reload'), notes)));
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  return { title: 'MCP gateway vs bare SDK client (server-everything, stdio)', rows, notes };
}

async function echoFigures(home: string, notes: string[]): Promise<BenchRow[]> {
  const file = path.join(home, 'chatos', 'mcp.yaml');
  writeMcpYaml(file, [yamlServer('everything', process.execPath, [EVERYTHING, 'stdio'])]);
  const host = await startHost(home);
  check(host.home.mcpConfig === file, `the host reads ${host.home.mcpConfig}, not ${file}`);
  const bare = await bareClient();
  try {
    // The gateway's name for server-everything's echo, and its argument, as the gateway lists it.
    const listing = await host.gateway.listTools(caller());
    check(listing.problems.every((p) => p.severity !== 'error'), `listing problems: ${JSON.stringify(listing.problems)}`);
    const echo = listing.tools.find((t) => t.serverId === 'chatos::everything' && t.rawName === 'echo');
    check(echo, `no echo tool offered; got ${listing.tools.map((t) => t.name).join(', ')}`);
    check(echo.name === 'mcp_everything_echo', `echo is offered as ${echo.name}`);
    check(Object.keys((echo.inputSchema as { properties?: object }).properties ?? {}).includes('message'), 'echo takes no "message"');
    const toolName = echo.name;

    const viaGateway = async () => {
      const { result } = await host.gateway.callTool(caller(), toolName, ECHO_ARGS);
      if (result.isError || echoText(result) !== 'Echo: hi') throw new Error(`gateway echo returned ${JSON.stringify(result)}`);
    };
    const viaBare = async () => {
      const result = (await bare.client.callTool({ name: 'echo', arguments: ECHO_ARGS })) as CallToolResult;
      if (result.isError || echoText(result) !== 'Echo: hi') throw new Error(`bare echo returned ${JSON.stringify(result)}`);
    };

    // The same call with the `_meta` the gateway injects (seed 000 §3.1): what the server's share of that costs, for information.
    const meta = (host.gateway as unknown as { metaFor(server: unknown, caller: Caller): Record<string, unknown> }).metaFor(host.mcp.definition('chatos::everything'), caller());
    const viaBareWithMeta = async () => {
      const result = (await bare.client.callTool({ name: 'echo', arguments: ECHO_ARGS, _meta: meta })) as CallToolResult;
      if (result.isError || echoText(result) !== 'Echo: hi') throw new Error(`bare echo returned ${JSON.stringify(result)}`);
    };

    for (let i = 0; i < WARMUP_CALLS; i++) {
      await viaGateway();
      await viaBare();
      if (i % 3 === 0) await viaBareWithMeta();
    }

    // Sequential: alternating blocks, alternating which goes first.
    const gw: number[] = [];
    const sdk: number[] = [];
    const sdkMeta: number[] = [];
    const timeBlock = async (fn: () => Promise<void>, into: number[]) => {
      for (let i = 0; i < SEQ_BLOCK; i++) {
        const t0 = performance.now();
        await fn();
        into.push(performance.now() - t0);
      }
    };
    for (let block = 0; block < SEQ_CALLS / SEQ_BLOCK; block++) {
      if (block % 2 === 0) {
        await timeBlock(viaGateway, gw);
        await timeBlock(viaBare, sdk);
      } else {
        await timeBlock(viaBare, sdk);
        await timeBlock(viaGateway, gw);
      }
      await timeBlock(viaBareWithMeta, sdkMeta);
    }
    const seqRows = [
      info('gateway median', median(gw) * 1000, 'µs'),
      info('bare SDK median', median(sdk) * 1000, 'µs'),
      ratioRow('median ratio', median(gw) / median(sdk), MEDIAN_RATIO_LIMIT),
      info('bare SDK + the same _meta, median', median(sdkMeta) * 1000, 'µs'),
      info('ratio to bare SDK + the same _meta', Number((median(gw) / median(sdkMeta)).toFixed(3)), 'x'),
      info('gateway p99', percentile(gw, 99) * 1000, 'µs'),
      info('bare SDK p99', percentile(sdk, 99) * 1000, 'µs'),
      ratioRow('p99 ratio', percentile(gw, 99) / percentile(sdk, 99), P99_RATIO_LIMIT),
    ];

    // Concurrent: 1,000 calls, 50 in flight; rounds alternate, medians compared.
    const gwRate: number[] = [];
    const sdkRate: number[] = [];
    for (let round = 0; round < CONC_WARMUP_ROUNDS; round++) {
      await throughput(CONC_CALLS, CONC_IN_FLIGHT, viaGateway);
      await throughput(CONC_CALLS, CONC_IN_FLIGHT, viaBare);
    }
    for (let round = 0; round < CONC_ROUNDS; round++) {
      if (round % 2 === 0) {
        gwRate.push(await throughput(CONC_CALLS, CONC_IN_FLIGHT, viaGateway));
        sdkRate.push(await throughput(CONC_CALLS, CONC_IN_FLIGHT, viaBare));
      } else {
        sdkRate.push(await throughput(CONC_CALLS, CONC_IN_FLIGHT, viaBare));
        gwRate.push(await throughput(CONC_CALLS, CONC_IN_FLIGHT, viaGateway));
      }
    }
    const concRows = [
      info('gateway', median(gwRate), 'calls/s'),
      info('bare SDK', median(sdkRate), 'calls/s'),
      { ...ratioRow('throughput ratio', median(gwRate) / median(sdkRate), 0), target: `>= ${THROUGHPUT_RATIO_MIN} x`, pass: median(gwRate) / median(sdkRate) >= THROUGHPUT_RATIO_MIN },
    ];

    notes.push(
      `echo: ${WARMUP_CALLS} warm-up calls each, then ${SEQ_CALLS} sequential calls each in alternating blocks of ${SEQ_BLOCK}; concurrency: ${CONC_WARMUP_ROUNDS} unmeasured rounds each, then ${CONC_ROUNDS} alternating rounds of ${CONC_CALLS} calls, ${CONC_IN_FLIGHT} in flight, medians compared`,
    );
    return [
      ...grouped(`${SEQ_CALLS} sequential echo calls`, seqRows),
      ...grouped(`${CONC_CALLS} echo calls, ${CONC_IN_FLIGHT} in flight`, concRows),
    ];
  } finally {
    await bare.close();
    await host.dispose();
  }
}

async function coldFigures(home: string, notes: string[]): Promise<BenchRow[]> {
  // Each gateway run is the first use of its own mcp.yaml server: nothing listed or started before it.
  const coldKeys = Array.from({ length: COLD_RUNS }, (_, i) => `cold${i + 1}`);
  writeMcpYaml(
    path.join(home, 'chatos', 'mcp.yaml'),
    coldKeys.map((key) => yamlServer(key, process.execPath, [EVERYTHING, 'stdio'])),
  );
  const host = await startHost(home);
  try {
    // Cold: each gateway run is the first use of its own mcp.yaml server (spawn, initialize, list tools, call);
    // each bare run spawns its own process and does the same.
    const gwCold: number[] = [];
    const sdkCold: number[] = [];
    const coldGateway = async (key: string) => {
      const t0 = performance.now();
      const { result } = await host.gateway.callTool(caller(`cold-${key}`), `mcp_${key}_echo`, ECHO_ARGS);
      gwCold.push(performance.now() - t0);
      check(echoText(result) === 'Echo: hi', `cold gateway echo returned ${JSON.stringify(result)}`);
      await host.mcp.connections.endConversation(`cold-${key}`);
    };
    const coldBare = async () => {
      const t0 = performance.now();
      const client = new Client({ name: 'bench-baseline', version: '0.0.0' }, { capabilities: {} });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'pipe' }));
      const { tools } = await client.listTools();
      check(tools.some((t) => t.name === 'echo'), 'bare cold listing has no echo');
      const result = (await client.callTool({ name: 'echo', arguments: ECHO_ARGS })) as CallToolResult;
      sdkCold.push(performance.now() - t0);
      check(echoText(result) === 'Echo: hi', `cold bare echo returned ${JSON.stringify(result)}`);
      await client.close();
    };
    for (const [i, key] of coldKeys.entries()) {
      if (i % 2 === 0) {
        await coldGateway(key);
        await coldBare();
      } else {
        await coldBare();
        await coldGateway(key);
      }
    }
    const coldRows = [
      info('gateway median', median(gwCold), 'ms'),
      info('bare SDK median', median(sdkCold), 'ms'),
      ratioRow('cold ratio', median(gwCold) / median(sdkCold), COLD_RATIO_LIMIT),
    ];

    notes.push(
      `cold: ${COLD_RUNS} alternating runs; a gateway run is the first call to a never-used mcp.yaml server (its own server id, nothing listed before), from gateway.callTool to the echo result; a bare run is new Client + StdioClientTransport, connect, listTools, callTool`,
    );
    return grouped('first call to a cold server', coldRows);
  } finally {
    await host.dispose();
  }
}

async function reloadFigures(home: string, notes: string[]): Promise<BenchRow[]> {
  const file = path.join(home, 'chatos', 'mcp.yaml');
  const keys = Array.from({ length: RELOAD_SERVERS }, (_, i) => `srv${String(i).padStart(2, '0')}`);
  check(keys.includes(RELOAD_CHANGED), 'the changed server is one of the twenty');
  const TOOLS_A = 'echo,pid';
  const TOOLS_B = 'echo,pid,count';
  const write = (changedTools: string) =>
    writeMcpYaml(
      file,
      keys.map((key) => yamlServer(key, process.execPath, [FIXTURE], { GATEWAY_TOOLS: key === RELOAD_CHANGED ? changedTools : TOOLS_A })),
    );
  write(TOOLS_A);
  const host = await startHost(home);
  const watchable = host as Host & { watch?: (options?: { debounceMs?: number; pollMs?: number }) => () => void };
  const stopWatching = typeof watchable.watch === 'function' ? watchable.watch() : undefined;
  try {
    const listing = await host.gateway.listTools(caller());
    check(listing.problems.every((p) => p.severity !== 'error'), `listing problems: ${JSON.stringify(listing.problems)}`);
    check(listing.tools.filter((t) => t.rawName === 'pid').length === RELOAD_SERVERS, `all ${RELOAD_SERVERS} servers list their tools`);
    const pidsOf = () => {
      const pids = new Map<string, number | undefined>();
      for (const server of host.mcp.connections.snapshot()) {
        const running = server.leases.find((l) => l.state.kind === 'running');
        pids.set(server.serverId, running?.pid);
      }
      return pids;
    };
    const before = pidsOf();
    check([...before.values()].filter((pid) => pid !== undefined).length === RELOAD_SERVERS, `all ${RELOAD_SERVERS} servers run: ${JSON.stringify([...before])}`);

    const changedId = `chatos::${RELOAD_CHANGED}`;
    const hasCount = async () => (await host.gateway.listTools(caller())).tools.some((t) => t.serverId === changedId && t.rawName === 'count');
    const samples: number[] = [];
    let untouched = true;
    for (let run = 0; run < RELOAD_RUNS; run++) {
      const want = run % 2 === 0; // alternately add and remove the "count" tool
      const t0 = performance.now();
      write(want ? TOOLS_B : TOOLS_A);
      if (!stopWatching) await host.reloadMcp();
      while ((await hasCount()) !== want) {
        check(performance.now() - t0 < RELOAD_TIMEOUT_MS, `the changed tool list did not appear within ${RELOAD_TIMEOUT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      samples.push(performance.now() - t0);
      // The changed server is in use again (its replacement starts), like the others.
      const { result } = await host.gateway.callTool(caller(), `mcp_${RELOAD_CHANGED}_pid`, {});
      check(!result.isError, 'the changed server answers after the reload');
      const after = pidsOf();
      for (const [id, pid] of before) {
        if (id === changedId) continue;
        if (after.get(id) !== pid) untouched = false;
      }
      check(after.get(changedId) !== before.get(changedId), 'the changed server was restarted');
    }
    // The floor under any reload that shows a restarted server's tools: spawning it, initialize, tools/list (bare SDK, same server).
    const floor: number[] = [];
    for (let run = 0; run < RELOAD_RUNS; run++) {
      const t0 = performance.now();
      const client = new Client({ name: 'bench-baseline', version: '0.0.0' }, { capabilities: {} });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], env: { ...getDefaultEnvironment(), GATEWAY_TOOLS: TOOLS_B }, stderr: 'pipe' }));
      await client.listTools();
      floor.push(performance.now() - t0);
      await client.close();
    }
    notes.push(
      `hot reload: ${RELOAD_SERVERS} fixture servers (test/fixtures/servers/gatewayServer.mjs), all listed and running; ${RELOAD_CHANGED}'s env GATEWAY_TOOLS is rewritten in mcp.yaml (adding/removing its "count" tool), ${RELOAD_RUNS} runs; ` +
        (stopWatching ? "timed from the write through host.watch()'s file watcher (default debounce) until gateway.listTools offers the new list" : 'host.watch() is not wired, so host.reloadMcp() is called right after the write; timed until gateway.listTools offers the new list'),
    );
    return grouped(`hot reload, ${RELOAD_SERVERS} servers, one changed (${stopWatching ? 'file watcher' : 'reloadMcp()'})`, [
      atMost('write → new tool list (median)', median(samples), 'ms', RELOAD_LIMIT_MS),
      info('write → new tool list (worst)', Math.max(...samples), 'ms'),
      info('floor: bare SDK spawn + initialize + list (median)', median(floor), 'ms'),
      { name: 'other 19 pids unchanged', value: untouched ? 1 : 0, unit: 'bool', target: '= 1', pass: untouched },
    ]);
  } finally {
    stopWatching?.();
    await host.dispose();
  }
}
