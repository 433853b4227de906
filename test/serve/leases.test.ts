import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServe, type ServeProcess } from '../helpers/browser.js';
import { isAlive, writeGatewayPlugin } from '../helpers/gatewayHost.js';
import { runCli } from '../helpers/runCli.js';
import { serveApi } from '../helpers/serveApi.js';
import { until } from '../helpers/until.js';
import { tempDir } from '../helpers/tempDir.js';

/** A plugin app's own server that keeps one instance per conversation (the built-in Notes shares one: docs/rules/mcp-yaml.md#leases). */
const NOTES_SERVER = 'com.example.keeper::com.example.keeper.keeper';
const LIST_NOTES = 'mcp_com_example_keeper_keeper_count';
const KEEPER = { id: 'keeper', name: 'Keeper', uiApps: [{ pluginId: 'com.example.keeper', appId: 'keeper', mcp: true, prompt: false }] };

/** A home with the keeper plugin in a remembered root, trusted, as a user would set it up. */
async function homeWithKeeper(): Promise<string> {
  const home = tempDir();
  const root = path.join(home, 'plugins-src');
  writeGatewayPlugin(root, 'com.example.keeper', [{ appId: 'keeper', allowMain: true }]);
  for (const args of [
    ['roots', 'add', root],
    ['trust', 'com.example.keeper'],
  ])
    expect((await runCli([...args, '--home', home], { timeoutMs: 60_000 })).code).toBe(0);
  return home;
}

interface Lease {
  conversationId: string;
  pid?: number;
}

const serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves.splice(0)) await serve.stop();
}, 300_000);

async function served(args: string[] = []): Promise<{ serve: ServeProcess; home: string }> {
  const home = await homeWithKeeper();
  const serve = await startServe(['--home', home, ...args]);
  serves.push(serve);
  return { serve, home };
}

async function leasesOf(serve: ServeProcess, serverId: string): Promise<Lease[]> {
  const { servers } = await serveApi<{ servers: { id: string; leases: Lease[] }[] }>(serve, 'servers.list');
  return servers.find((s) => s.id === serverId)?.leases ?? [];
}

describe('mcp_release, through a real chatos serve and the CLI', () => {
  it('is offered to an agent whose server keeps an instance per conversation, ends that instance, and is audited with who asked', async () => {
    const { serve } = await served();
    await serveApi(serve, 'agents.save', { agent: KEEPER });
    const at = { agentId: 'keeper', conversationId: 'c1' };
    const listed = await serveApi(serve, 'tools.list', at);
    expect(listed.tools.find((tool: { name: string }) => tool.name === 'mcp_release')).toMatchObject({
      serverId: 'chatos',
      permission: 'write',
      description: expect.stringContaining('its process ends now'),
    });

    await serveApi(serve, 'tools.call', { ...at, tool: LIST_NOTES });
    const [lease] = (await leasesOf(serve, NOTES_SERVER)).filter((l) => l.conversationId === 'c1');
    expect(lease?.pid).toBeGreaterThan(0);
    const released = await serveApi(serve, 'tools.call', { ...at, tool: 'mcp_release', args: { serverId: NOTES_SERVER } });
    expect(released.content[0].text).toContain('Released');
    expect(isAlive(lease!.pid!)).toBe(false);
    expect((await leasesOf(serve, NOTES_SERVER)).map((l) => l.conversationId)).not.toContain('c1');

    const { records } = await serveApi(serve, 'audit.list', { outcome: 'released' });
    expect(records).toEqual([
      expect.objectContaining({ tool: 'mcp_release', appId: 'chatos', agentId: 'keeper', flow: 'main', conversationId: 'c1', serverId: NOTES_SERVER, decision: 'auto', reason: 'mcp_release' }),
    ]);
  }, 300_000);

  it('chatos tools lists it as a real tool, and a chatos call of it is audited even when it held nothing', async () => {
    const home = await homeWithKeeper();
    const tools = await runCli(['tools', '--app', 'chatos', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(tools.code).toBe(0);
    expect(tools.json().tools.find((tool: { name: string }) => tool.name === 'mcp_release')).toMatchObject({ serverId: 'chatos', inputSchema: { required: ['serverId'] } });
    const call = await runCli(['call', 'mcp_release', '--app', 'chatos', '--args', JSON.stringify({ serverId: NOTES_SERVER }), '--home', home], { timeoutMs: 60_000 });
    expect(call.stdout).toContain('held no instance');
    const audit = (await runCli(['audit', '--json', '--tool', 'mcp_release', '--home', home])).json();
    expect(audit.records).toEqual([expect.objectContaining({ appId: 'chatos', serverId: NOTES_SERVER, outcome: 'ok', reason: 'mcp_release' })]);
  }, 300_000);
});

/** The tab's event socket, as the renderer opens it: `?client=` names the tab. */
async function openSocket(serve: ServeProcess, client: string): Promise<WebSocket> {
  const url = new URL('/events', serve.origin);
  url.protocol = 'ws:';
  url.searchParams.set('token', serve.token);
  url.searchParams.set('client', client);
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

function writeGrace(home: string, seconds: number): void {
  fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
  fs.writeFileSync(path.join(home, 'chatos', 'mcp.yaml'), `version: 1\nservers: {}\nleases:\n  releaseGraceSeconds: ${seconds}\n`);
}

describe('the instances of a closed page, a gone tab and the servers page, through a real chatos serve', () => {
  it("a tab's conversations are released a grace time after its socket is gone; a conversation no tab uses keeps its instance", async () => {
    const home = await homeWithKeeper();
    writeGrace(home, 1);
    const serve = await startServe(['--home', home]);
    serves.push(serve);
    const client = `tab-${randomUUID()}`;
    const socket = await openSocket(serve, client);
    const page = { pluginId: 'com.example.keeper', appId: 'keeper', tool: 'count' };
    await serveApi(serve, 'uiApps.callTool', { ...page, conversationId: 'page-1' }, { 'x-chatos-client': client });
    await serveApi(serve, 'uiApps.callTool', { ...page, conversationId: 'untied' });
    const pidOf = async (conversationId: string) => (await leasesOf(serve, NOTES_SERVER)).find((l) => l.conversationId === conversationId)?.pid;
    const tabPid = await pidOf('page-1');
    expect(tabPid).toBeGreaterThan(0);

    socket.close();
    await until('the closed tab’s Notes server to end', () => (isAlive(tabPid!) ? undefined : true));
    expect((await leasesOf(serve, NOTES_SERVER)).map((l) => l.conversationId)).toEqual(['untied']);
    const { records } = await serveApi(serve, 'audit.list', { outcome: 'released' });
    expect(records).toEqual([expect.objectContaining({ conversationId: 'page-1', serverId: NOTES_SERVER, reason: 'holder-gone', appId: 'chatos', tool: null })]);
  }, 300_000);

  it('the servers page and the agent editor hold no instance once their listing or restart is done', async () => {
    const { serve } = await served();
    const listed = await serveApi(serve, 'servers.tools', { serverId: NOTES_SERVER });
    expect(listed.tools.map((t: { rawName: string }) => t.rawName)).toContain('count');
    expect(await leasesOf(serve, NOTES_SERVER)).toEqual([]);
    await serveApi(serve, 'servers.restart', { serverId: NOTES_SERVER });
    expect(await leasesOf(serve, NOTES_SERVER)).toEqual([]);
    const memory = 'aide::memory';
    const preview = await serveApi(serve, 'agents.preview', { agent: { name: 'M', uiApps: [{ pluginId: 'chatos.workbench', appId: 'panel', mcp: true, mcpServerIds: [memory] }] } });
    expect(preview.main.map((t: { serverId: string }) => t.serverId)).toContain(memory);
    expect(await leasesOf(serve, memory)).toEqual([]);
  }, 300_000);
});

describe('the built-in servers that keep no state of a conversation, through a real chatos serve', () => {
  it('Notes runs one instance for every conversation and no agent is asked to release it; Canvas keeps one per conversation', async () => {
    const { serve } = await served();
    // Canvas stays per conversation: its page hears of an agent's patches through the instance of that conversation (test/ui/canvas.browser.test.ts).
    const shared = {
      id: 'shared',
      name: 'Shared',
      uiApps: [
        { pluginId: 'chatos.notes', appId: 'notes', mcp: true },
        { pluginId: 'chatos.canvas', appId: 'canvas', mcp: true },
      ],
    };
    await serveApi(serve, 'agents.save', { agent: shared });
    for (const conversationId of ['c1', 'c2', 'c3']) {
      await serveApi(serve, 'tools.call', { agentId: 'shared', conversationId, tool: 'mcp_chatos_notes_notes_list_notes' });
      await serveApi(serve, 'tools.call', { agentId: 'shared', conversationId, tool: 'mcp_chatos_canvas_canvas_list_instances' });
    }
    const notes = await leasesOf(serve, 'chatos.notes::chatos.notes.notes');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.pid).toBeGreaterThan(0);
    expect(await leasesOf(serve, 'chatos.canvas::chatos.canvas.canvas')).toHaveLength(3);
    const listed = await serveApi(serve, 'tools.list', { agentId: 'shared', conversationId: 'c1' });
    // mcp_release is offered for Canvas's instance, never for Notes.
    expect(listed.tools.map((tool: { name: string }) => tool.name)).toContain('mcp_release');
  }, 300_000);
});
