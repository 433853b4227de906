import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { repoRoot } from '../../helpers/tempDir.js';

/**
 * The client declares the MCP Apps extension at initialize
 * (docs/rules/mcp-apps.md#the-extension), as ext-apps 2.x's servers read it
 * with getUiCapability(): a real server over stdio
 * (test/fixtures/servers/viewDataServer.mjs) that offers its view-linked
 * tools only to a client that declared it, and answers what it was told.
 */

const DATA = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'viewDataServer.mjs')] };

describe('the MCP Apps extension at initialize', () => {
  it('is declared with the view MIME type, so a server that asks offers its views', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { data: DATA }));
    const who = caller('conv-ext');
    const told = JSON.parse(textOf((await host.tools.call(who, 'mcp_data_initialize_params', {})).result)) as { capabilities: Record<string, any> };
    expect(told.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
    // What ext-apps' getUiCapability() decided: the report comes with its view, and the other view tools are offered.
    const { tools } = await host.tools.list(who);
    expect(tools.find((t) => t.name === 'mcp_data_report')?.ui).toMatchObject({ resourceUri: 'ui://data/view.html' });
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp_data_huge_report', 'mcp_data_show_big45']));
    expect(textOf((await host.tools.call(who, 'mcp_data_report', {})).result)).toBe('report: 42');
  });
});
