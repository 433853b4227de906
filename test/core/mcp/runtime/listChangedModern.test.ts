import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { repoRoot } from '../../../helpers/tempDir.js';

/**
 * A 2026-07-28 server's list changes reach what is offered, as a 2025 server's do (listChanged.test.ts;
 * docs/rules/mcp-yaml.md#tool-list-changes): that era sends notifications/tools/list_changed only on a
 * `subscriptions/listen` stream that asked for it, so the host asks on its one stream per connection for the
 * list changes the server declares. The server is a real one built with the v2 server package
 * (listenServer.mjs), over real stdio.
 */

const LISTEN_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'listenServer.mjs');
const SERVER = 'chatos::listen';

describe('tool list changes on a 2026-07-28 server (subscriptions/listen)', { timeout: 60_000 }, () => {
  it('a tool the server adds during a call is offered on the next list, with no reload', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { listen: { transport: 'stdio', command: process.execPath, args: [LISTEN_SERVER] } }));
    const who = caller('conv-listen-tools');
    const before = (await host.tools.list(who)).tools.map((tool) => tool.name);
    expect(host.mcp.servers.list().find((server) => server.id === SERVER)?.protocol).toEqual({ era: 'modern', version: '2026-07-28' });
    expect(before).toContain('mcp_listen_add_tool');
    expect(before).not.toContain('mcp_listen_fresh');
    const version = host.mcp.version;

    expect(textOf((await host.tools.call(who, 'mcp_listen_add_tool', { name: 'fresh' })).result)).toBe('added fresh');
    // The change the call announced is read before its result is given (toolsClient.ts), so the very next list has it.
    expect((await host.tools.list(who)).tools.map((tool) => tool.name)).toContain('mcp_listen_fresh');
    expect(textOf((await host.tools.call(who, 'mcp_listen_fresh', {})).result)).toBe('I am fresh');
    expect(host.mcp.version).toBe(version);
  });

  it("a prompt the server adds is re-listed, as a 2025 server's is", async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { listen: { transport: 'stdio', command: process.execPath, args: [LISTEN_SERVER] } }));
    const who = caller('conv-listen-prompts');
    const names = async () => (await host.tools.prompts.listOf(who, SERVER)).map((prompt) => prompt.name);
    expect(await names()).toEqual(['hello']);
    expect(textOf((await host.tools.call(who, 'mcp_listen_add_prompt', { name: 'fresh' })).result)).toBe('added prompt fresh');
    // Prompts are not waited for by the call (only tools are): the re-list the notification starts lands soon after.
    await expect.poll(names, { timeout: 30_000 }).toEqual(['hello', 'fresh']);
  });

  it('a server that refuses the listen stream still works, and its log says its list changes go unheard', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { listen: { transport: 'stdio', command: process.execPath, args: [LISTEN_SERVER, '--refuse-listen'] } }));
    const who = caller('conv-listen-refused');
    expect((await host.tools.list(who)).tools.map((tool) => tool.name)).toContain('mcp_listen_add_tool');
    expect(textOf((await host.tools.call(who, 'mcp_listen_add_tool', { name: 'fresh' })).result)).toBe('added fresh');
    expect(host.mcp.servers.log(SERVER).join('\n')).toMatch(/the server refused the subscriptions\/listen stream \(.+\); its list changes are not heard/);
  });
});
