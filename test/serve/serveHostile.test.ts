import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { aliasBomb } from '../helpers/aliasBomb.js';
import { writePlugin } from '../helpers/plugins.js';
import { tempDir } from '../helpers/tempDir.js';
import { until } from '../helpers/until.js';
import { raw } from './serveHarness.js';
import { api, lineMatching, serve } from './serveProcess.js';

/** A real `chatos serve` on a fresh home and any free port, with its printed url and token. */
async function started(extraArgs: string[] = [], home = tempDir('chatos-serve-home-')) {
  const served = serve(['--port', '0', '--home', home, ...extraArgs]);
  const [, printed] = await lineMatching(served, /^ChatOS is serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43})$/m);
  const url = new URL(printed!);
  return { served, url, port: Number(url.port), token: url.searchParams.get('token')! };
}

/** One API call that must answer within `ms`: a host blocked on a file would not. */
async function apiWithin(url: URL, token: string, method: string, ms: number): Promise<any> {
  const res = await fetch(new URL('/api', url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ method, params: {} }),
    signal: AbortSignal.timeout(ms),
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('chatos serve against hostile input', () => {
  it('a FIFO appearing as a plugin.json in a watched root becomes a problem on that plugin; /api keeps answering and SIGTERM still stops it', async () => {
    const root = tempDir();
    writePlugin(root, 'good', { manifestVersion: 1, id: 'good', name: 'Good', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs' }] }, { 'index.mjs': '' });
    const { served, url, token } = await started(['--plugins', root]);
    expect((await apiWithin(url, token, 'apps.list', 30_000)).result.plugins.map((p: { id?: string }) => p.id)).toContain('good');

    // Made beside the root and moved in whole: a rescan between a mkdir and a mkfifo in the root would see a folder without its plugin.json.
    const made = path.join(tempDir(), 'pipe');
    fs.mkdirSync(made);
    execFileSync('mkfifo', [path.join(made, 'plugin.json')]);
    fs.renameSync(made, path.join(root, 'pipe'));
    // The watcher rescans within seconds; every call meanwhile must answer.
    const pipe = await until('the FIFO plugin in apps.list', async () => {
      const listed = await apiWithin(url, token, 'apps.list', 15_000);
      return listed.result.plugins.find((p: { dir: string }) => p.dir === path.join(root, 'pipe')) as { status: string; problems: { code: string }[] } | undefined;
    });
    expect(pipe).toMatchObject({ status: 'invalid', problems: [{ code: 'FILE_NOT_REGULAR' }] });
    expect((await apiWithin(url, token, 'host.info', 15_000)).ok).toBe(true);

    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });
  }, 300_000);

  it('an mcp.yaml holding a YAML alias bomb is a problem naming the file: chatos serve starts and answers', async () => {
    const home = tempDir('chatos-serve-home-');
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    fs.writeFileSync(path.join(home, 'chatos', 'mcp.yaml'), aliasBomb(12));
    const { served, url, token } = await started(['--no-watch'], home);
    const listed = await api(url, token, 'mcpServers.list');
    expect(listed.result.problems).toMatchObject([{ code: 'YAML_ALIAS_EXPANSION', file: path.join(home, 'chatos', 'mcp.yaml') }]);
    expect(listed.result.problems[0].line).toBeGreaterThan(6);
    expect((await api(url, token, 'host.info')).ok).toBe(true);
    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });
  }, 300_000);

  it('trading the token for the cookie redirects only to a path of this server, never to //another.host', async () => {
    const { served, port, token } = await started(['--no-watch']);
    for (const [target, location] of [
      [`//evil.example/x?token=${token}&a=1`, '/evil.example/x?a=1'],
      [`///evil.example/x?token=${token}`, '/evil.example/x'],
      [`/\\evil.example/x?token=${token}`, '/evil.example/x'],
      [`/\\/evil.example?token=${token}`, '/evil.example'],
      [`/agents?token=${token}&tab=2`, '/agents?tab=2'],
      [`/?token=${token}`, '/'],
    ] as const) {
      const res = await raw(port, { path: target });
      expect(res.status, target).toBe(302);
      expect(res.headers.location, target).toBe(location);
      expect(res.headers['set-cookie']?.[0]).toContain('HttpOnly');
    }
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  }, 300_000);
});
