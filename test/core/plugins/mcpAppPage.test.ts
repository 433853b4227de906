import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { validatePluginFolder } from '../../../src/core/plugins/validatePlugin.js';
import { connectStdio } from '../../helpers/mcpClient.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/**
 * A plugin page that is an MCP App (docs/plugins/pages.md#a-page-that-is-an-mcp-app):
 * the manifest's `mcpApp` field, and the fixture's server read as any other
 * MCP Apps host reads it (the SDK's client over real stdio).
 */

const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'plugins', 'mcp-app-page');
/** The spec's names (SEP-1865), written out so a change of ours to them fails. */
const VIEW_URI = 'ui://tally/page.html';
const MCP_APP_MIME = 'text/html;profile=mcp-app';

/** The fixture's manifest with its one app changed, in a temp copy. */
function variant(change: (app: Record<string, unknown>) => void): string {
  const dir = tempDir('chatos-mcp-app-page-');
  fs.cpSync(FIXTURE, dir, { recursive: true });
  const file = path.join(dir, 'plugin.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { apps: Record<string, unknown>[] };
  change(manifest.apps[0]!);
  fs.writeFileSync(file, JSON.stringify(manifest));
  return dir;
}

const errorsOf = (dir: string) => validatePluginFolder(dir).problems.map((p) => ({ severity: p.severity, path: p.path, message: p.message, hint: p.hint }));

describe('plugin.json: an app whose page is an MCP App', () => {
  it('loads the fixture: a page with no module entry, shown from its own server', () => {
    const result = validatePluginFolder(FIXTURE);
    expect(result.problems).toEqual([]);
    expect(result.apps).toHaveLength(1);
    expect(result.apps[0]!.entryPath).toBeUndefined();
    expect(result.apps[0]!.manifest.mcpApp).toEqual({ resourceUri: VIEW_URI });
    expect(result.apps[0]!.mcpEntryPath).toBe(path.join(fs.realpathSync(FIXTURE), 'server.mjs'));
  });

  it('refuses a uri that is not ui://, naming the field and the fix', () => {
    const dir = variant((app) => (app.mcpApp = { resourceUri: 'https://example.com/page.html' }));
    expect(errorsOf(dir)).toEqual([{ severity: 'error', path: 'apps[0].mcpApp.resourceUri', message: 'must be a ui:// uri', hint: expect.stringContaining('"ui://my-app/page.html"') }]);
  });

  it('refuses a uri over 2,048 characters', () => {
    const dir = variant((app) => (app.mcpApp = { resourceUri: `ui://tally/${'x'.repeat(2048)}` }));
    expect(errorsOf(dir)).toEqual([expect.objectContaining({ path: 'apps[0].mcpApp.resourceUri', message: 'must be at most 2048 characters' })]);
  });

  it('refuses an MCP App page without a server of the app’s own', () => {
    const dir = variant((app) => delete app.ai);
    expect(errorsOf(dir)).toEqual([expect.objectContaining({ path: 'apps[0].mcpApp', message: expect.stringContaining("the app's own server"), hint: expect.stringContaining('"ai": { "mcp"') })]);
  });

  it('refuses an app with both pages, and one with neither page nor server', () => {
    const both = variant((app) => (app.entry = 'index.mjs'));
    fs.writeFileSync(path.join(both, 'index.mjs'), 'export function mount() {}\n');
    expect(errorsOf(both)).toEqual([expect.objectContaining({ path: 'apps[0].mcpApp', message: 'has two pages: "entry" and "mcpApp"; an app has one', hint: 'remove "entry" or "mcpApp"' })]);
    // Without a page it is a server alone (what an installed MCP bundle is); without its server too it brings nothing.
    expect(errorsOf(variant((app) => delete app.mcpApp))).toEqual([]);
    const nothing = variant((app) => {
      delete app.mcpApp;
      delete app.ai;
    });
    expect(errorsOf(nothing)).toEqual([expect.objectContaining({ path: 'apps[0].entry', message: expect.stringContaining('brings nothing') })]);
  });
});

describe('the same page in another MCP Apps host', () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('lists the ui:// view, links it from a tool, and serves it as an MCP App document', async () => {
    client = await connectStdio(process.execPath, [path.join(FIXTURE, 'server.mjs')]);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    // The tool a host shows the view under, offered to the model; the page's own tool for the app alone.
    expect(byName.get('show_tally')?._meta).toEqual({ ui: { resourceUri: VIEW_URI }, 'ui/resourceUri': VIEW_URI });
    expect(byName.get('add_one')?._meta).toEqual({ ui: { resourceUri: VIEW_URI, visibility: ['app'] } });
    const { resources } = await client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: VIEW_URI, mimeType: MCP_APP_MIME })]);
    const read = await client.readResource({ uri: VIEW_URI });
    expect(read.contents).toEqual([expect.objectContaining({ uri: VIEW_URI, mimeType: MCP_APP_MIME })]);
    const html = (read.contents[0] as { text: string }).text;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    // It speaks the contract itself: initialize, then tools/call of its own server's tool.
    expect(html).toContain("request('ui/initialize'");
    expect(html).toContain("request('tools/call', { name: 'add_one'");
    const called = await client.callTool({ name: 'add_one', arguments: { by: 2 } });
    expect(called.content).toEqual([{ type: 'text', text: 'count is 2' }]);
  });
});
