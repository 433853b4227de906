import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/browser.js';
import { isAlive } from '../helpers/gatewayHost.js';
import { runCli } from '../helpers/runCli.js';
import { serveApi } from '../helpers/serveApi.js';
import { tempDir } from '../helpers/tempDir.js';

/** The built-in Notes app's server: one instance per conversation. */
const NOTES_SERVER = 'chatos.notes::chatos.notes.notes';
const LIST_NOTES = 'mcp_chatos_notes_notes_list_notes';
const KEEPER = { id: 'keeper', name: 'Keeper', uiApps: [{ pluginId: 'chatos.notes', appId: 'notes', mcp: true, prompt: false }] };

interface Lease {
  conversationId: string;
  pid?: number;
}

const serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves.splice(0)) await serve.stop();
}, 30_000);

async function served(args: string[] = []): Promise<{ serve: ServeProcess; home: string }> {
  const home = tempDir();
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
    expect(listed.tools.find((tool: { name: string }) => tool.name === 'mcp_release')).toMatchObject({ serverId: 'chatos', permission: 'write', description: expect.stringContaining('its process ends now') });

    await serveApi(serve, 'tools.call', { ...at, tool: LIST_NOTES });
    const [lease] = (await leasesOf(serve, NOTES_SERVER)).filter((l) => l.conversationId === 'c1');
    expect(lease?.pid).toBeGreaterThan(0);
    const released = await serveApi(serve, 'tools.call', { ...at, tool: 'mcp_release', args: { serverId: NOTES_SERVER } });
    expect(released.content[0].text).toContain('Released');
    expect(isAlive(lease!.pid!)).toBe(false);
    expect((await leasesOf(serve, NOTES_SERVER)).map((l) => l.conversationId)).not.toContain('c1');

    const { records } = await serveApi(serve, 'audit.list', { outcome: 'released' });
    expect(records).toEqual([expect.objectContaining({ tool: 'mcp_release', appId: 'chatos', agentId: 'keeper', flow: 'main', conversationId: 'c1', serverId: NOTES_SERVER, decision: 'auto', reason: 'mcp_release' })]);
  }, 60_000);

  it('chatos tools lists it as a real tool, and a chatos call of it is audited even when it held nothing', () => {
    const home = tempDir();
    const tools = runCli(['tools', '--app', 'chatos', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(tools.code).toBe(0);
    expect(tools.json().tools.find((tool: { name: string }) => tool.name === 'mcp_release')).toMatchObject({ serverId: 'chatos', inputSchema: { required: ['serverId'] } });
    const call = runCli(['call', 'mcp_release', '--app', 'chatos', '--args', JSON.stringify({ serverId: NOTES_SERVER }), '--home', home], { timeoutMs: 60_000 });
    expect(call.stdout).toContain('held no instance');
    const audit = runCli(['audit', '--json', '--tool', 'mcp_release', '--home', home]).json();
    expect(audit.records).toEqual([expect.objectContaining({ appId: 'chatos', serverId: NOTES_SERVER, outcome: 'ok', reason: 'mcp_release' })]);
  }, 60_000);
});
