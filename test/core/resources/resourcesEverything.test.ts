import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Host } from '../../../src/core/host.js';
import type { HostEvent } from '../../../src/core/hostEvents.js';
import { ResourceError } from '../../../src/core/resources/resourceError.js';
import { HOST_UI_APP } from '../../../src/shared/agents.js';
import { expandTemplate } from '../../../src/shared/uriTemplate.js';
import { startHttpEverything } from '../../helpers/everythingHttp.js';
import { EVERYTHING_SERVER, caller, startTestHost, writeMcpYaml } from '../../helpers/gatewayHost.js';

/**
 * MCP resources through the host's one checked path (host.tools.resources),
 * against the MCP project's reference server over real stdio: its static
 * documents, its dynamic text and blob templates (with completion of their
 * argument), subscriptions with the updates its toggle tool sends, the grant
 * rule, the size cap, and the resource items its tools return.
 */

const SERVER = 'chatos::everything';
const FEATURES_DOC = 'demo://resource/static/document/features.md';
const TEXT_TEMPLATE = 'demo://resource/dynamic/text/{resourceId}';
const BLOB_TEMPLATE = 'demo://resource/dynamic/blob/{resourceId}';

async function everythingHost(extra: Record<string, unknown> = {}): Promise<Host> {
  const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], ...extra } }));
  return host;
}

/** The first event of the host that `match` accepts. */
function nextEvent<T extends HostEvent>(host: Host, match: (event: HostEvent) => event is T): Promise<T> {
  return new Promise((resolve) => {
    const off = host.events.on((event) => {
      if (!match(event)) return;
      off();
      resolve(event);
    });
  });
}

async function refusalOf(work: Promise<unknown>): Promise<ResourceError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ResourceError)) throw new Error(`expected a ResourceError, got ${String(error)}`);
  return error;
}

describe('resources of @modelcontextprotocol/server-everything over stdio', () => {
  it('lists its documents and templates, and reads a text document with its mimeType', async () => {
    const host = await everythingHost();
    const listing = await host.tools.resources.list(caller('conv-r'), SERVER);
    expect(listing.subscribe).toBe(true);
    expect(listing.truncated).toBe(false);
    expect(listing.resources.map((r) => r.uri)).toContain(FEATURES_DOC);
    expect(listing.resources.find((r) => r.uri === FEATURES_DOC)?.mimeType).toBe('text/markdown');
    const text = listing.templates.find((t) => t.uriTemplate === TEXT_TEMPLATE);
    expect(text).toMatchObject({ name: 'Dynamic Text Resource', arguments: ['resourceId'] });

    const read = await host.tools.resources.read(caller('conv-r'), SERVER, FEATURES_DOC);
    expect(read.cut).toBeUndefined();
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ uri: FEATURES_DOC, mimeType: 'text/markdown' });
    expect((read.contents[0] as { text: string }).text).toContain('get-resource-links');
    // A read is on the record like a read tool's call, naming what it read.
    expect(host.audit.query({ tool: 'resources/read' })[0]).toMatchObject({ serverId: SERVER, conversationId: 'conv-r', decision: 'auto', outcome: 'ok', permission: 'read' });
    expect(host.audit.query({ tool: 'resources/read' })[0]!.args).toContain(FEATURES_DOC);
  });

  it('fills a template, completes its argument, and keeps a blob as base64 data with its mimeType', async () => {
    const host = await everythingHost();
    expect(await host.tools.resources.complete(caller('conv-t'), SERVER, TEXT_TEMPLATE, { name: 'resourceId', value: '7' })).toEqual(['7']);
    expect(await host.tools.resources.complete(caller('conv-t'), SERVER, TEXT_TEMPLATE, { name: 'resourceId', value: 'seven' })).toEqual([]);

    const text = expandTemplate(TEXT_TEMPLATE, { resourceId: '7' });
    if (!text.ok) throw new Error(text.reason);
    const read = await host.tools.resources.read(caller('conv-t'), SERVER, text.uri);
    expect((read.contents[0] as { text: string }).text).toMatch(/^Resource 7: This is a plaintext resource/);

    const blob = expandTemplate(BLOB_TEMPLATE, { resourceId: '3' });
    if (!blob.ok) throw new Error(blob.reason);
    const blobRead = await host.tools.resources.read(caller('conv-t'), SERVER, blob.uri);
    const item = blobRead.contents[0] as { blob: string; mimeType: string };
    expect(item.mimeType).toBe('text/plain');
    expect(Buffer.from(item.blob, 'base64').toString('utf8')).toMatch(/^Resource 3: This is a base64 blob/);
  });

  it('a subscription brings the server’s updates to the faces as events; unsubscribing is accepted', async () => {
    const host = await everythingHost();
    const uri = 'demo://resource/dynamic/text/1';
    const own = caller('conv-s');
    await host.tools.resources.subscribe(own, SERVER, uri, true);
    const update = nextEvent(host, (event): event is Extract<HostEvent, { kind: 'mcp-resource-changed' }> => event.kind === 'mcp-resource-changed' && event.change === 'updated');
    // The server sends updates of what its session subscribed to once this tool starts them.
    await host.tools.call(own, 'mcp_everything_toggle-subscriber-updates', {});
    expect(await update).toEqual({ kind: 'mcp-resource-changed', change: 'updated', serverId: SERVER, conversationId: 'conv-s', uri });
    await host.tools.resources.subscribe(own, SERVER, uri, false);
    await host.tools.call(own, 'mcp_everything_toggle-subscriber-updates', {});
  });

  it('refuses a caller whose app is not granted the server, and the audit says why', async () => {
    const host = await everythingHost();
    const outsider = caller('conv-o', { appId: 'com.example.other' });
    const refusal = await refusalOf(host.tools.resources.read(outsider, SERVER, FEATURES_DOC));
    expect(refusal.code).toBe('NOT_GRANTED');
    expect(refusal.serverId).toBe(SERVER);
    expect((await refusalOf(host.tools.resources.list(outsider, SERVER))).code).toBe('NOT_GRANTED');
    const refused = host.audit.query({ tool: 'resources/read' });
    expect(refused[0]).toMatchObject({ serverId: SERVER, appId: 'com.example.other', decision: 'refused', outcome: 'refused', reason: 'NOT_GRANTED' });
    // A granted agent's caller may read the same resource.
    host.agents.create({ id: 'reader', name: 'Reader', uiApps: [{ ...HOST_UI_APP, mcp: true, mcpServerIds: [SERVER] }] });
    const { caller: agent } = host.tools.callers.agent('reader', 'main', 'conv-a');
    expect((await host.tools.resources.read(agent, SERVER, FEATURES_DOC)).contents).toHaveLength(1);
  });

  it('refuses an unknown server and a bad uri by name', async () => {
    const host = await everythingHost();
    expect((await refusalOf(host.tools.resources.list(caller(), 'chatos::nowhere'))).code).toBe('MCP_SERVER_NOT_FOUND');
    expect((await refusalOf(host.tools.resources.read(caller(), SERVER, ''))).code).toBe('BAD_ARGUMENTS');
    expect((await refusalOf(host.tools.resources.read(caller(), SERVER, `demo://${'x'.repeat(9000)}`))).code).toBe('BAD_ARGUMENTS');
  });

  it("cuts a read's text at the server's maxResultChars and says what was left out", async () => {
    const host = await everythingHost({ maxResultChars: 1000 });
    const read = await host.tools.resources.read(caller('conv-c'), SERVER, FEATURES_DOC);
    expect((read.contents[0] as { text: string }).text).toHaveLength(1000);
    expect(read.cut).toMatchObject({ keptChars: 1000, droppedBlobs: 0 });
    expect(read.cut!.totalChars).toBeGreaterThan(5000);
  });

  it('its tools return resource links that open through the checked path, and embedded resources', async () => {
    const host = await everythingHost();
    const own = caller('conv-l');
    const links: CallToolResult = (await host.tools.call(own, 'mcp_everything_get-resource-links', { count: 2 })).result;
    const linked = links.content.filter((item) => item.type === 'resource_link');
    expect(linked).toHaveLength(2);
    const opened = await host.tools.resources.read(own, SERVER, (linked[0] as { uri: string }).uri);
    expect(opened.contents[0]!.uri).toBe((linked[0] as { uri: string }).uri);

    const reference: CallToolResult = (await host.tools.call(own, 'mcp_everything_get-resource-reference', { resourceType: 'Text', resourceId: 4 })).result;
    const embedded = reference.content.find((item) => item.type === 'resource');
    expect(embedded).toMatchObject({ type: 'resource', resource: { uri: 'demo://resource/dynamic/text/4', mimeType: 'text/plain' } });
  });
});

describe('resources over streamable HTTP', () => {
  it('lists and reads too', async () => {
    const port = await startHttpEverything();
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'streamable_http', url: `http://127.0.0.1:${port}/mcp` } }));
    expect((await host.tools.resources.list(caller('conv-h'), SERVER)).resources.map((r) => r.uri)).toContain(FEATURES_DOC);
    expect((await host.tools.resources.read(caller('conv-h'), SERVER, FEATURES_DOC)).contents[0]).toMatchObject({ mimeType: 'text/markdown' });
  });
});
