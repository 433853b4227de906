import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { readHistory } from '../../../plugins/canvas/mcp/historyFile.mjs';
import { linkModules } from '../../../plugins/canvas/mcp/inlineModules.mjs';
import { PatchResultSchema } from '../../../plugins/canvas/mcp/uiSchema.mjs';
import { tempDir } from '../../helpers/tempDir.js';
import { until } from '../../helpers/until.js';
import { SERVER, startHttp, stopHttpServers } from './standaloneServer.js';

/** The spec's names (SEP-1865), written out here rather than imported, so a change of ours to them fails. */
const VIEW_URI = 'ui://canvas/instance.html';
const MCP_APP_MIME = 'text/html;profile=mcp-app';

afterEach(stopHttpServers);

/** What any MCP Apps host reads of the server: the link on every tool, the listed resource, and the document with its CSP. */
async function checkView(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  for (const tool of tools) {
    expect(tool._meta, tool.name).toEqual({ ui: { resourceUri: VIEW_URI }, 'ui/resourceUri': VIEW_URI });
  }
  const { resources } = await client.listResources();
  expect(resources).toEqual([expect.objectContaining({ uri: VIEW_URI, mimeType: MCP_APP_MIME, name: 'canvas-instance' })]);
  const read = await client.readResource({ uri: VIEW_URI });
  expect(read.contents).toHaveLength(1);
  const [view] = read.contents as [{ uri: string; mimeType: string; text: string; _meta: { ui: { csp: Record<string, string[]>; permissions?: unknown } } }];
  expect(view).toMatchObject({ uri: VIEW_URI, mimeType: MCP_APP_MIME });
  // It asks for no origin of any kind and no device: the spec's restrictive default CSP is all it gets.
  expect(view._meta.ui.csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
  expect(view._meta.ui.permissions).toBeUndefined();
  expect(view.text.startsWith('<!doctype html>')).toBe(true);
  // One document: no script, style or frame loaded from anywhere.
  expect(view.text).not.toMatch(/<(script|link|iframe|img)\b[^>]*\b(src|href)=/i);
  expect(view.text.match(/<script\b/g)).toHaveLength(1);

  const unknown = await client.readResource({ uri: 'ui://canvas/other.html' }).catch((error: unknown) => error);
  expect(unknown).toBeInstanceOf(McpError);
  // Invalid Params: the code 2026-07-28 gives a missing resource on every revision (the v2 server package sends it).
  expect((unknown as McpError).code).toBe(-32602);
  expect((unknown as McpError).message).toContain(`unknown resource "ui://canvas/other.html": this server has one, ${VIEW_URI}`);
}

/** A GET or POST's status with these headers (the body is not read). */
function status(url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const request = http.request(url, { method, headers }, (res) => {
      resolve(res.statusCode ?? 0);
      res.destroy();
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('the canvas as an MCP App', () => {
  it('over stdio: the tools link the ui:// view, resources/list lists it, resources/read returns it', async () => {
    const client = new Client({ name: 'apps-host', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? '', CANVAS_DATA_DIR: tempDir() }, cwd: tempDir(), stderr: 'pipe' }));
    try {
      await checkView(client);
    } finally {
      await client.close();
    }
  });

  it('over streamable HTTP: the same view and links', async () => {
    const url = await startHttp({ CANVAS_DATA_DIR: tempDir() });
    const client = new Client({ name: 'apps-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      await checkView(client);
    } finally {
      await client.close();
    }
  });

  it('GET /sse: the SDK SSE client connects, lists the tools and patches; Host and Origin are checked there too', async () => {
    const dataDir = tempDir();
    const origin = new URL(await startHttp({ CANVAS_DATA_DIR: dataDir })).origin;
    const client = new Client({ name: 'old-sse-client', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL(`${origin}/sse`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['patch_ui_state', 'get_schema', 'list_instances']);
      const patched = await client.callTool({ name: 'patch_ui_state', arguments: { instance_id: 'demo', patches: [{ op: 'set', path: 'state.params.via', value: 'sse' }] } });
      expect(PatchResultSchema.parse(patched.structuredContent).schema.state.params).toMatchObject({ via: 'sse' });
      expect((await client.readResource({ uri: VIEW_URI })).contents[0]).toMatchObject({ mimeType: MCP_APP_MIME });
    } finally {
      await client.close();
    }
    expect(readHistory(dataDir).at(-1)!.caller).toEqual({ kind: 'client', name: 'old-sse-client' });

    const port = new URL(origin).port;
    expect(await status(`${origin}/sse`, 'GET', { host: `evil.example:${port}` })).toBe(421);
    expect(await status(`${origin}/sse`, 'GET', { origin: 'https://evil.example' })).toBe(403);
    expect(await status(`${origin}/messages?sessionId=nope`, 'POST', { origin: 'https://evil.example', 'content-type': 'application/json' }, '{}')).toBe(403);
    expect(await status(`${origin}/messages?sessionId=nope`, 'POST', { 'content-type': 'application/json' }, '{}')).toBe(404);
    expect(await status(`${origin}/sse`, 'POST', {}, '{}')).toBe(405);
    expect(await status(`${origin}/messages`, 'GET')).toBe(405);
  });

  it('a bad body on /messages is a 400 that says so, and the stream stays usable', async () => {
    const origin = new URL(await startHttp({ CANVAS_DATA_DIR: tempDir() })).origin;
    // The stream as an old client opens it: its first event names where to post.
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(`${origin}/sse`, resolve).on('error', reject));
    try {
      let events = '';
      const endpoint = await new Promise<string>((resolve) =>
        stream.on('data', (chunk: Buffer) => {
          events += chunk.toString();
          const match = /event: endpoint\ndata: (\S+)/.exec(events);
          if (match) resolve(new URL(match[1]!, origin).href);
        }),
      );
      const bad = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toMatch(/^the request body is not JSON/);
      const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
      const good = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(initialize) });
      expect(good.status).toBe(202);
      await until('the initialize answer on the stream', () => (events.includes('"serverInfo"') ? true : undefined));
    } finally {
      stream.destroy();
    }
  });
});

describe('linkModules (the view is one inline script)', () => {
  const write = (dir: string, name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);

  it('links named imports and exports in import order, each module once', () => {
    const dir = tempDir();
    write(dir, 'a.mjs', "import { b } from './b.mjs';\nimport { c as see } from './c.mjs';\nglobalThis.out = [b(), see];\n");
    write(dir, 'b.mjs', "import { c } from './c.mjs';\nexport function b() {\n  return `b${c}`;\n}\n");
    write(dir, 'c.mjs', "export const c = 'c';\n");
    write(dir, 'lib.js', 'const x = 1; function y() { return x + 1; }\nexport{y as why,x};\n');
    write(dir, 'd.mjs', "import { why, x } from 'lib';\nglobalThis.lib = [why(), x];\n");
    const script = linkModules(path.join(dir, 'a.mjs'));
    expect(script.match(/export const c/g)).toBeNull();
    expect(script.match(/= 'c'/g)).toHaveLength(1);
    const run = new Function(`${script}\nreturn globalThis.out;`) as () => unknown;
    expect(run()).toEqual(['bc', 'c']);
    const withLib = new Function(`${linkModules(path.join(dir, 'd.mjs'), { lib: path.join(dir, 'lib.js') })}\nreturn globalThis.lib;`) as () => unknown;
    expect(withLib()).toEqual([2, 1]);
  });

  it('refuses what it cannot link, by file and form, so the server fails at start and not in a host', () => {
    const dir = tempDir();
    const refused = (source: string, packages: Record<string, string> = {}) => {
      write(dir, 'x.mjs', source);
      return () => linkModules(path.join(dir, 'x.mjs'), packages);
    };
    expect(refused('export default 1;\n')).toThrow(/x\.mjs: cannot link "export default 1;"/);
    expect(refused("import * as all from './y.mjs';\n")).toThrow(/cannot link "import \* as all/);
    expect(refused("import { z } from 'zod';\n")).toThrow(/cannot link "zod": only relative modules/);
    expect(refused('const m = import("./y.mjs");\n')).toThrow(/cannot link "import\("/);
    expect(refused("const s = '</script>';\n")).toThrow(/holds "<\/script", which cannot be inlined/);
    write(dir, 'y.mjs', "import { x } from './x.mjs';\nexport const y = x;\n");
    expect(refused("import { y } from './y.mjs';\nexport const x = 1;\n")).toThrow(/an import cycle/);
    write(dir, 'lib.js', 'export const a = 1;\nexport{a as b};\n');
    expect(refused("import { b } from 'lib';\n", { lib: path.join(dir, 'lib.js') })).toThrow(/may not import or export before its last line/);
  });
});
