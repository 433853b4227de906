import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsServer } from '../helpers/httpsServer.js';
import { packBundle } from '../helpers/mcpbBundles.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * `chatos install <address>` of an MCP Bundle (review finding F8, docs/using/bundles.md): only over https unless the
 * user says --allow-http, since anyone on the network path can swap a plain-http download; plain http to this
 * machine's loopback crosses no network and is taken. A real HTTP server on loopback serves a bundle packed by
 * @anthropic-ai/mcpb; the real CLI fetches it. A plain-http address elsewhere is refused before anything is asked
 * of it (an `.invalid` name: never resolved, never reached).
 */

let server: http.Server;
let origin: string;
let served = 0;
const ELSEWHERE = 'http://bundles.example.invalid';

beforeAll(async () => {
  const bundle = fs.readFileSync(await packBundle());
  server = http.createServer((request, response) => {
    served++;
    if (request.url === '/moved.mcpb') response.writeHead(302, { location: '/weather.mcpb' }).end();
    else if (request.url === '/away.mcpb') response.writeHead(302, { location: `${ELSEWHERE}/weather.mcpb` }).end();
    else response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bundle);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a bundle named by its address', () => {
  it('over plain http off this machine is refused, nothing fetched or installed, unless --allow-http', async () => {
    const home = tempDir();
    const pluginsDir = path.join(home, 'chatos', 'ui_apps', 'plugins');
    const refused = await runCli(['install', `${ELSEWHERE}/weather.mcpb`, '--secret-stdin', 'api_key', '--home', home], { input: 'k' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${ELSEWHERE} is plain http: anyone on the way could change the bundle`);
    // A loopback server that sends the download on to plain http elsewhere: refused at that hop.
    const before = served;
    const away = await runCli(['install', `${origin}/away.mcpb`, '--secret-stdin', 'api_key', '--home', home], { input: 'k' });
    expect(away.code).toBe(1);
    expect(away.stderr).toContain(`redirected to ${ELSEWHERE}, plain http off this machine`);
    expect(served).toBe(before + 1);
    expect(fs.existsSync(pluginsDir) ? fs.readdirSync(pluginsDir) : []).toEqual([]);
    // The user's word lets the hop through: the host then tries that address (which no name service knows).
    const allowed = await runCli(['install', `${origin}/away.mcpb`, '--allow-http', '--secret-stdin', 'api_key', '--home', home], { input: 'k' });
    expect(allowed.code).toBe(1);
    expect(allowed.stderr).toContain(`${ELSEWHERE} could not be reached`);
  });

  it('over https is taken, and not once it is redirected down to plain http, even to this machine or with --allow-http', async () => {
    const home = tempDir();
    const bundle = fs.readFileSync(await packBundle());
    const secure = await startHttpsServer((request, response) => {
      if (request.url === '/down.mcpb') response.writeHead(302, { location: `${origin}/weather.mcpb` }).end();
      else response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bundle);
    });
    try {
      const before = served;
      for (const flags of [[], ['--allow-http']]) {
        const down = await runCli(['install', `${secure.origin}/down.mcpb`, ...flags, '--secret-stdin', 'api_key', '--home', home], { input: 'k' });
        expect(down.code).toBe(1);
        expect(down.stderr).toContain(`${secure.origin} redirected to ${origin} over plain http`);
      }
      // The plain-http server was never asked, and nothing was installed.
      expect(served).toBe(before);
      expect(fs.existsSync(path.join(home, 'chatos', 'ui_apps', 'plugins', 'mcpb.weather'))).toBe(false);
      // The same server's bundle over https (its certificate checked) installs: the refusal was the hop, not TLS.
      const installed = await runCli(['install', `${secure.origin}/weather.mcpb`, '--secret-stdin', 'api_key', '--home', home], { input: 'k' });
      expect(installed.code, installed.stderr).toBe(0);
    } finally {
      await secure.close();
    }
  });

  it('over plain http to this machine is taken, through a redirect on the same server', async () => {
    const home = tempDir();
    const installed = await runCli(['install', `${origin}/moved.mcpb`, '--secret-stdin', 'api_key', '--home', home], { input: 'k' });
    expect(installed.code, installed.stderr).toBe(0);
    expect(fs.readdirSync(path.join(home, 'chatos', 'ui_apps', 'plugins'))).toEqual(['mcpb.weather']);
  });
});
