import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packBundle } from '../helpers/mcpbBundles.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * `chatos install <address>` of an MCP Bundle (review finding F8, docs/using/bundles.md): only over https unless the
 * user says --allow-http, since anyone on the network path can swap a plain-http download. A real HTTP server on
 * loopback serves a bundle packed by @anthropic-ai/mcpb; the real CLI fetches it.
 */

let server: http.Server;
let origin: string;
let served = 0;

beforeAll(async () => {
  const bundle = fs.readFileSync(await packBundle());
  server = http.createServer((request, response) => {
    served++;
    if (request.url === '/moved.mcpb') response.writeHead(302, { location: '/weather.mcpb' }).end();
    else response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bundle);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a bundle named by its address', () => {
  it('over plain http is refused, nothing fetched or installed, unless --allow-http', async () => {
    const home = tempDir();
    const pluginsDir = path.join(home, 'chatos', 'ui_apps', 'plugins');
    const before = served;
    const refused = await runCli(['install', `${origin}/weather.mcpb`, '--secret-stdin', 'api_key', '--home', home], { input: 'k' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${origin} is plain http: anyone on the way could change the bundle`);
    expect(served).toBe(before);
    expect(fs.existsSync(pluginsDir) ? fs.readdirSync(pluginsDir) : []).toEqual([]);

    // The user's word, through a redirect on the same plain-http server.
    const allowed = await runCli(['install', `${origin}/moved.mcpb`, '--allow-http', '--secret-stdin', 'api_key', '--home', home], { input: 'k' });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(fs.readdirSync(pluginsDir)).toEqual(['mcpb.weather']);
  });
});
