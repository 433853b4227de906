import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caller, isAlive, startTestHost, trustPlugin, waitUntil } from '../../helpers/gatewayHost.js';
import { TestScheduler } from '../../helpers/testScheduler.js';
import { writePlugin } from '../../helpers/plugins.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

const BACKEND = 'export const createUiAppsBackend = (ctx) => ({ methods: { where: () => ctx } });\n';

describe('host.backends', () => {
  it('runs the built-in Notes backend: stats counts what the Notes server wrote through the gateway', async () => {
    const { host } = await startTestHost(() => {}, { builtinPluginsDir: path.join(repoRoot, 'plugins') });
    const { tools } = await host.gateway.listTools(caller('t'));
    const addNote = 'mcp_chatos_notes_notes_add_note';
    expect(tools.map((t) => t.name)).toContain(addNote);
    expect(host.backends.running()).toEqual([]);
    expect(await host.backends.invoke('chatos.notes', 'stats', {})).toEqual({ ok: true, result: { count: 0, characters: 0 } });

    const added = await host.gateway.callTool({ appId: 'chatos', conversationId: 't', flow: 'main' }, addNote, { title: 'Milk', text: 'buy two' });
    expect(added.isError).toBeFalsy();
    expect(await host.backends.invoke('chatos.notes', 'stats', {})).toEqual({ ok: true, result: { count: 1, characters: 'Milk'.length + 'buy two'.length } });
    const ping = await host.backends.invoke('chatos.notes', 'ping', {});
    expect(ping.ok && ping.result).toMatchObject({ pong: true, pluginId: 'chatos.notes' });

    const [{ pid }] = host.backends.running() as [{ pid: number }];
    await host.dispose();
    expect(isAlive(pid)).toBe(false);
  });

  it('refuses a plugin with no backend, and runs a user plugin only once it is trusted, with its uiApp dirs as ctx', async () => {
    const { host, home } = await startTestHost(({ pluginRoot }) => {
      writePlugin(
        pluginRoot,
        'with-backend',
        { manifestVersion: 1, id: 'com.example.b', name: 'B', version: '1.0.0', backend: { entry: 'backend/index.mjs' }, apps: [{ id: 'main', name: 'Main', entry: 'index.mjs' }] },
        {
          'index.mjs': 'export function mount() {}\n',
          'backend/index.mjs': BACKEND,
        },
      );
      writePlugin(
        pluginRoot,
        'no-backend',
        { manifestVersion: 1, id: 'com.example.plain', name: 'Plain', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs' }] },
        {
          'index.mjs': 'export function mount() {}\n',
        },
      );
    });
    expect(await host.backends.invoke('com.example.plain', 'where', {})).toEqual({ ok: false, message: 'plugin com.example.plain declares no backend' });
    const untrusted = await host.backends.invoke('com.example.b', 'where', {});
    expect(!untrusted.ok && untrusted.message).toContain('not trusted');
    expect(!untrusted.ok && untrusted.message).toContain('chatos trust com.example.b');
    expect(host.backends.running()).toEqual([]);

    trustPlugin(host, 'com.example.b');
    const where = await host.backends.invoke('com.example.b', 'where', {});
    const uiApp = host.catalog.getAiContribution('com.example.b', 'main')!.uiApp;
    expect(where).toEqual({
      ok: true,
      result: { pluginId: 'com.example.b', pluginDir: uiApp.pluginDir, dataDir: uiApp.dataDir, stateDir: uiApp.stateDir, sessionRoot: uiApp.sessionRoot, projectRoot: uiApp.projectRoot },
    });
    expect(uiApp.dataDir).toBe(path.join(home, 'chatos', 'ui_apps', 'data', 'com.example.b'));
  });
});

describe('host.backends and the run gate at fork time (issue 13 item 1)', () => {
  it('forks nothing when trust is taken back while the replaced process is still stopping', async () => {
    const marks = tempDir('chatos-backend-marks-');
    const started = path.join(marks, 'started.log');
    const release = path.join(marks, 'release');
    // Notes each start; its dispose() waits for the test's word, so the replacement's fork waits too.
    const backend = `import * as fs from 'node:fs';
fs.appendFileSync(${JSON.stringify(started)}, process.pid + '\\n');
export const createUiAppsBackend = () => ({
  methods: { pid: () => process.pid },
  dispose: () => new Promise((resolve) => { const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(release)})) { clearInterval(t); resolve(); } }, 10); }),
});
`;
    const { host, pluginRoot } = await startTestHost(({ pluginRoot }) => {
      writePlugin(
        pluginRoot,
        'slow-stop',
        { manifestVersion: 1, id: 'com.example.slow', name: 'Slow', version: '1.0.0', backend: { entry: 'backend/index.mjs' }, apps: [{ id: 'main', name: 'Main', entry: 'index.mjs' }] },
        {
          'index.mjs': 'export function mount() {}\n',
          'backend/index.mjs': backend,
        },
      );
    });
    const startsSoFar = () => fs.readFileSync(started, 'utf8').trim().split('\n');
    trustPlugin(host, 'com.example.slow');
    const first = await host.backends.invoke('com.example.slow', 'pid', {});
    expect(first.ok).toBe(true);
    expect(startsSoFar()).toHaveLength(1);

    // New code, trusted by the user: the next call replaces the process (stopping the old one first)…
    fs.appendFileSync(path.join(pluginRoot, 'slow-stop', 'backend', 'index.mjs'), '// v2\n');
    trustPlugin(host, 'com.example.slow');
    const second = host.backends.invoke('com.example.slow', 'pid', {});
    // …and while the old one is still stopping, trust is taken back.
    host.trust.untrust('com.example.slow');
    fs.writeFileSync(release, '');
    const outcome = await second;
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.message).toContain('com.example.slow is not trusted');
    expect(startsSoFar()).toHaveLength(1);
    expect(host.backends.running()).toEqual([]);
  });
});

describe('host.backends stop when no page calls them (docs/plugins/backends.md#lifetime)', () => {
  it('a backend idle for the idle time stops, audited as idle; one with a call under way does not; the next call starts it again', async () => {
    const scheduler = new TestScheduler();
    const { host } = await startTestHost(
      ({ pluginRoot }) => {
        writePlugin(
          pluginRoot,
          'idle',
          { manifestVersion: 1, id: 'com.example.idle', name: 'Idle', version: '1.0.0', backend: { entry: 'backend/index.mjs' }, apps: [{ id: 'main', name: 'Main', entry: 'index.mjs' }] },
          {
            'index.mjs': 'export function mount() {}\n',
            'backend/index.mjs':
              'export const createUiAppsBackend = () => ({ methods: { pid: () => process.pid, hold: () => new Promise((resolve) => setTimeout(() => resolve(process.pid), 1500)) } });\n',
          },
        );
      },
      { scheduler },
    );
    trustPlugin(host, 'com.example.idle');
    const pidOf = async (method: string) => {
      const reply = await host.backends.invoke('com.example.idle', method, {});
      if (!reply.ok) throw new Error(reply.message);
      return reply.result as number;
    };

    // A call under way (a page's long poll) keeps it, however long it waits.
    const first = await pidOf('pid');
    const held = pidOf('hold');
    scheduler.advance(6 * 60_000);
    expect(await held).toBe(first);
    expect(isAlive(first)).toBe(true);

    // Then five minutes with no call: it stops, on the record.
    scheduler.advance(6 * 60_000);
    await waitUntil(() => !isAlive(first), 'the idle backend to end');
    expect(host.backends.running()).toEqual([]);
    host.audit.flush();
    expect(host.audit.query({ outcome: 'released' })).toEqual([expect.objectContaining({ pluginId: 'com.example.idle', reason: 'idle' })]);

    const second = await pidOf('pid');
    expect(second).not.toBe(first);
  });
});
