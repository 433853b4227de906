import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePlugin } from '../helpers/plugins.js';
import { startTimeOf } from '../helpers/processStart.js';
import { runCli, runCliProcess } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';
import { until } from '../helpers/until.js';
import { api, lineMatching, serve } from '../serve/serveProcess.js';

const spawningServer = path.join(repoRoot, 'test', 'fixtures', 'servers', 'spawningServer.mjs');
const doubleForkServer = path.join(repoRoot, 'test', 'fixtures', 'servers', 'doubleForkServer.mjs');

interface Spawned {
  server: number;
  inGroup: number;
  setsid: number;
}

/** Each process of `spawned` that still runs as itself (a later process with its pid does not count). */
function survivors(spawned: Spawned, started: Map<number, string>): number[] {
  return Object.values(spawned).filter((pid) => startTimeOf(pid) !== undefined && startTimeOf(pid) === started.get(pid));
}

/** A home whose mcp.yaml has the server `name` (a fixture script), and where it writes the pids it started. */
function serverHome(name: string, script: string) {
  const home = tempDir('chatos-orphans-');
  const pidsFile = path.join(home, 'spawned.json');
  fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'chatos', 'mcp.yaml'),
    `version: 1\nservers:\n  ${name}:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(script)}, ${JSON.stringify(pidsFile)}]\n`,
  );
  return { home, pidsFile };
}

const spawnerHome = () => serverHome('spawner', spawningServer);

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

/**
 * `chatos serve` with the mcp.yaml server `name` started for conversation c1
 * of an agent (a conversation keeps its instance: no tab holds it, so nothing
 * ends it soon). The agent selects it under an app that exposes it
 * (docs/rules/names-and-exposure.md#exposure: the host refuses a selection no app exposes).
 */
async function servingWith(home: string, name: string) {
  const root = tempDir('chatos-orphans-plugins-');
  writePlugin(
    root,
    'desk',
    { manifestVersion: 1, id: 'com.example.desk', name: 'Desk', version: '1.0.0', apps: [{ id: 'desk', name: 'Desk', entry: 'index.mjs', ai: { mcpServers: [name] } }] },
    { 'index.mjs': 'export function mount() {}\n' },
  );
  expect((await runCli(['trust', 'com.example.desk', '--home', home, '--plugins', root])).code).toBe(0);
  const served = await serving(home, root);
  const { url, token } = served;
  const agent = { id: 'spawns', name: 'Spawns', uiApps: [{ pluginId: 'com.example.desk', appId: 'desk', mcp: true, mcpServerIds: [`chatos::${name}`] }] };
  const saved = await api(url, token, 'agents.save', { agent });
  expect(saved.ok, JSON.stringify(saved)).toBe(true);
  expect((await api(url, token, 'tools.list', { agentId: 'spawns', conversationId: 'c1' })).ok).toBe(true);
  return served;
}

/** The records of `chatos serve`'s pid file (`<home>/chatos/run/mcp-<pid>.json`), once it exists. */
function pidRecords(home: string, hostPid: number): { pid: number; marker?: string; descendants?: { pid: number; identity: string }[] }[] | undefined {
  const pidFile = path.join(home, 'chatos', 'run', `mcp-${hostPid}.json`);
  return fs.existsSync(pidFile) ? JSON.parse(fs.readFileSync(pidFile, 'utf8')).servers : undefined;
}

/** Ends whatever a failed test left running, by pid and start time only. */
function cleanUp(spawned: Spawned | undefined, started: Map<number, string> | undefined) {
  if (!spawned || !started) return;
  for (const pid of survivors(spawned, started)) process.kill(pid, 'SIGKILL');
}

describe.runIf(process.platform === 'linux')('no orphans (Linux)', () => {
  it('after kill -9 of the host, the next start ends the server’s grandchild in its group and the one that left it with setsid', async () => {
    const { home, pidsFile } = spawnerHome();
    let spawned: Spawned | undefined;
    let started: Map<number, string> | undefined;
    try {
      const { served } = await servingWith(home, 'spawner');
      ({ spawned, started } = await spawnedBy(pidsFile));
      expect(survivors(spawned, started)).toHaveLength(3);

      // The host records what it finds below each server while it runs: wait until its pid file names both.
      const runDir = path.join(home, 'chatos', 'run');
      await until('the pid file to record both descendants', () => {
        const pids =
          pidRecords(home, served.child.pid!)
            ?.find((s) => s.pid === spawned!.server)
            ?.descendants?.map((d) => d.pid) ?? [];
        return pids.includes(spawned!.inGroup) && pids.includes(spawned!.setsid) ? true : undefined;
      });

      served.child.kill('SIGKILL');
      await served.exited;
      // The server sees its stdin end and exits, orphaning both: its group now has no leader.
      await until('the server to exit', () => (startTimeOf(spawned!.server) === undefined ? true : undefined));
      expect(survivors(spawned, started).sort()).toEqual([spawned.inGroup, spawned.setsid].sort());

      // Any start of a host reaps what the dead one recorded.
      const next = await runCli(['apps', '--home', home], { timeoutMs: 60_000 });
      expect(next.code, next.stderr).toBe(0);
      expect(survivors(spawned, started)).toEqual([]);
      expect(fs.readdirSync(runDir).filter((name) => name.startsWith(`mcp-${served.child.pid}`))).toEqual([]);
    } finally {
      cleanUp(spawned, started);
    }
  }, 300_000);

  it('after kill -9 of the host, the next start ends a daemon that double-forked away from the server: it carries the tree marker the pid file names', async () => {
    const { home, pidsFile } = serverHome('fork', doubleForkServer);
    let daemon: { pid: number; started: string } | undefined;
    try {
      const { served } = await servingWith(home, 'fork');
      const forked = await until('the server to leave its daemon', () => (fs.existsSync(pidsFile) ? (JSON.parse(fs.readFileSync(pidsFile, 'utf8')) as { server: number; daemon: number }) : undefined));
      daemon = { pid: forked.daemon, started: startTimeOf(forked.daemon)! };
      expect(daemon.started).toBeDefined();
      // It was started after its parent left the server's tree: no look at /proc saw it below the server, only its marker ties it to the tree.
      const record = await until('the pid file to record the server', () => pidRecords(home, served.child.pid!)?.find((s) => s.pid === forked.server));
      expect(record.marker).toMatch(/^[0-9a-f-]{36}$/);
      expect(record.descendants?.map((d) => d.pid) ?? []).not.toContain(forked.daemon);

      served.child.kill('SIGKILL');
      await served.exited;
      await until('the server to exit', () => (startTimeOf(forked.server) === undefined ? true : undefined));
      expect(startTimeOf(daemon.pid)).toBe(daemon.started);

      const next = await runCli(['apps', '--home', home], { timeoutMs: 60_000 });
      expect(next.code, next.stderr).toBe(0);
      expect(startTimeOf(daemon.pid)).toBeUndefined();
    } finally {
      if (daemon && startTimeOf(daemon.pid) === daemon.started) process.kill(daemon.pid, 'SIGKILL');
    }
  }, 300_000);

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
    expect((await runCli(['trust', pluginId, '--home', home, '--plugins', root])).code).toBe(0);
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

      const next = await runCli(['apps', '--home', home, '--plugins', root], { timeoutMs: 60_000 });
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
      // One CLI call in a process of its own (its exit is the subject): it starts the server, calls it, and quits.
      const call = runCliProcess(['call', 'mcp_spawner_children', '--app', 'chatos', '--home', home], { timeoutMs: 60_000 });
      expect(call.code, call.stderr).toBe(0);
      ({ spawned, started } = await spawnedBy(pidsFile));
      expect(JSON.parse(call.stdout.slice(call.stdout.indexOf('{')))).toMatchObject({ inGroup: spawned.inGroup, setsid: spawned.setsid });
      expect(survivors(spawned, started)).toEqual([]);
      expect(fs.readdirSync(path.join(home, 'chatos', 'run'))).toEqual([]);
    } finally {
      cleanUp(spawned, started);
    }
  }, 300_000);
});
