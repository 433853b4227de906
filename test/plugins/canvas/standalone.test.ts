import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { INSTANCES_FILE, readHistory } from '../../../plugins/canvas/mcp/historyFile.mjs';
import { ListInstancesResultSchema, PatchResultSchema } from '../../../plugins/canvas/mcp/uiSchema.mjs';
import { tempDir } from '../../helpers/tempDir.js';
import { SERVER, startHttp, stopHttpServers } from './standaloneServer.js';

const TOOL_NAMES = ['patch_ui_state', 'get_schema', 'list_instances'];
const seedUpdate = { instance_id: 'demo', patches: [{ op: 'set', path: 'state.params.count', value: 42 }] };

const children: ChildProcess[] = [];
afterEach(() => {
  stopHttpServers();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function exercise(client: Client, dataDir: string): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
  expect(tools.every((t) => t.outputSchema?.type === 'object')).toBe(true);
  const patched = await client.callTool({ name: 'patch_ui_state', arguments: seedUpdate });
  expect(patched.isError).toBeFalsy();
  expect(PatchResultSchema.parse(patched.structuredContent)).toMatchObject({ status: 'success', instance_id: 'demo', revision: 2, schema: { state: { params: { count: 42 } } } });
  expect((patched.content as { text: string }[])[0]!.text).toMatch(/^Applied 1 patch to "demo": revision 2/);
  const refused = await client.callTool({ name: 'patch_ui_state', arguments: { instance_id: 'demo', patches: [{ op: 'add', path: 'blocks', value: [] }] } });
  expect(refused.isError).toBe(true);
  expect(refused.structuredContent).toMatchObject({ status: 'error', error: { code: 'INVALID_OP', patch_index: 0, path: 'blocks' } });
  const listed = await client.callTool({ name: 'list_instances', arguments: {} });
  expect(ListInstancesResultSchema.parse(listed.structuredContent)).toMatchObject({ total: 1, instances: [{ instance_id: 'demo', revision: 2 }] });
  expect(JSON.parse(fs.readFileSync(path.join(dataDir, INSTANCES_FILE), 'utf8')).instances[0].schema.state.params.count).toBe(42);
  // Without ChatOS to say who called, the history names the MCP client.
  expect(readHistory(dataDir)[1]!.caller).toEqual({ kind: 'client', name: 'standalone-test' });
}

/** What ChatOS puts in `_meta`, pointing at folders a caller would like the server to write in. */
const metaNaming = (workdir: string, dataDir: string) => ({ workdir, chatos: { uiApp: { pluginId: 'chatos.canvas', appId: 'canvas', dataDir } } });

describe('the canvas server on its own', () => {
  it('stdio (the default): tools/list and a patch from the SDK client, instances in $CANVAS_DATA_DIR', async () => {
    const dataDir = tempDir();
    const client = new Client({ name: 'standalone-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? '', CANVAS_DATA_DIR: dataDir }, cwd: tempDir(), stderr: 'pipe' }));
    try {
      await exercise(client, dataDir);
    } finally {
      await client.close();
    }
  });

  it('stdio without CANVAS_DATA_DIR keeps its instances in the current folder', async () => {
    const cwd = tempDir();
    const client = new Client({ name: 'standalone-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? '' }, cwd, stderr: 'pipe' }));
    try {
      await client.callTool({ name: 'patch_ui_state', arguments: seedUpdate });
      expect(fs.existsSync(path.join(cwd, INSTANCES_FILE))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('streamable HTTP (MCP_TRANSPORT=http) on 127.0.0.1: tools/list and a patch; a foreign Host or Origin is refused', async () => {
    const dataDir = tempDir();
    const url = await startHttp({ CANVAS_DATA_DIR: dataDir });
    const client = new Client({ name: 'standalone-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      await exercise(client, dataDir);
    } finally {
      await client.close();
    }
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }));
      });
    expect(await status({ host: `evil.example:${new URL(url).port}` })).toBe(421);
    expect(await status({ origin: 'https://evil.example' })).toBe(403);
    expect(await status({})).toBe(200);
  });

  it('over HTTP keeps at most 32 sessions: a 33rd closes the one used longest ago, whose client is told to start again', async () => {
    const url = await startHttp({ CANVAS_DATA_DIR: tempDir() });
    const post = (body: object, session?: string) =>
      new Promise<{ status: number; session?: string }>((resolve, reject) => {
        const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}) };
        const request = http.request(url, { method: 'POST', headers }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined }));
        });
        request.on('error', reject);
        request.end(JSON.stringify(body));
      });
    const initialize = async () =>
      (await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } })).session!;
    const ping = async (session: string) => (await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, session)).status;
    const first = await initialize();
    const second = await initialize();
    for (let i = 0; i < 30; i++) await initialize();
    // 32 open; the first is used again, so the second is now the one used longest ago.
    expect(await ping(first)).toBe(200);
    const last = await initialize();
    expect(await ping(second)).toBe(404);
    expect(await ping(first)).toBe(200);
    expect(await ping(last)).toBe(200);
  });

  it('over HTTP keeps to the folder it was started with: a folder a caller names in _meta is never written (issue 25 item 5)', async () => {
    const dataDir = tempDir();
    const elsewhere = tempDir();
    const url = await startHttp({ CANVAS_DATA_DIR: dataDir });
    // Any local process can reach the port: this one asks for folders of its choosing, existing and not.
    const client = new Client({ name: 'a-local-process', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const wantedWorkdir = path.join(elsewhere, 'workdir');
    const wantedDataDir = path.join(elsewhere, 'data');
    try {
      const created = await client.callTool({
        name: 'patch_ui_state',
        arguments: { instance_id: '__CREATE__', new_instance_id: 'planted', patches: [] },
        _meta: metaNaming(wantedWorkdir, wantedDataDir),
      });
      expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
      const listed = await client.callTool({ name: 'list_instances', arguments: {}, _meta: metaNaming(elsewhere, elsewhere) });
      expect(ListInstancesResultSchema.parse(listed.structuredContent).instances.map((i) => i.instance_id)).toContain('planted');
    } finally {
      await client.close();
    }
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    expect(fs.readFileSync(path.join(dataDir, INSTANCES_FILE), 'utf8')).toContain('"planted"');
  });

  it('--data-dir names its folder, over $CANVAS_DATA_DIR', async () => {
    const flagged = tempDir();
    const url = await startHttp({ CANVAS_DATA_DIR: tempDir() }, ['--data-dir', flagged]);
    const client = new Client({ name: 'standalone-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      await client.callTool({ name: 'patch_ui_state', arguments: seedUpdate });
    } finally {
      await client.close();
    }
    expect(fs.existsSync(path.join(flagged, INSTANCES_FILE))).toBe(true);
  });

  it('over stdio uses the data folder its host names in _meta: the one client is the process that started it', async () => {
    const fallback = tempDir();
    const hostGiven = tempDir();
    const client = new Client({ name: 'standalone-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? '', CANVAS_DATA_DIR: fallback }, cwd: tempDir(), stderr: 'pipe' }));
    try {
      await client.callTool({ name: 'patch_ui_state', arguments: seedUpdate, _meta: metaNaming(tempDir(), hostGiven) });
    } finally {
      await client.close();
    }
    expect(fs.existsSync(path.join(hostGiven, INSTANCES_FILE))).toBe(true);
    expect(fs.existsSync(path.join(fallback, INSTANCES_FILE))).toBe(false);
  });

  it('an unknown MCP_TRANSPORT is a usage error', async () => {
    const child = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH ?? '', MCP_TRANSPORT: 'sse' }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('MCP_TRANSPORT must be stdio or http');
  });
});
