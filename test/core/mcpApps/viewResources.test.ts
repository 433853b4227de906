import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatWorld } from '../../helpers/chatWorld.js';
import { repoRoot } from '../../helpers/tempDir.js';

/**
 * A view's `resources/read` and `resources/list` (docs/rules/mcp-apps.md#what-the-view-may-ask) go
 * through the host's one resource path as the view's caller: its access to
 * the server checked now, the read audited, the text whole (a view reads
 * data, not text for a model). A real server over stdio.
 */

const DATA = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'viewDataServer.mjs')] };

describe("a view's resource reads", () => {
  it('are answered for its caller from its own server, audited, and refused to a caller without the server', async () => {
    const { host } = await startChatWorld({ servers: { data: DATA } });
    const { caller } = host.tools.callers.agent('helper', 'main', 'conv-view-read');
    const read = await host.tools.apps.readResource(caller, 'chatos::data', 'data://notes');
    expect(read.contents).toEqual([{ uri: 'data://notes', mimeType: 'text/plain', text: 'the notes of the data server' }]);
    expect(host.audit.query({ tool: 'resources/read' })[0]).toMatchObject({ serverId: 'chatos::data', agentId: 'helper', conversationId: 'conv-view-read', outcome: 'ok' });
    // Whole, where a read for the model is cut to the server's maxResultChars (64,000 by default).
    expect((await host.tools.apps.readResource(caller, 'chatos::data', 'data://long')).contents[0]).toMatchObject({ text: 'l'.repeat(100_000) });
    expect((await host.tools.resources.read(caller, 'chatos::data', 'data://long')).cut).toMatchObject({ totalChars: 100_000, keptChars: 64_000 });
    const listing = await host.tools.apps.listResources(caller, 'chatos::data');
    expect(listing.resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['data://notes', 'ui://data/view.html']));

    host.agents.create({ id: 'other', name: 'Other', description: '', modelId: 'local', systemPrompt: '', uiApps: [] });
    const other = host.tools.callers.agent('other', 'main', 'conv-view-read').caller;
    await expect(host.tools.apps.readResource(other, 'chatos::data', 'data://notes')).rejects.toMatchObject({ serverId: 'chatos::data' });
    expect(host.audit.query({ tool: 'resources/read' }).map((row) => row.outcome)).toEqual(expect.arrayContaining(['refused']));
  });
});
