import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { INSTANCES_FILE, readHistory } from '../../../plugins/canvas/mcp/historyFile.mjs';
import { ListInstancesResultSchema, PatchResultSchema } from '../../../plugins/canvas/mcp/uiSchema.mjs';
import { tempDir } from '../../helpers/tempDir.js';
import { SERVER, startHttp, stopHttpServers } from './standaloneServer.js';

/**
 * The canvas server answers a 2026-07-28 client (docs/plugins/mcp-server.md#both-protocol-eras), over stdio as
 * ChatOS runs it and over streamable HTTP as another host (Claude) reaches it: `server/discover` instead of
 * `initialize`, no session, `_meta` on every request; its codes, its data folder rules and its history's
 * caller as over 2025 (standalone.test.ts and mcpApp.test.ts keep the 2025 client's side).
 */

const clients: ModernClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  stopHttpServers();
});

async function modernClient(transport: Transport): Promise<ModernClient> {
  const client = new ModernClient({ name: 'era-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  clients.push(client);
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return client;
}

/** A patch, a refused patch with its canvas code, the list; the instance on disk and the caller in its history. */
async function exercise(client: ModernClient, dataDir: string, meta?: Record<string, unknown>): Promise<void> {
  const _meta = meta ? { _meta: meta } : {};
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['patch_ui_state', 'get_schema', 'list_instances']);
  const patched = await client.callTool({ name: 'patch_ui_state', arguments: { instance_id: 'demo', patches: [{ op: 'set', path: 'state.params.count', value: 42 }] }, ..._meta });
  expect(PatchResultSchema.parse(patched.structuredContent)).toMatchObject({ status: 'success', instance_id: 'demo', revision: 2 });
  const refused = await client.callTool({ name: 'patch_ui_state', arguments: { instance_id: 'demo', patches: [{ op: 'add', path: 'blocks', value: [] }] }, ..._meta });
  expect(refused.structuredContent).toMatchObject({ status: 'error', error: { code: 'INVALID_OP', patch_index: 0, path: 'blocks' } });
  const listed = await client.callTool({ name: 'list_instances', arguments: {}, ..._meta });
  expect(ListInstancesResultSchema.parse(listed.structuredContent)).toMatchObject({ total: 1, instances: [{ instance_id: 'demo', revision: 2 }] });
  expect(JSON.parse(fs.readFileSync(path.join(dataDir, INSTANCES_FILE), 'utf8')).instances[0].schema.state.params.count).toBe(42);
  // The client named in each request's _meta (there is no initialize to name it) is who the history says called.
  expect(readHistory(dataDir)[1]!.caller).toEqual({ kind: 'client', name: 'era-test' });
}

describe('the canvas server, from a 2026-07-28 client', { timeout: 60_000 }, () => {
  it('over stdio: stateless, in the data folder the request names', async () => {
    const dataDir = tempDir();
    const client = await modernClient(new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd: tempDir(), stderr: 'ignore' }));
    await exercise(client, dataDir, { workdir: dataDir });
  });

  it('over streamable HTTP: no session, only the folder it was started with', async () => {
    const dataDir = tempDir();
    const url = await startHttp({ CANVAS_DATA_DIR: dataDir });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = await modernClient(transport);
    // A folder a caller names is never written over HTTP, whatever the era (any local process may call it).
    const elsewhere = tempDir();
    await exercise(client, dataDir, { workdir: elsewhere });
    expect(fs.existsSync(path.join(elsewhere, INSTANCES_FILE))).toBe(false);
    expect(transport.sessionId).toBeUndefined();
  });
});
