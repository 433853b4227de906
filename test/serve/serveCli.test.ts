import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexSnapshot, procSnapshot, processArgv } from '../../src/core/process/processTree.js';
import { runCli, runCliProcess } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';
import { api, lineMatching, serve } from './serveProcess.js';

describe('chatos serve', () => {
  it('prints the URL, answers host.info with the token, and on SIGTERM closes, saves and exits 0', async () => {
    const home = tempDir('chatos-serve-home-');
    const served = serve(['--port', '0', '--home', home]);
    const [, printed] = await lineMatching(served, /^ChatOS is serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43})$/m);
    const url = new URL(printed!);
    const token = url.searchParams.get('token')!;

    const info = await api(url, token, 'host.info');
    expect(info).toMatchObject({ ok: true, result: { face: 'serve', home } });
    expect((await fetch(new URL('/api', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"method":"host.info"}' })).status).toBe(401);
    const saved = await api(url, token, 'agents.save', { agent: { name: 'Served agent' } });
    expect(saved.ok).toBe(true);

    served.child.kill('SIGTERM');
    const { code, signal } = await served.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(served.stderr()).toContain('stopping');
    // Gone: the port no longer answers.
    await expect(fetch(new URL('/', url))).rejects.toThrow();
    // The admin DB on disk has what was saved through the server.
    expect(fs.statSync(path.join(home, 'chatos', 'admin.db')).size).toBeGreaterThan(0);
    const listed = await runCli(['--home', home, '--json', 'agents', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json().agents.map((a: { name: string }) => a.name)).toContain('Served agent');
  }, 300_000);

  it('--json prints one JSON line {url, port, viewPort}; SIGINT stops it too', async () => {
    const home = tempDir('chatos-serve-home-');
    const served = serve(['--port', '0', '--home', home, '--json', '--no-watch']);
    const [line] = await lineMatching(served, /^\{.*\}$/m);
    const printed = JSON.parse(line!) as { url: string; port: number; viewPort: number };
    expect(Object.keys(printed).sort()).toEqual(['port', 'url', 'viewPort']);
    expect(printed.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${printed.port}/\\?token=`));
    // MCP App views run on a port of their own (docs/using/serve.md#mcp-app-views).
    expect(printed.viewPort).toBeGreaterThan(0);
    expect(printed.viewPort).not.toBe(printed.port);
    served.child.kill('SIGINT');
    expect((await served.exited).code).toBe(0);
  }, 300_000);

  it('a port in use exits 1 naming the port and suggesting --port 0, or --view-port 0 for the views’ port', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const run = await runCli(['--home', tempDir('chatos-serve-home-'), 'serve', '--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`port ${port}`);
      expect(run.stderr).toContain('--port 0');
      const views = await runCli(['--home', tempDir('chatos-serve-home-'), 'serve', '--port', '0', '--view-port', String(port)]);
      expect(views.code).toBe(1);
      expect(views.stderr).toContain(`port ${port}`);
      expect(views.stderr).toContain('--view-port 0');
    } finally {
      blocker.close();
    }
  }, 300_000);

  it.each(['abc', '-1', '65536', '1.5', ''])('a bad --port (%j) exits 2 and says what a port is', async (port) => {
    const run = await runCli(['--home', tempDir('chatos-serve-home-'), 'serve', '--port', port]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--port');
  });

  it('npm start without an Electron binary says why and runs chatos serve with the arguments passed on', async () => {
    const home = tempDir('chatos-serve-home-');
    const served = serve(['--port', '0', '--home', home, '--json'], [path.join(repoRoot, 'scripts', 'start.js')], {
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
      ELECTRON_OVERRIDE_DIST_PATH: tempDir('no-electron-'),
    });
    const [line] = await lineMatching(served, /^\{"url".*\}$/m);
    expect(served.stdout()).toContain('Electron is not available on this machine: ELECTRON_SKIP_BINARY_DOWNLOAD is set');
    // The server runs as the `chatos` command starts Node (the variables and flags of bin/chatos.js's first line), not
    // with Node's defaults: the wrapper gives Node the file as a script, which skips that line.
    const words = fs
      .readFileSync(path.join(repoRoot, 'bin', 'chatos.js'), 'utf8')
      .split('\n', 1)[0]!
      .split(' ');
    const [flags, variables] = [words.slice(words.indexOf('node') + 1), words.filter((word) => /^[A-Z_]+=/.test(word))];
    expect(flags).toContain('--heap-growing-percent=30');
    expect(variables).toContain('MALLOC_ARENA_MAX=2');
    const [serverPid] = indexSnapshot(procSnapshot()!).children.get(served.child.pid!)!;
    const argv = processArgv(serverPid!)!;
    expect(argv.slice(1, 1 + flags.length)).toEqual(flags);
    expect(argv[1 + flags.length]).toBe(path.join(repoRoot, 'bin', 'chatos.js'));
    expect(fs.readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0')).toEqual(expect.arrayContaining(variables));
    const { url } = JSON.parse(line!) as { url: string };
    const token = new URL(url).searchParams.get('token')!;
    expect((await api(new URL(url), token, 'host.info')).ok).toBe(true);
    // SIGTERM to the wrapper alone reaches the server, which shuts down cleanly.
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
    expect(served.stderr()).toContain('stopping');
  }, 300_000);

  it('npm start tries to download a missing Electron once: a failure is remembered, said with how to retry, and --fetch-electron tries again', async () => {
    const cache = tempDir('chatos-start-cache-');
    // No binary here, and a mirror that refuses every connection: the download fails at once, as with no network.
    const env = {
      ELECTRON_SKIP_BINARY_DOWNLOAD: undefined,
      ELECTRON_OVERRIDE_DIST_PATH: tempDir('no-electron-'),
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
      electron_config_cache: tempDir('electron-cache-'),
      CHATOS_CACHE_DIR: cache,
    };
    const start = async (extra: string[] = []) => {
      const served = serve(['--port', '0', '--home', tempDir('chatos-serve-home-'), '--json', '--no-watch', ...extra], [path.join(repoRoot, 'scripts', 'start.js')], env);
      await lineMatching(served, /^\{"url".*\}$/m);
      served.child.kill('SIGTERM');
      expect((await served.exited).code).toBe(0);
      return served.stdout();
    };
    const first = await start();
    expect(first).toContain('trying to download it once');
    expect(first).toMatch(/its download failed \(.+\); it will not be tried again on start: npm start -- --fetch-electron tries again/);
    expect(JSON.parse(fs.readFileSync(path.join(cache, 'electron-download.json'), 'utf8'))).toMatchObject({ version: expect.any(String), reason: expect.any(String) });

    const second = await start();
    expect(second).not.toContain('trying to download it once');
    expect(second).toContain('its download failed before (');
    expect(second).toContain('to try again: npm start -- --fetch-electron');

    // Asked to, it tries again (and the flag is not passed on to chatos serve, which would refuse it).
    const third = await start(['--fetch-electron']);
    expect(third).toContain('trying to download it once');
  }, 300_000);

  it('npm start on a Linux box without a display runs chatos serve even where Electron is present, and says why', async () => {
    // A stand-in Electron that leaves a mark if it is ever run.
    const dist = tempDir('fake-electron-');
    const mark = path.join(dist, 'ran');
    fs.writeFileSync(path.join(dist, 'electron'), `#!/bin/sh\ntouch ${JSON.stringify(mark)}\n`, { mode: 0o755 });
    const home = tempDir('chatos-serve-home-');
    const served = serve(['--port', '0', '--home', home, '--json'], [path.join(repoRoot, 'scripts', 'start.js')], {
      ELECTRON_OVERRIDE_DIST_PATH: dist,
      DISPLAY: undefined,
      WAYLAND_DISPLAY: undefined,
    });
    await lineMatching(served, /^\{"url".*\}$/m);
    expect(served.stdout()).toContain('There is no display here');
    expect(fs.existsSync(mark)).toBe(false);
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  }, 300_000);
});

describe('the serve token of a data home', () => {
  it('is kept across restarts in a file only the user can read, printed by --print-url, replaced by --new-token', async () => {
    const home = tempDir('chatos-serve-home-');
    const urlOf = async (args: string[]) => {
      const served = serve(['--port', '0', '--home', home, '--json', '--no-watch', ...args]);
      const [line] = await lineMatching(served, /^\{.*\}$/m);
      served.child.kill('SIGTERM');
      expect((await served.exited).code).toBe(0);
      return new URL((JSON.parse(line!) as { url: string }).url);
    };
    const first = await urlOf([]);
    const second = await urlOf([]);
    const token = first.searchParams.get('token')!;
    expect(second.searchParams.get('token')).toBe(token);
    const file = path.join(home, 'chatos', 'serve-token.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const printed = await runCli(['--home', home, 'serve', '--print-url', '--port', '7411']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout.trim()).toBe(`http://127.0.0.1:7411/?token=${token}`);

    const rotated = await urlOf(['--new-token']);
    expect(rotated.searchParams.get('token')).not.toBe(token);
    expect((await runCli(['--home', home, 'serve', '--print-url', '--port', '7411'])).stdout.trim()).toBe(`http://127.0.0.1:7411/?token=${rotated.searchParams.get('token')}`);
  }, 300_000);

  it('--print-url before any server ran says to start one; a token file others may read is refused with the fix', async () => {
    const home = tempDir('chatos-serve-home-');
    const none = await runCli(['--home', home, 'serve', '--print-url']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('npx chatos serve');
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    const file = path.join(home, 'chatos', 'serve-token.json');
    fs.writeFileSync(file, JSON.stringify({ version: 1, secrets: { token: 'a'.repeat(43) } }), { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const loose = await runCli(['--home', home, 'serve', '--print-url']);
    expect(loose.code).toBe(1);
    expect(loose.stderr).toContain(`chmod 600 ${file}`);

    // A link in its place (to a private file elsewhere) is not followed: neither read nor written through.
    const elsewhere = path.join(tempDir('chatos-serve-elsewhere-'), 'token.json');
    fs.writeFileSync(elsewhere, JSON.stringify({ version: 1, secrets: { token: 'b'.repeat(43) } }), { mode: 0o600 });
    fs.rmSync(file);
    fs.symlinkSync(elsewhere, file);
    const linked = await runCli(['--home', home, 'serve', '--print-url']);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain('it is a symbolic link');
    expect(linked.stderr).toContain(`rm ${file}`);
    expect(linked.stdout).not.toContain('b'.repeat(43));
    // A process of its own: were the link followed, serve would start and keep serving.
    const started = runCliProcess(['--home', home, 'serve', '--port', '0', '--no-watch'], { timeoutMs: 60_000 });
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('it is a symbolic link');
    expect(fs.readFileSync(elsewhere, 'utf8')).toContain('b'.repeat(43));
  });

  it('a request without the token is told the command that prints the URL', async () => {
    const home = tempDir('chatos-serve-home-');
    const served = serve(['--port', '0', '--home', home, '--json', '--no-watch']);
    const [line] = await lineMatching(served, /^\{.*\}$/m);
    const { port } = JSON.parse(line!) as { port: number };
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(401);
    const text = await page.text();
    expect(text).toContain(`npx chatos serve --print-url --port ${port} --home ${JSON.stringify(home)}`);
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  }, 300_000);
});
