/**
 * What the gateway itself costs per call, apart from any server's work: this
 * process's own CPU time (its main thread's, where the host runs) per echo
 * call to server-everything over stdio, through host.tools.call and from a
 * bare SDK Client that sends the same request (the gateway's `_meta` and a
 * progress token) to a server started as the gateway starts its own (a
 * session of its own). The server runs in a process of its own, so its work
 * is not counted on either side, and CPU time, unlike wall time, does not
 * stretch when the machine is busy: the difference is the host's share.
 *
 *   node dist/scripts/bench/gatewayHostCost.js [CALLS] [--profile]
 *
 * `--profile` also writes gateway-host.cpuprofile (gateway calls only) and
 * gateway-host-bare.cpuprofile (bare calls only), taken with
 * the inspector's CPU profiler, to the working folder: what the share is
 * made of.
 */
import * as fs from 'node:fs';
import * as inspector from 'node:inspector/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findAppRoot } from '../../src/core/appPaths.js';
import { createHost } from '../../src/core/host.js';
import { serverEnvironment } from '../../src/core/process/serverEnvironment.js';
import { DetachedStdioTransport } from './detachedStdioTransport.js';

const EVERYTHING = path.join(findAppRoot(), 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const ARGS = { message: 'hi' };
const WARMUP = 3_000;

export interface HostCost {
  /** This process's main-thread CPU per call through host.tools.call, µs. */
  gatewayUs: number;
  /** The same for a bare SDK Client sending the same request, µs. */
  bareUs: number;
}

function answered(result: CallToolResult): void {
  const first = result.content[0];
  if (result.isError || !first || first.type !== 'text' || first.text !== 'Echo: hi') throw new Error(`echo answered ${JSON.stringify(result)}`);
}

const threadCpuUs = () => {
  const used = process.threadCpuUsage();
  return used.user + used.system;
};

/** Main-thread CPU per call of `calls` sequential calls, µs. */
async function cpuPerCall(calls: number, call: () => Promise<void>): Promise<number> {
  const before = threadCpuUs();
  for (let i = 0; i < calls; i++) await call();
  return (threadCpuUs() - before) / calls;
}

/** `rounds` rounds of `calls` calls per side, the sides taking turns (after a warm-up of both); `profile` (a file) then profiles gateway calls alone. */
export async function measureHostCost(calls: number, rounds: number, profile?: string): Promise<HostCost> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-gateway-cost-'));
  const empty = path.join(home, 'empty');
  fs.mkdirSync(empty, { recursive: true });
  fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'chatos', 'mcp.yaml'),
    `version: 1\nservers:\n  everything:\n    transport: stdio\n    command: ${JSON.stringify(process.execPath)}\n    args: ${JSON.stringify([EVERYTHING, 'stdio'])}\n`,
  );
  const host = createHost({ home, appRoot: findAppRoot(), builtinPluginsDir: empty, defaultsDir: empty, sessionRoot: home });
  await host.start();
  const client = new Client({ name: 'bench-baseline', version: '0.0.0' }, { capabilities: {} });
  await client.connect(new DetachedStdioTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], env: serverEnvironment(process.env, undefined, {}) }));
  try {
    const caller = { appId: 'chatos', conversationId: 'cost', flow: 'main' as const };
    const name = (await host.tools.list(caller)).tools.find((t) => t.serverId === 'chatos::everything' && t.rawName === 'echo')?.name;
    if (!name) throw new Error('the gateway offers no echo');
    const meta = { ...host.mcp.definition('chatos::everything')!.meta, workdir: home };
    const gateway = async () => answered((await host.tools.call(caller, name, ARGS)).result);
    const bare = async () => answered((await client.callTool({ name: 'echo', arguments: ARGS, _meta: meta }, undefined, { onprogress: () => {} })) as CallToolResult);
    for (let i = 0; i < WARMUP; i++) {
      await gateway();
      await bare();
    }
    const sums = [0, 0];
    for (let round = 0; round < rounds; round++) {
      // Each side goes first in turn: what a round leaves behind (garbage to collect) lands on both alike.
      for (const side of round % 2 ? [0, 1] : [1, 0]) sums[side]! += await cpuPerCall(calls, side === 0 ? gateway : bare);
    }
    if (profile) {
      const session = new inspector.Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      for (const [file, side] of [
        [profile, gateway],
        [profile.replace(/\.cpuprofile$/, '-bare.cpuprofile'), bare],
      ] as const) {
        await session.post('Profiler.start');
        for (let i = 0; i < calls; i++) await side();
        const { profile: data } = await session.post('Profiler.stop');
        fs.writeFileSync(file, JSON.stringify(data));
      }
      session.disconnect();
    }
    return { gatewayUs: sums[0]! / rounds, bareUs: sums[1]! / rounds };
  } finally {
    await client.close();
    await host.dispose();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const calls = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 2_000);
  const profile = process.argv.includes('--profile') ? path.resolve('gateway-host.cpuprofile') : undefined;
  const cost = await measureHostCost(calls, 10, profile);
  console.log(
    `main-thread CPU per echo call: gateway ${cost.gatewayUs.toFixed(1)} µs, bare SDK client ${cost.bareUs.toFixed(1)} µs; the host's own ${(cost.gatewayUs - cost.bareUs).toFixed(1)} µs` +
      (profile ? `; profile: ${profile}` : ''),
  );
}
