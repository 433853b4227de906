import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findAppRoot } from '../../src/core/appPaths.js';
import { createHost, type Host } from '../../src/core/host.js';
import { serverEnvironment } from '../../src/core/process/serverEnvironment.js';
import type { Caller } from '../../src/core/tools/toolGateway.js';
import { DetachedStdioTransport } from './detachedStdioTransport.js';
import { measureHostCost } from './gatewayHostCost.js';
import { atMost, callsPerSecond, check, grouped, info, median, percentile, type BenchRow, type BenchSection } from './section.js';

/**
 * The tool gateway against the SDK's own Client, on the same server, in the
 * same run. The server is @modelcontextprotocol/server-everything over stdio,
 * configured as an mcp.yaml server in a temporary CHATOS home and called
 * through host.tools.call; the baseline is a bare SDK Client on its own
 * server-everything process, doing the same work: it sends the gateway's
 * request (its `_meta` and a progress token) to a server started as the
 * gateway starts its own (a session of its own: DetachedStdioTransport), so
 * what differs is the host's own work. What the request and the placement
 * cost the server and the OS is shown beside it, against a client as the SDK
 * starts it asking for no progress. Both share this process, so a GC pause,
 * a busy core or a slow moment of the VM hits whichever is running:
 * sequential calls are interleaved one by one, and each side spreads over
 * several server processes, since two identical processes differ by several
 * per cent on their own. An A/A check (two bare clients, the same method)
 * shows what the method can resolve.
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
// A p99 of 1,000 calls is their 10th slowest: on a shared 2-core VM two identical clients differ by 2x there, as
// the tail is steep (p98 ~0.5 ms, p99 ~1 ms, p99.5 ~2 ms: ~0.5 % of calls, on every side, stall for milliseconds).
// Pooled over 24 rounds, two identical sides' p99 still read 0.83-1.16; 72 rounds (12 per process pair) narrow it.
const SEQ_ROUNDS = 72;
// Server processes per side. Identical server-everything processes, each warmed alike, differed by up to 13 % in
// 50-in-flight throughput within one run (4 bare clients, 20 rounds each), which a side of two cannot average out:
// its runs' ratios spread 0.86-0.96. Six per side, each side's pairs taking turns, average it down.
const PAIRS = 6;
/** Rounds of the check that splits the gap to a client as the SDK starts it (the request, the server's placement). */
const CHECK_ROUNDS = 6;
const CONC_CALLS = 1_000;
const CONC_IN_FLIGHT = 50;
// Rounds of 1,000 calls drift with each process's state (garbage collection, heap growth): a figure over 60 rounds
// moved by ±4 % from one block of rounds to the next in one run, over 240 rounds by ±2 %. 216 rounds give each of the
// six groups each of the six orders of its three sides six times.
const CONC_ROUNDS = 216;

// Spawning server-everything takes ~350 ms and varies by 10 % and more run to run, and the machine drifts: with 21
// runs of three identical bare sides, the ratio of two sides' medians read 1.00-1.14, and the median of the per-run
// ratios (each run's sides back to back) 0.95-1.08. So the figure is the median of per-run ratios, over 48 runs (each
// of the six orders of the three sides eight times).
const COLD_RUNS = 48;
const HOST_COST_CALLS = 2_000;
const HOST_COST_ROUNDS = 10;
const RELOAD_SERVERS = 20;
const RELOAD_RUNS = 9;
const RELOAD_CHANGED = 'srv07';
const RELOAD_TIMEOUT_MS = 10_000;

const MEDIAN_RATIO_LIMIT = 1.1;
const P99_RATIO_LIMIT = 1.25;
const THROUGHPUT_RATIO_MIN = 0.9;
const COLD_RATIO_LIMIT = 1.1;
const RELOAD_LIMIT_MS = 600;

// The bare clients start their servers in the environment the gateway gives its own (serverEnvironment.ts), not
// the SDK's shorter default: which variables a server inherits is a choice of the host, not the gateway's overhead.
// (NODE_EXTRA_CA_CERTS alone, set on these machines, adds ~40 ms to server-everything's start.)
const SERVER_ENV = serverEnvironment(process.env, undefined, {});

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

/** A bare SDK client on its own server-everything, started as the gateway starts its servers; `asSdkStartsIt`: as the SDK's StdioClientTransport does. */
async function bareClient(asSdkStartsIt = false): Promise<{ client: Client; close: () => Promise<void> }> {
  const client = new Client({ name: 'bench-baseline', version: '0.0.0' }, { capabilities: {} });
  const server = { command: process.execPath, args: [EVERYTHING, 'stdio'], env: SERVER_ENV };
  await client.connect(asSdkStartsIt ? new StdioClientTransport({ ...server, stderr: 'pipe' }) : new DetachedStdioTransport(server));
  return { client, close: () => client.close() };
}

const ratioRow = (name: string, ratio: number, limit: number): BenchRow => atMost(name, Number(ratio.toFixed(3)), 'x', limit);

export async function runGatewayBench(): Promise<BenchSection> {
  check(fs.existsSync(EVERYTHING), `${EVERYTHING} is missing: npm ci installs @modelcontextprotocol/server-everything`);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-gateway-bench-'));
  try {
    rows.push(...(await echoFigures(path.join(base, 'echo'), notes)));
    rows.push(...(await hostCostFigures(notes)));
    rows.push(...(await coldFigures(path.join(base, 'cold'), notes)));
    rows.push(...(await reloadFigures(path.join(base, 'reload'), notes)));
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  return { title: 'MCP gateway vs bare SDK client (server-everything, stdio)', rows, notes };
}

/** One way of making the echo call: the gateway, a bare client, a spare bare client. */
type Side = () => Promise<void>;

/**
 * Sequential calls of several sides, interleaved call by call, each call going through every order of the sides
 * in turn: every side goes first, second… and after each other side equally often (what a call leaves behind,
 * such as a timer or garbage, lands on the next). Each side's times are kept apart, in `into[side]`.
 */
async function interleaved(count: number, sides: Side[], into: number[][]): Promise<void> {
  const sideOrders = orders(sides.length);
  for (let i = 0; i < count; i++) {
    for (const side of sideOrders[i % sideOrders.length]!) {
      const t0 = performance.now();
      await sides[side]!();
      into[side]!.push(performance.now() - t0);
    }
  }
}

/** Every order of `width` sides (width! of them), so each side runs after each other side equally often. */
function orders(width: number): number[][] {
  if (width === 1) return [[0]];
  return orders(width - 1).flatMap((order) => Array.from({ length: width }, (_, at) => [...order.slice(0, at), width - 1, ...order.slice(at)]));
}

/** `rounds` rounds of `count` interleaved calls, round r on group r % groups; all samples pooled per side, and each round's median per side. */
async function pooledRounds(rounds: number, count: number, groups: Side[][]): Promise<{ samples: number[][]; roundMedians: number[][] }> {
  const width = groups[0]!.length;
  const samples = Array.from({ length: width }, (): number[] => []);
  const roundMedians = Array.from({ length: width }, (): number[] => []);
  for (let round = 0; round < rounds; round++) {
    const into = Array.from({ length: width }, (): number[] => []);
    await interleaved(count, groups[round % groups.length]!, into);
    into.forEach((times, side) => {
      roundMedians[side]!.push(median(times));
      samples[side]!.push(...times);
    });
  }
  return { samples, roundMedians };
}

/**
 * `rounds` rounds of CONC_CALLS calls with CONC_IN_FLIGHT in flight: each round runs every side of one group back
 * to back, after CONC_WARMUP_ROUNDS unmeasured rounds per group. Groups take turns, and each group goes through
 * every order of its sides: a side leaves work behind it (its server's and the host's garbage collection, the
 * gateway's audit write), which slowed whichever round came next by 10 % and more; a fixed rotation put the bare
 * client right after the gateway in two rounds of three, so the baseline bore the gateway's leftovers. Returns
 * each side's rate per round.
 */
async function throughputRounds(rounds: number, groups: Side[][]): Promise<number[][]> {
  const width = groups[0]!.length;
  const sideOrders = orders(width);
  for (const group of groups) for (let round = 0; round < CONC_WARMUP_ROUNDS; round++) for (const side of group) await callsPerSecond(CONC_CALLS, CONC_IN_FLIGHT, side);
  const rates = Array.from({ length: width }, (): number[] => []);
  for (let round = 0; round < rounds; round++) {
    const group = groups[round % groups.length]!;
    const turn = Math.floor(round / groups.length);
    // Rates are stored by side, not by position, so round r's ratios pair the sides' runs of that round.
    for (const side of sideOrders[turn % sideOrders.length]!) rates[side]!.push(await callsPerSecond(CONC_CALLS, CONC_IN_FLIGHT, group[side]!));
  }
  return rates;
}

/** Per-round ratios of two sides' figures (a / b). */
const roundRatios = (a: number[], b: number[]) => a.map((value, round) => value / b[round]!);

const fixed3 = (value: number) => Number(value.toFixed(3));

async function echoFigures(home: string, notes: string[]): Promise<BenchRow[]> {
  const file = path.join(home, 'chatos', 'mcp.yaml');
  writeMcpYaml(file, [yamlServer('everything', process.execPath, [EVERYTHING, 'stdio'])]);
  const host = await startHost(home);
  check(host.setup.home.mcpConfig === file, `the host reads ${host.setup.home.mcpConfig}, not ${file}`);
  // PAIRS server processes per side (each gateway conversation holds its own lease, each bare client spawns its own),
  // plus as many spare bare clients for the A/A checks: identical processes differ by several per cent on their own.
  const bares = await Promise.all(Array.from({ length: 2 * PAIRS }, () => bareClient()));
  // For the check alone: a client as the SDK starts its server, in this process's own session.
  const sdkStarted = await bareClient(true);
  try {
    // The gateway's name for server-everything's echo, and its argument, as the gateway lists it.
    const listing = await host.tools.list(caller('bench-0'));
    check(
      listing.problems.every((p) => p.severity !== 'error'),
      `listing problems: ${JSON.stringify(listing.problems)}`,
    );
    const echo = listing.tools.find((t) => t.serverId === 'chatos::everything' && t.rawName === 'echo');
    check(echo, `no echo tool offered; got ${listing.tools.map((t) => t.name).join(', ')}`);
    check(echo.name === 'mcp_everything_echo', `echo is offered as ${echo.name}`);
    check(Object.keys((echo.inputSchema as { properties?: object }).properties ?? {}).includes('message'), 'echo takes no "message"');
    const toolName = echo.name;

    const viaGateway = (conversationId: string) => async () => {
      const { result } = await host.tools.call(caller(conversationId), toolName, ECHO_ARGS);
      if (result.isError || echoText(result) !== 'Echo: hi') throw new Error(`gateway echo returned ${JSON.stringify(result)}`);
    };
    // The gateway's `_meta` (docs/rules/gateway.md#_meta: the server's own, with the session root as its workdir), sent by
    // every bare client too, so that the server does the same work for both sides.
    const meta = { ...host.mcp.definition('chatos::everything')!.meta, workdir: home };
    const viaBare =
      (client: Client, gatewayRequest = true) =>
      async () => {
        // The gateway's request: its `_meta`, and a progress token, as the gateway asks every call for progress (docs/rules/mcp-yaml.md#timeouts;
        // the SDK sends a token only with a handler). The server reads a larger request: some 5-8 % of an echo here, the server's work.
        const result = (
          gatewayRequest
            ? await client.callTool({ name: 'echo', arguments: ECHO_ARGS, _meta: meta }, undefined, { onprogress: () => {} })
            : await client.callTool({ name: 'echo', arguments: ECHO_ARGS })
        ) as CallToolResult;
        if (result.isError || echoText(result) !== 'Echo: hi') throw new Error(`bare echo returned ${JSON.stringify(result)}`);
      };
    // Each group: the gateway on one process, a bare client on another, and a spare bare client on a third for the
    // A/A check. All three make the same calls in lockstep, so their processes share one history: server-everything
    // keeps getting faster for thousands of calls, and a spare warmed less read 15 % slower than its twin.
    const GATEWAY = 0;
    const BARE = 1;
    const SPARE = 2;
    const groups = Array.from({ length: PAIRS }, (_, i) => [viaGateway(`bench-${i}`), viaBare(bares[i]!.client), viaBare(bares[PAIRS + i]!.client)]);

    for (const group of groups) await interleaved(WARMUP_CALLS, group, [[], [], []]);
    // The gap to a client as the SDK starts it, asking for no progress, in two steps, on group 0's processes and one more:
    // the same bare client without the gateway's request (the server's share), and a client whose server shares this
    // process's session (the OS's share: a session of its own is a scheduling group of its own on Linux).
    const checkSides = [groups[0]![GATEWAY]!, viaBare(bares[0]!.client), viaBare(bares[0]!.client, false), viaBare(sdkStarted.client, false)];
    await interleaved(WARMUP_CALLS, checkSides.slice(2), [[], []]);
    check(host.mcp.servers.snapshots().find((s) => s.serverId === 'chatos::everything')?.leases.length === PAIRS, `the gateway holds ${PAIRS} leases of server-everything`);

    const seq = await pooledRounds(SEQ_ROUNDS, SEQ_CALLS, groups);
    const split = await pooledRounds(CHECK_ROUNDS, SEQ_CALLS, [checkSides]);
    const splitMedian = (side: number) => median(split.samples[side]!);
    const [gwTimes, bareTimes, spareTimes] = [seq.samples[GATEWAY]!, seq.samples[BARE]!, seq.samples[SPARE]!];
    const seqRoundRatios = roundRatios(seq.roundMedians[GATEWAY]!, seq.roundMedians[BARE]!);
    const seqRows = [
      info('gateway median', median(gwTimes) * 1000, 'µs'),
      info('bare SDK median', median(bareTimes) * 1000, 'µs'),
      ratioRow('median ratio', median(gwTimes) / median(bareTimes), MEDIAN_RATIO_LIMIT),
      info('median ratio, lowest round', fixed3(Math.min(...seqRoundRatios)), 'x'),
      info('median ratio, highest round', fixed3(Math.max(...seqRoundRatios)), 'x'),
      info('gateway p99', percentile(gwTimes, 99) * 1000, 'µs'),
      info('bare SDK p99', percentile(bareTimes, 99) * 1000, 'µs'),
      ratioRow('p99 ratio', percentile(gwTimes, 99) / percentile(bareTimes, 99), P99_RATIO_LIMIT),
      // The same method on two sides that do the same work: how far from 1.00 the measurement itself strays here.
      info('A/A check, spare bare vs bare: median ratio', fixed3(median(spareTimes) / median(bareTimes)), 'x'),
      info('A/A check, spare bare vs bare: p99 ratio', fixed3(percentile(spareTimes, 99) / percentile(bareTimes, 99)), 'x'),
      info('gateway vs a bare client as the SDK starts its server, asking for no progress: median ratio', fixed3(splitMedian(0) / splitMedian(3)), 'x'),
      info("  of it, the server's work: bare with the gateway's _meta and progress token vs without", fixed3(splitMedian(1) / splitMedian(2)), 'x'),
      info("  of it, the OS's: bare, its server in a session of its own (as the gateway starts it) vs in this process's", fixed3(splitMedian(2) / splitMedian(3)), 'x'),
    ];

    // Concurrent: 1,000 calls, 50 in flight; each round runs the three sides of one group back to back (groups take
    // turns, each in every order of its sides); the median of the per-round ratios counts: a round is 50 ms, and the VM's slow
    // moments land in whole rounds.
    const rates = await throughputRounds(CONC_ROUNDS, groups);
    const rateRatios = roundRatios(rates[GATEWAY]!, rates[BARE]!);
    const rateRatio = median(rateRatios);
    const totalTime = (side: number) => rates[side]!.reduce((sum, rate) => sum + 1 / rate, 0);
    const groupRatios = groups.map((_, i) => median(rateRatios.filter((_, round) => round % PAIRS === i)));

    const concRows = [
      info('gateway', median(rates[GATEWAY]!), 'calls/s'),
      info('bare SDK', median(rates[BARE]!), 'calls/s'),
      { ...ratioRow('throughput ratio', rateRatio, 0), target: `>= ${THROUGHPUT_RATIO_MIN} x`, pass: rateRatio >= THROUGHPUT_RATIO_MIN },
      info('pooled: all bare rounds’ time / all gateway rounds’ time', fixed3(totalTime(BARE) / totalTime(GATEWAY)), 'x'),
      info('process pairs alone: lowest median round ratio', fixed3(Math.min(...groupRatios)), 'x'),
      info('process pairs alone: highest median round ratio', fixed3(Math.max(...groupRatios)), 'x'),
      info('A/A check, spare bare vs bare: throughput ratio', fixed3(median(roundRatios(rates[SPARE]!, rates[BARE]!))), 'x'),
    ];

    notes.push(
      `echo: ${PAIRS} server-everything processes per side (a gateway lease per conversation, a bare client each), ${WARMUP_CALLS} warm-up calls on each; then ${SEQ_ROUNDS} rounds of ${SEQ_CALLS} sequential calls per side, interleaved call by call (each call in the next of all orders of the sides), round r on group r mod ${PAIRS}; median and p99 over all ${SEQ_ROUNDS * SEQ_CALLS} calls per side. ` +
        `Every bare client sends the gateway's request (its _meta and a progress token) to a server started as the gateway starts its own (a session of its own): the server and the OS then do the same work on both sides. The split rows show what that work is, on group 0's processes and one started as the SDK starts it, ${CHECK_ROUNDS} rounds. ` +
        `A third side, a spare bare client per group on its own process, makes the same calls in lockstep: the A/A rows (spare vs bare) are what the method cannot resolve on this machine. ` +
        `Concurrency: ${CONC_WARMUP_ROUNDS} unmeasured rounds per side and group, then ${CONC_ROUNDS} rounds of ${CONC_CALLS} calls per side, ${CONC_IN_FLIGHT} in flight, all three sides back to back on one group (groups take turns, each going through all six orders of its sides, so each side follows each other side equally often); the median of the per-round ratios`,
    );
    return [...grouped(`${SEQ_CALLS} sequential echo calls x ${SEQ_ROUNDS} rounds`, seqRows), ...grouped(`${CONC_CALLS} echo calls, ${CONC_IN_FLIGHT} in flight`, concRows)];
  } finally {
    await Promise.all([...bares, sdkStarted].map((bare) => bare.close()));
    await host.dispose();
  }
}

/** The host's own CPU per call (gatewayHostCost.ts): CPU time, which a busy machine does not stretch. */
async function hostCostFigures(notes: string[]): Promise<BenchRow[]> {
  const cost = await measureHostCost(HOST_COST_CALLS, HOST_COST_ROUNDS);
  notes.push(
    `the host's own CPU: this process's main-thread CPU time per echo call, ${HOST_COST_ROUNDS} rounds of ${HOST_COST_CALLS} sequential calls per side taking turns, through host.tools.call and from a bare client sending the same request to a server placed alike (scripts/bench/gatewayHostCost.ts; --profile there shows what it is made of)`,
  );
  return grouped("the host's own CPU per echo call (for information)", [
    info('gateway', cost.gatewayUs, 'µs'),
    info('bare SDK', cost.bareUs, 'µs'),
    info("the host's own", cost.gatewayUs - cost.bareUs, 'µs'),
  ]);
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
    // each bare run spawns its own process and does the same; a spare bare run, the same again, is the A/A check.
    const coldTimes: [number[], number[], number[]] = [[], [], []];
    const coldGateway = async (key: string) => {
      const t0 = performance.now();
      const { result } = await host.tools.call(caller(`cold-${key}`), `mcp_${key}_echo`, ECHO_ARGS);
      coldTimes[0].push(performance.now() - t0);
      check(echoText(result) === 'Echo: hi', `cold gateway echo returned ${JSON.stringify(result)}`);
      await host.tools.leases.end(`cold-${key}`);
    };
    // The gateway's request (every cold server's definition is alike but for its name), to a server started as the gateway starts it.
    const meta = { ...host.mcp.definition(`chatos::${coldKeys[0]}`)!.meta, workdir: home };
    const coldBare = (into: number[]) => async () => {
      const t0 = performance.now();
      const client = new Client({ name: 'bench-baseline', version: '0.0.0' }, { capabilities: {} });
      await client.connect(new DetachedStdioTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], env: SERVER_ENV }));
      const { tools } = await client.listTools();
      check(
        tools.some((t) => t.name === 'echo'),
        'bare cold listing has no echo',
      );
      const result = (await client.callTool({ name: 'echo', arguments: ECHO_ARGS, _meta: meta }, undefined, { onprogress: () => {} })) as CallToolResult;
      into.push(performance.now() - t0);
      check(echoText(result) === 'Echo: hi', `cold bare echo returned ${JSON.stringify(result)}`);
      await client.close();
    };
    const sideOrders = orders(3);
    for (const [i, key] of coldKeys.entries()) {
      const sides = [() => coldGateway(key), coldBare(coldTimes[1]), coldBare(coldTimes[2])];
      for (const side of sideOrders[i % sideOrders.length]!) await sides[side]!();
    }
    const [gwCold, sdkCold, spareCold] = coldTimes;
    const coldRows = [
      info('gateway median', median(gwCold), 'ms'),
      info('bare SDK median', median(sdkCold), 'ms'),
      ratioRow('cold ratio (median of per-run ratios)', median(roundRatios(gwCold, sdkCold)), COLD_RATIO_LIMIT),
      info('ratio of the medians', fixed3(median(gwCold) / median(sdkCold)), 'x'),
      info('A/A check, spare bare vs bare: median of per-run ratios', fixed3(median(roundRatios(spareCold, sdkCold))), 'x'),
    ];

    notes.push(
      `cold: ${COLD_RUNS} runs of each side (gateway, bare, spare bare), going through all six orders of the three in turn; a gateway run is the first call to a never-used mcp.yaml server (its own server id, nothing listed before), from host.tools.call to the echo result; a bare run is new Client + a stdio transport starting its server as the gateway does (a session of its own), connect, listTools, callTool with the gateway's request; spare bare vs bare is the A/A check; the figure is the median over runs of each run's gateway/bare ratio`,
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
  const stopWatching = host.watcher.watch();
  try {
    const listing = await host.tools.list(caller());
    check(
      listing.problems.every((p) => p.severity !== 'error'),
      `listing problems: ${JSON.stringify(listing.problems)}`,
    );
    check(listing.tools.filter((t) => t.rawName === 'pid').length === RELOAD_SERVERS, `all ${RELOAD_SERVERS} servers list their tools`);
    const pidsOf = () => {
      const pids = new Map<string, number | undefined>();
      for (const server of host.mcp.servers.snapshots()) {
        const running = server.leases.find((l) => l.state.kind === 'running');
        pids.set(server.serverId, running?.pid);
      }
      return pids;
    };
    const before = pidsOf();
    check([...before.values()].filter((pid) => pid !== undefined).length === RELOAD_SERVERS, `all ${RELOAD_SERVERS} servers run: ${JSON.stringify([...before])}`);

    const changedId = `chatos::${RELOAD_CHANGED}`;
    const hasCount = async () => (await host.tools.list(caller())).tools.some((t) => t.serverId === changedId && t.rawName === 'count');
    // The list is asked for again after each reload the host reports (as the UI does on its event), not in a busy
    // loop: asking for 20 servers' tools every few ms took CPU from the very server start being timed.
    let reloads = 0;
    let wake: (() => void) | undefined;
    const stopListening = host.events.on((event) => {
      if (event.kind !== 'mcp-reloaded') return;
      reloads++;
      wake?.();
    });
    const nextReload = (seen: number) =>
      new Promise<void>((resolve) => {
        if (reloads !== seen) return resolve();
        const fallback = setTimeout(resolve, 50);
        wake = () => {
          clearTimeout(fallback);
          resolve();
        };
      });
    const samples: number[] = [];
    let untouched = true;
    for (let run = 0; run < RELOAD_RUNS; run++) {
      const want = run % 2 === 0; // alternately add and remove the "count" tool
      const t0 = performance.now();
      write(want ? TOOLS_B : TOOLS_A);
      let seen = reloads;
      while ((await hasCount()) !== want) {
        check(performance.now() - t0 < RELOAD_TIMEOUT_MS, `the changed tool list did not appear within ${RELOAD_TIMEOUT_MS} ms`);
        await nextReload(seen);
        seen = reloads;
      }
      samples.push(performance.now() - t0);
      // The changed server is in use again (its replacement starts), like the others.
      const { result } = await host.tools.call(caller(), `mcp_${RELOAD_CHANGED}_pid`, {});
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
      await client.connect(new DetachedStdioTransport({ command: process.execPath, args: [FIXTURE], env: { ...SERVER_ENV, GATEWAY_TOOLS: TOOLS_B } }));
      await client.listTools();
      floor.push(performance.now() - t0);
      await client.close();
    }
    notes.push(
      `hot reload: ${RELOAD_SERVERS} fixture servers (test/fixtures/servers/gatewayServer.mjs), all listed and running; ${RELOAD_CHANGED}'s env GATEWAY_TOOLS is rewritten in mcp.yaml (adding/removing its "count" tool), ${RELOAD_RUNS} runs; ` +
        "timed from the write through host.watcher.watch()'s file watcher (default debounce) until the gateway lists the new tools" +
        ' (asked after each mcp-reloaded event, as the UI does, and every 50 ms otherwise)',
    );
    return grouped(`hot reload, ${RELOAD_SERVERS} servers, one changed (file watcher)`, [
      atMost('write → new tool list (median)', median(samples), 'ms', RELOAD_LIMIT_MS),
      info('write → new tool list (worst)', Math.max(...samples), 'ms'),
      info('floor: bare SDK spawn + initialize + list (median)', median(floor), 'ms'),
      { name: 'other 19 pids unchanged', value: untouched ? 1 : 0, unit: 'bool', target: '= 1', pass: untouched },
    ]);
    stopListening();
  } finally {
    stopWatching();
    await host.dispose();
  }
}
