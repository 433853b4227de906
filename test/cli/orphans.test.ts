import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';
import { until } from '../helpers/until.js';
import { api, lineMatching, serve } from '../serve/serveProcess.js';

const spawningServer = path.join(repoRoot, 'test', 'fixtures', 'servers', 'spawningServer.mjs');

interface Spawned {
  server: number;
  inGroup: number;
  setsid: number;
}

/**
 * Start time of a live process as `ps` tells it (deliberately not the /proc
 * reader under test): with the pid it names one process. Undefined when no
 * live process has the pid (a zombie is dead, merely not yet reaped).
 */
function startTimeOf(pid: number): string | undefined {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'stat=,lstart=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return undefined; // ps exits 1 when there is no such process
  }
  const [stat, ...start] = out.split(/\s+/);
  return !stat || stat.startsWith('Z') ? undefined : start.join(' ');
}

/** Each process of `spawned` that still runs as itself (a later process with its pid does not count). */
function survivors(spawned: Spawned, started: Map<number, string>): number[] {
  return Object.values(spawned).filter((pid) => startTimeOf(pid) !== undefined && startTimeOf(pid) === started.get(pid));
}

/** A home whose mcp.yaml has the spawning server, and where it writes the pids it started. */
function spawnerHome() {
  const home = tempDir('chatos-orphans-');
  const pidsFile = path.join(home, 'spawned.json');
  fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
  fs.writeFileSync(path.join(home, 'chatos', 'mcp.yaml'), `version: 1\nservers:\n  spawner:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(spawningServer)}, ${JSON.stringify(pidsFile)}]\n`);
  return { home, pidsFile };
}

/** The pids the server wrote, with each one's start time, once all three run. */
async function spawnedBy(pidsFile: string): Promise<{ spawned: Spawned; started: Map<number, string> }> {
  const spawned = await until('the server to start its two processes', () => (fs.existsSync(pidsFile) ? (JSON.parse(fs.readFileSync(pidsFile, 'utf8')) as Spawned) : undefined));
  const started = new Map(Object.values(spawned).map((pid) => [pid, startTimeOf(pid)!]));
  return { spawned, started };
}

/** `chatos serve` on any free port, once it printed its URL (which carries the token). */
async function serving(home: string, root: string) {
  const served = serve(['--port', '0', '--no-watch', '--home', home, '--plugins', root]);
  const [, printed] = await lineMatching(served, /^ChatOS is serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m);
  const url = new URL(printed!);
  return { served, url, token: url.searchParams.get('token')! };
}

/** Ends whatever a failed test left running, by pid and start time only. */
function cleanUp(spawned: Spawned | undefined, started: Map<number, string> | undefined) {
  if (!spawned || !started) return;
  for (const pid of survivors(spawned, started)) process.kill(pid, 'SIGKILL');
}

describe.runIf(process.platform === 'linux')('no orphans (Linux)', () => {
  it('after kill -9 of the host, the next start ends the server’s grandchild in its group and the one that left it with setsid', async () => {
    const { home, pidsFile } = spawnerHome();
    // The agent selects chatos::spawner under an app that exposes it (docs/rules/names-and-exposure.md#exposure: the host refuses a selection no app exposes).
    const root = tempDir('chatos-orphans-plugins-');
    writePlugin(root, 'desk', { manifestVersion: 1, id: 'com.example.desk', name: 'Desk', version: '1.0.0', apps: [{ id: 'desk', name: 'Desk', entry: 'index.mjs', ai: { mcpServers: ['spawner'] } }] }, { 'index.mjs': 'export function mount() {}\n' });
    expect(runCli(['trust', 'com.example.desk', '--home', home, '--plugins', root]).code).toBe(0);
    let spawned: Spawned | undefined;
    let started: Map<number, string> | undefined;
    try {
      const { served, url, token } = await serving(home, root);
      // A conversation's first listing starts it, and the conversation keeps it (no tab holds it, so nothing ends it soon).
      const agent = { id: 'spawns', name: 'Spawns', uiApps: [{ pluginId: 'com.example.desk', appId: 'desk', mcp: true, mcpServerIds: ['chatos::spawner'] }] };
      const saved = await api(url, token, 'agents.save', { agent });
      expect(saved.ok, JSON.stringify(saved)).toBe(true);
      expect((await api(url, token, 'tools.list', { agentId: 'spawns', conversationId: 'c1' })).ok).toBe(true);
      ({ spawned, started } = await spawnedBy(pidsFile));
      expect(survivors(spawned, started)).toHaveLength(3);

      // The host records what it finds below each server while it runs: wait until its pid file names both.
      const runDir = path.join(home, 'chatos', 'run');
      const pidFile = path.join(runDir, `mcp-${served.child.pid}.json`);
      await until('the pid file to record both descendants', () => {
        if (!fs.existsSync(pidFile)) return undefined;
        const recorded = JSON.parse(fs.readFileSync(pidFile, 'utf8')) as { servers: { pid: number; descendants?: { pid: number; identity: string }[] }[] };
        const pids = recorded.servers.find((s) => s.pid === spawned!.server)?.descendants?.map((d) => d.pid) ?? [];
        return pids.includes(spawned!.inGroup) && pids.includes(spawned!.setsid) ? true : undefined;
      });

      served.child.kill('SIGKILL');
      await served.exited;
      // The server sees its stdin end and exits, orphaning both: its group now has no leader.
      await until('the server to exit', () => (startTimeOf(spawned!.server) === undefined ? true : undefined));
      expect(survivors(spawned, started).sort()).toEqual([spawned.inGroup, spawned.setsid].sort());

      // Any start of a host reaps what the dead one recorded.
      const next = runCli(['apps', '--home', home], { timeoutMs: 60_000 });
      expect(next.code, next.stderr).toBe(0);
      expect(survivors(spawned, started)).toEqual([]);
      expect(fs.readdirSync(runDir).filter((name) => name.startsWith(`mcp-${served.child.pid}`))).toEqual([]);
    } finally {
      cleanUp(spawned, started);
    }
  }, 150_000);

  it('after kill -9 of the host, the next start ends what a plugin backend started: a child in its group and one that left it with setsid', async () => {
    const home = tempDir('chatos-orphans-');
    const root = tempDir('chatos-orphans-plugins-');
    const pluginId = 'com.example.spawner';
    writePlugin(
      root,
      'spawner',
      { manifestVersion: 1, id: pluginId, name: 'Spawner', version: '1.0.0', backend: { entry: 'backend/index.mjs' }, apps: [{ id: 'main', name: 'Main', entry: 'index.mjs' }] },
      {
        'index.mjs': 'export function mount() {}\n',
        'backend/index.mjs': `import { spawn } from 'node:child_process';
export function createUiAppsBackend() {
  return { methods: { spawn() {
    const inGroup = spawn('sleep', ['1000'], { stdio: 'ignore' });
    const setsid = spawn('sleep', ['1000'], { stdio: 'ignore', detached: true });
    return { server: process.pid, inGroup: inGroup.pid, setsid: setsid.pid };
  } } };
}
`,
      },
    );
    expect(runCli(['trust', pluginId, '--home', home, '--plugins', root]).code).toBe(0);
    let spawned: Spawned | undefined;
    let started: Map<number, string> | undefined;
    try {
      const { served, url, token } = await serving(home, root);
      const reply = await api(url, token, 'uiApps.invokeBackend', { pluginId, appId: 'main', method: 'spawn' });
      expect(reply.ok, JSON.stringify(reply)).toBe(true);
      spawned = reply.result.result as Spawned;
      started = new Map(Object.values(spawned).map((pid) => [pid, startTimeOf(pid)!]));
      expect(survivors(spawned, started)).toHaveLength(3);

      // The backend is in the host's pid file with what runs below it, as a server is.
      const runDir = path.join(home, 'chatos', 'run');
      const pidFile = path.join(runDir, `mcp-${served.child.pid}.json`);
      await until('the pid file to record the backend and both its children', () => {
        if (!fs.existsSync(pidFile)) return undefined;
        const recorded = JSON.parse(fs.readFileSync(pidFile, 'utf8')) as { servers: { kind?: string; serverId: string; pid: number; descendants?: { pid: number }[] }[] };
        const backend = recorded.servers.find((s) => s.kind === 'backend' && s.serverId === pluginId && s.pid === spawned!.server);
        const pids = backend?.descendants?.map((d) => d.pid) ?? [];
        return pids.includes(spawned!.inGroup) && pids.includes(spawned!.setsid) ? true : undefined;
      });

      served.child.kill('SIGKILL');
      await served.exited;
      // The backend sees its channel to the host close and exits, orphaning both.
      await until('the backend to exit', () => (startTimeOf(spawned!.server) === undefined ? true : undefined));
      expect(survivors(spawned, started).sort()).toEqual([spawned.inGroup, spawned.setsid].sort());

      const next = runCli(['apps', '--home', home, '--plugins', root], { timeoutMs: 60_000 });
      expect(next.code, next.stderr).toBe(0);
      expect(survivors(spawned, started)).toEqual([]);
      expect(fs.readdirSync(runDir).filter((name) => name.startsWith(`mcp-${served.child.pid}`))).toEqual([]);
    } finally {
      cleanUp(spawned, started);
    }
  }, 150_000);

  it('a normal exit of the host ends the server’s whole tree, the setsid grandchild included', async () => {
    const { home, pidsFile } = spawnerHome();
    let spawned: Spawned | undefined;
    let started: Map<number, string> | undefined;
    try {
      // One CLI call: it starts the server, calls it, and quits.
      const call = runCli(['call', 'mcp_spawner_children', '--app', 'chatos', '--home', home], { timeoutMs: 60_000 });
      expect(call.code, call.stderr).toBe(0);
      ({ spawned, started } = await spawnedBy(pidsFile));
      expect(JSON.parse(call.stdout.slice(call.stdout.indexOf('{')))).toMatchObject({ inGroup: spawned.inGroup, setsid: spawned.setsid });
      expect(survivors(spawned, started)).toEqual([]);
      expect(fs.readdirSync(path.join(home, 'chatos', 'run'))).toEqual([]);
    } finally {
      cleanUp(spawned, started);
    }
  }, 120_000);
});
