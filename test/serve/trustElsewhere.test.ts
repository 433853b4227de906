import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServe, type ServeProcess } from '../helpers/browser.js';
import { GATEWAY_SERVER, isAlive } from '../helpers/gatewayHost.js';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { serveApi } from '../helpers/serveApi.js';
import { until } from '../helpers/until.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * Issue 14: `chatos untrust` or `chatos uninstall` run beside a running
 * `chatos serve` used to leave the plugin's backend and its server instances
 * running there until someone called them. The host notices the trust
 * records change in the shared admin DB (and a rescan notices files edited
 * since trust), stops what may no longer run, audits each stop and tells the
 * UI.
 */

const PLUGIN = 'com.example.elsewhere';

/** A plugin with a backend and its own MCP server (the gateway fixture): both answer with their pid. */
function writeElsewherePlugin(root: string): string {
  return writePlugin(
    root,
    'elsewhere',
    {
      manifestVersion: 1,
      id: PLUGIN,
      name: 'Elsewhere',
      version: '1.0.0',
      backend: { entry: 'backend/index.mjs' },
      apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true } } }],
    },
    {
      'index.mjs': 'export function mount() {}\n',
      'server.mjs': `import ${JSON.stringify(GATEWAY_SERVER)};\n`,
      'backend/index.mjs': 'export const createUiAppsBackend = () => ({ methods: { pid: () => process.pid } });\n',
    },
  );
}

const serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves.splice(0)) await serve.stop();
}, 300_000);

type Event = { type: string; pluginId?: string; serverId?: string; state?: { kind: string } };

/** A running serve with the plugin's backend and one server instance started; the events the UI would get. */
async function running(home: string, extra: string[]): Promise<{ serve: ServeProcess; backendPid: number; serverPid: number; serverId: string; events: Event[] }> {
  const serve = await startServe(['--home', home, ...extra]);
  serves.push(serve);
  const events: Event[] = [];
  const url = new URL('/events', serve.origin);
  url.protocol = 'ws:';
  url.searchParams.set('token', serve.token);
  const socket = new WebSocket(url);
  socket.on('message', (data) => events.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const backend = await serveApi(serve, 'uiApps.invokeBackend', { pluginId: PLUGIN, appId: 'main', method: 'pid' });
  const called = await serveApi(serve, 'uiApps.callTool', { pluginId: PLUGIN, appId: 'main', tool: 'pid', conversationId: 'page-1' });
  const backendPid = backend.result as number;
  const serverPid = Number(called.content[0].text);
  expect(isAlive(backendPid) && isAlive(serverPid)).toBe(true);
  const servers = (await serveApi(serve, 'servers.list')).servers as { id: string; leases: { pid?: number }[] }[];
  const serverId = servers.find((s) => s.leases.some((lease) => lease.pid === serverPid))!.id;
  return { serve, backendPid, serverPid, serverId, events };
}

/** The audit's records of what the host stopped because the plugin may no longer run, read through the CLI. */
async function notRunnableStops(home: string): Promise<{ pluginId?: string; serverId: string | null; conversationId: string | null }[]> {
  const audit = await runCli(['audit', '--outcome', 'released', '--json', '--home', home]);
  expect(audit.code, audit.stderr).toBe(0);
  return (JSON.parse(audit.stdout).records as { reason?: string; pluginId?: string; serverId: string | null; conversationId: string | null }[]).filter((r) => r.reason === 'not-runnable');
}

/** The plugin's backend and server instance ended, each audited, and the servers page and open pages told. */
async function expectStopped(home: string, serve: ServeProcess, { backendPid, serverPid, serverId, events }: Awaited<ReturnType<typeof running>>): Promise<void> {
  await until('the backend and the server to end', () => (!isAlive(backendPid) && !isAlive(serverPid) ? true : undefined));
  await until('the events the UI reloads on', () =>
    events.some((e) => e.type === 'uiApp.changed' && e.pluginId === PLUGIN) && events.some((e) => e.type === 'server.state' && e.serverId === serverId && e.state?.kind === 'stopped')
      ? true
      : undefined,
  );
  const servers = (await serveApi(serve, 'servers.list')).servers as { id: string; leases: unknown[] }[];
  expect(servers.find((s) => s.id === serverId)?.leases ?? []).toEqual([]);
  const stops = await until('both stops to be audited', async () => {
    const found = await notRunnableStops(home);
    return found.length >= 2 ? found : undefined;
  });
  expect(stops).toEqual(expect.arrayContaining([expect.objectContaining({ pluginId: PLUGIN, serverId: null }), expect.objectContaining({ serverId, conversationId: 'page-1' })]));
}

describe('trust changes made by another process reach a running chatos serve', () => {
  it('chatos untrust: the backend and the server instance end, audited, and the servers page and open pages are told', async () => {
    const home = tempDir();
    const root = tempDir('chatos-elsewhere-');
    writeElsewherePlugin(root);
    expect((await runCli(['trust', PLUGIN, '--home', home, '--plugins', root])).code).toBe(0);
    const started = await running(home, ['--no-watch', '--plugins', root]);

    expect((await runCli(['untrust', PLUGIN, '--home', home, '--plugins', root])).code).toBe(0);
    await expectStopped(home, started.serve, started);
    await until('the plugins list to be told', () => (started.events.some((e) => e.type === 'plugins.changed') ? true : undefined));
    const apps = await serveApi(started.serve, 'apps.list');
    expect(apps.plugins.find((p: { id: string }) => p.id === PLUGIN)).toMatchObject({ runnable: false, trust: { state: 'untrusted' } });
  }, 300_000);

  it('chatos uninstall: the same, with no folder watcher to notice the folder going', async () => {
    const home = tempDir();
    const source = tempDir('chatos-elsewhere-src-');
    const dir = writeElsewherePlugin(source);
    expect((await runCli(['install', dir, '--home', home])).code).toBe(0);
    expect((await runCli(['trust', PLUGIN, '--home', home])).code).toBe(0);
    const started = await running(home, ['--no-watch']);

    expect((await runCli(['uninstall', PLUGIN, '--home', home])).code).toBe(0);
    await expectStopped(home, started.serve, started);
  }, 300_000);

  it("a trusted plugin's file edited by another program: the watcher's rescan ends what it ran, as changed", async () => {
    const home = tempDir();
    const root = tempDir('chatos-elsewhere-');
    const dir = writeElsewherePlugin(root);
    expect((await runCli(['trust', PLUGIN, '--home', home, '--plugins', root])).code).toBe(0);
    const started = await running(home, ['--plugins', root]);

    fs.appendFileSync(path.join(dir, 'server.mjs'), '// edited after it was trusted\n');
    await expectStopped(home, started.serve, started);
    const apps = await serveApi(started.serve, 'apps.list');
    expect(apps.plugins.find((p: { id: string }) => p.id === PLUGIN)).toMatchObject({ runnable: false, trust: { state: 'changed' } });
  }, 300_000);
});
