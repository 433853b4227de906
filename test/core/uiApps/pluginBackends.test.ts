import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PluginBackends, type BackendContext, type BackendResolution } from '../../../src/core/uiApps/pluginBackends.js';
import { isAlive, waitUntil } from '../../helpers/gatewayHost.js';
import { tempDir } from '../../helpers/tempDir.js';
import { RUN_ALLOWED, type RunGateAnswer } from '../../../src/core/policy/runGate.js';
import { isRunning } from '../process/processHelpers.js';

// The backends run the compiled runner from dist/ (npm test builds it first).

interface TestPlugin {
  pluginId: string;
  entry: string;
  ctx: BackendContext;
}

/** A plugin folder holding only `backend/index.mjs` with `code`, and a data home for its dirs. */
function writeBackend(pluginId: string, code: string): TestPlugin {
  const pluginDir = tempDir('chatos-backend-plugin-');
  const home = tempDir('chatos-backend-home-');
  const entry = path.join(pluginDir, 'backend', 'index.mjs');
  fs.mkdirSync(path.dirname(entry), { recursive: true });
  fs.writeFileSync(entry, code);
  const ctx: BackendContext = {
    pluginId,
    pluginDir,
    dataDir: path.join(home, 'ui_apps', 'data', pluginId),
    stateDir: path.join(home, 'ui_apps', 'state', pluginId),
    sessionRoot: tempDir('chatos-backend-session-'),
    projectRoot: tempDir('chatos-backend-project-'),
  };
  return { pluginId, entry, ctx };
}

const backends: PluginBackends[] = [];

afterEach(async () => {
  for (const b of backends.splice(0)) await b.dispose();
});

/** PluginBackends over the given plugins; any other id is refused as `resolve` would refuse an untrusted plugin. */
function backendsFor(plugins: TestPlugin[], options: { log?: string[]; invokeTimeoutMs?: number; refuse?: Set<string> } = {}): PluginBackends {
  const resolve = (pluginId: string): BackendResolution => {
    const plugin = plugins.find((p) => p.pluginId === pluginId);
    if (!plugin || options.refuse?.has(pluginId)) return { ok: false, message: `plugin ${pluginId} is not trusted` };
    return { ok: true, entry: plugin.entry, ctx: plugin.ctx };
  };
  // The gate at fork time answers as `resolve` does at call time.
  const gate = (pluginId: string): RunGateAnswer => {
    const resolved = resolve(pluginId);
    return resolved.ok ? RUN_ALLOWED : { ok: false, code: 'PLUGIN_UNTRUSTED', message: resolved.message, fix: `chatos trust ${pluginId}` };
  };
  const made = new PluginBackends({ resolve, gate, logger: { warn: (line) => options.log?.push(line) }, invokeTimeoutMs: options.invokeTimeoutMs ?? 20_000 });
  backends.push(made);
  return made;
}

const ECHO = `
export function createUiAppsBackend(ctx) {
  return {
    methods: {
      async echo(params, callCtx) { return { params, ctx, same: callCtx === ctx }; },
      pid() { return process.pid; },
      env() { return Object.keys(process.env); },
      fail() { throw new Error('no such note: 42'); },
      bigint() { return 10n; },
      fn() { return () => 1; },
      crash() { process.stderr.write('about to go down\\n'); process.exit(3); },
      slow() { return new Promise((resolve) => setTimeout(() => resolve('late'), 60_000)); },
      later() { setTimeout(() => { throw new Error('late boom'); }, 10); return 'scheduled'; },
      unhandled() { Promise.reject(new Error('lost promise')); return 'ok'; },
    },
  };
}
`;

describe('PluginBackends', () => {
  it('answers a call with the result, passes the ctx and creates the data and state folders', async () => {
    const plugin = writeBackend('com.example.echo', ECHO);
    const b = backendsFor([plugin]);
    const outcome = await b.invoke(plugin.pluginId, 'echo', { title: 'Milk' });
    expect(outcome).toEqual({ ok: true, result: { params: { title: 'Milk' }, ctx: plugin.ctx, same: true } });
    expect(fs.statSync(plugin.ctx.dataDir).isDirectory()).toBe(true);
    expect(fs.statSync(plugin.ctx.stateDir).isDirectory()).toBe(true);
    const [running] = b.running();
    expect(running?.pluginId).toBe(plugin.pluginId);
    expect(await b.invoke(plugin.pluginId, 'pid', undefined)).toEqual({ ok: true, result: running!.pid });
  });

  it('answers ok:false for an unknown method (listing the known ones), a thrown error and a result JSON cannot carry', async () => {
    const plugin = writeBackend('com.example.echo', ECHO);
    const b = backendsFor([plugin]);
    const unknown = await b.invoke(plugin.pluginId, 'toString', {});
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknown.message).toMatch(/unknown method "toString".*echo, pid, env, fail/);
    expect(await b.invoke(plugin.pluginId, 'fail', {})).toEqual({ ok: false, message: 'no such note: 42' });
    const big = await b.invoke(plugin.pluginId, 'bigint', {});
    expect(!big.ok && big.message).toContain('not JSON-serializable');
    const fn = await b.invoke(plugin.pluginId, 'fn', {});
    expect(!fn.ok && fn.message).toContain('not JSON-serializable');
    // Params the channel cannot carry fail the call, not the host.
    const badParams = await b.invoke(plugin.pluginId, 'echo', { n: 1n });
    expect(badParams.ok).toBe(false);
    // The process survived all of it.
    expect((await b.invoke(plugin.pluginId, 'echo', 1)).ok).toBe(true);
  });

  it('says what the entry must export, and leaves no process behind', async () => {
    const plugin = writeBackend('com.example.noexport', 'export function createBackend() { return { methods: {} }; }\n');
    const b = backendsFor([plugin]);
    const outcome = await b.invoke(plugin.pluginId, 'stats', {});
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.message).toContain('backend/index.mjs must export createUiAppsBackend(ctx)');
    expect(!outcome.ok && outcome.message).toContain('com.example.noexport');
    expect(b.running()).toEqual([]);
  });

  it('reports a syntax error in the entry as a failed start', async () => {
    const plugin = writeBackend('com.example.broken', 'export function createUiAppsBackend( {\n');
    const outcome = await backendsFor([plugin]).invoke(plugin.pluginId, 'stats', {});
    expect(!outcome.ok && outcome.message).toContain('the backend of plugin com.example.broken failed to start: ');
  });

  it('starts nothing for a plugin resolve refuses (not trusted), and stops a running one that lost its trust', async () => {
    const plugin = writeBackend('com.example.echo', ECHO);
    const refuse = new Set([plugin.pluginId]);
    const b = backendsFor([plugin], { refuse });
    expect(await b.invoke(plugin.pluginId, 'echo', {})).toEqual({ ok: false, message: `plugin ${plugin.pluginId} is not trusted` });
    expect(b.running()).toEqual([]);
    expect(fs.existsSync(plugin.ctx.dataDir)).toBe(false);

    refuse.clear();
    expect((await b.invoke(plugin.pluginId, 'echo', {})).ok).toBe(true);
    const [{ pid }] = b.running() as [{ pid: number }];
    refuse.add(plugin.pluginId);
    expect((await b.invoke(plugin.pluginId, 'echo', {})).ok).toBe(false);
    expect(b.running()).toEqual([]);
    expect(isAlive(pid)).toBe(false);
  });

  it('restarts the process when a file under the entry folder changed, so the new code answers', async () => {
    const version = (n: number) => `import { n } from './version.mjs';\nexport const createUiAppsBackend = () => ({ methods: { version: () => ({ n, entry: ${n} }) } });\n`;
    const plugin = writeBackend('com.example.edit', version(1));
    fs.writeFileSync(path.join(path.dirname(plugin.entry), 'version.mjs'), 'export const n = 1;\n');
    const b = backendsFor([plugin]);
    expect(await b.invoke(plugin.pluginId, 'version', {})).toEqual({ ok: true, result: { n: 1, entry: 1 } });
    const first = b.running()[0]!.pid;

    fs.writeFileSync(plugin.entry, version(2));
    expect(await b.invoke(plugin.pluginId, 'version', {})).toEqual({ ok: true, result: { n: 1, entry: 2 } });
    const second = b.running()[0]!.pid;
    expect(second).not.toBe(first);
    expect(isAlive(first)).toBe(false);

    // A neighbour the entry imports counts too.
    fs.writeFileSync(path.join(path.dirname(plugin.entry), 'version.mjs'), 'export const n = 22;\n');
    expect(await b.invoke(plugin.pluginId, 'version', {})).toEqual({ ok: true, result: { n: 22, entry: 2 } });
    // Unchanged files: the same process answers.
    const third = b.running()[0]!.pid;
    await b.invoke(plugin.pluginId, 'version', {});
    expect(b.running()[0]!.pid).toBe(third);
  });

  it('fails the calls in flight at once when the process dies, naming the plugin and its stderr; the next call starts it again', async () => {
    const plugin = writeBackend('com.example.crash', ECHO);
    const b = backendsFor([plugin], { invokeTimeoutMs: 20_000 });
    const slow = b.invoke(plugin.pluginId, 'slow', {});
    await waitUntil(() => b.running().length === 1, 'the backend to start');
    const [crashed, inFlight] = await Promise.all([b.invoke(plugin.pluginId, 'crash', {}), slow]);
    // At once, not at the 20 s invoke timeout: that outcome would say it timed out, not how the process exited.
    for (const outcome of [crashed, inFlight]) {
      expect(outcome.ok).toBe(false);
      expect(!outcome.ok && outcome.message).toContain('com.example.crash');
      expect(!outcome.ok && outcome.message).toContain('exited with code 3');
      expect(!outcome.ok && outcome.message).toContain('about to go down');
    }
    expect(b.running()).toEqual([]);
    expect((await b.invoke(plugin.pluginId, 'echo', 'again')).ok).toBe(true);
  });

  it('logs an unhandled rejection and goes on; logs an uncaught exception and starts afresh on the next call', async () => {
    const plugin = writeBackend('com.example.uncaught', ECHO);
    const log: string[] = [];
    const b = backendsFor([plugin], { log });
    expect(await b.invoke(plugin.pluginId, 'unhandled', {})).toEqual({ ok: true, result: 'ok' });
    await waitUntil(() => log.some((line) => line.includes('unhandled promise rejection: Error: lost promise') && line.includes('com.example.uncaught')), 'the rejection in the log');
    expect(b.running()).toHaveLength(1);

    expect(await b.invoke(plugin.pluginId, 'later', {})).toEqual({ ok: true, result: 'scheduled' });
    await waitUntil(() => log.some((line) => line.includes('late boom') && line.includes('com.example.uncaught')), 'the uncaught error in the log');
    await waitUntil(() => b.running().length === 0, 'the backend to exit after an uncaught exception');
    expect((await b.invoke(plugin.pluginId, 'echo', {})).ok).toBe(true);
  });

  it('shares one start between concurrent first calls', async () => {
    const code = `import * as fs from 'node:fs';\nimport * as path from 'node:path';\nexport function createUiAppsBackend(ctx) {\n  fs.appendFileSync(path.join(ctx.dataDir, 'starts.log'), 'start\\n');\n  return { methods: { pid: () => process.pid } };\n}\n`;
    const plugin = writeBackend('com.example.shared', code);
    const b = backendsFor([plugin]);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => b.invoke(plugin.pluginId, 'pid', {})));
    expect(new Set(outcomes.map((o) => (o.ok ? o.result : o.message))).size).toBe(1);
    expect(fs.readFileSync(path.join(plugin.ctx.dataDir, 'starts.log'), 'utf8')).toBe('start\n');
  });

  it('gives the process a minimal environment: no host secrets, no NODE_OPTIONS', async () => {
    const plugin = writeBackend('com.example.env', ECHO);
    process.env.CHATOS_TEST_BACKEND_SECRET = 'sk-do-not-leak';
    try {
      const outcome = await backendsFor([plugin]).invoke(plugin.pluginId, 'env', {});
      const keys = outcome.ok ? (outcome.result as string[]) : [];
      expect(keys).toContain('PATH');
      expect(keys).not.toContain('CHATOS_TEST_BACKEND_SECRET');
      expect(keys).not.toContain('NODE_OPTIONS');
    } finally {
      delete process.env.CHATOS_TEST_BACKEND_SECRET;
    }
  });

  it("dispose() runs the backends' dispose and ends every process, even one whose dispose hangs", async () => {
    const polite = writeBackend(
      'com.example.polite',
      `import * as fs from 'node:fs';\nimport * as path from 'node:path';\nexport function createUiAppsBackend(ctx) {\n  return { methods: { ok: () => true }, dispose: () => fs.writeFileSync(path.join(ctx.dataDir, 'disposed'), 'yes') };\n}\n`,
    );
    // A dispose() that blocks the event loop: the runner's own 2 s bound cannot fire, SIGTERM's handler cannot run; only SIGKILL ends it.
    const stubborn = writeBackend(
      'com.example.stubborn',
      `export const createUiAppsBackend = () => ({ methods: { ok: () => true }, dispose: () => { for (;;) {} } });\nprocess.on('SIGTERM', () => {});\n`,
    );
    const b = backendsFor([polite, stubborn]);
    expect((await b.invoke(polite.pluginId, 'ok', {})).ok).toBe(true);
    expect((await b.invoke(stubborn.pluginId, 'ok', {})).ok).toBe(true);
    const pids = b.running().map((r) => r.pid);
    expect(pids).toHaveLength(2);
    await b.dispose();
    expect(b.running()).toEqual([]);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(fs.readFileSync(path.join(polite.ctx.dataDir, 'disposed'), 'utf8')).toBe('yes');
    expect((await b.invoke(polite.pluginId, 'ok', {})).ok).toBe(false);
  });

  it("stop() ends one plugin's process; the next call starts a new one", async () => {
    const plugin = writeBackend('com.example.echo', ECHO);
    const b = backendsFor([plugin]);
    expect((await b.invoke(plugin.pluginId, 'pid', {})).ok).toBe(true);
    const pid = b.running()[0]!.pid;
    await b.stop(plugin.pluginId);
    expect(isAlive(pid)).toBe(false);
    expect(b.running()).toEqual([]);
    const again = await b.invoke(plugin.pluginId, 'pid', {});
    expect(again.ok && again.result).not.toBe(pid);
  });

  it.runIf(process.platform === 'linux')('stop() ends what the backend started too, a process that left its group with setsid included', async () => {
    const code = `import { spawn } from 'node:child_process';
export function createUiAppsBackend() {
  return { methods: { spawn() {
    const inGroup = spawn('sleep', ['1000'], { stdio: 'ignore' });
    const setsid = spawn('sleep', ['1000'], { stdio: 'ignore', detached: true });
    return { inGroup: inGroup.pid, setsid: setsid.pid };
  } } };
}
`;
    const plugin = writeBackend('com.example.spawner', code);
    const b = backendsFor([plugin]);
    const spawned = await b.invoke(plugin.pluginId, 'spawn', {});
    if (!spawned.ok) throw new Error(spawned.message);
    const { inGroup, setsid } = spawned.result as { inGroup: number; setsid: number };
    try {
      expect([isRunning(inGroup), isRunning(setsid)]).toEqual([true, true]);
      await b.stop(plugin.pluginId);
      // isRunning leaves zombies out: a killed orphan waits for init to reap it.
      expect([isRunning(inGroup), isRunning(setsid)]).toEqual([false, false]);
    } finally {
      for (const pid of [inGroup, setsid]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
