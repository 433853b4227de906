import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataHomeCheck, diskCheck } from '../../../src/core/diagnostics/dataHomeChecks.js';
import { appCheck, electronCheck, pathCheck } from '../../../src/core/diagnostics/environmentChecks.js';
import { headlessPortCheck, uiCheck } from '../../../src/core/diagnostics/faceChecks.js';
import { serverChecks } from '../../../src/core/diagnostics/serverChecks.js';
import { testServerDefinition } from '../../helpers/serverDefinition.js';
import { tempDir } from '../../helpers/tempDir.js';

/** Issue 19, the doctor: each check's ok and its fail (or, where nothing can fail, its warning), on real folders, ports and programs. */

const opened: net.Server[] = [];
afterEach(async () => {
  for (const server of opened.splice(0)) await new Promise((resolve) => server.close(resolve));
});

function executable(dir: string, name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n');
  fs.chmodSync(file, 0o755);
  return file;
}

describe('app and Node', () => {
  it('ok on a Node the app supports, fail on an older one', () => {
    expect(appCheck('1.2.3', '24.22.3', 'Node 24.22.3')).toMatchObject({ status: 'ok', facts: { app: '1.2.3', node: '24.22.3' } });
    expect(appCheck('1.2.3', '24.11.0', 'Node 24.11.0').status).toBe('ok');
    const old = appCheck('1.2.3', '22.21.1', 'Node 22.21.1');
    expect(old).toMatchObject({ status: 'fail', fix: expect.stringContaining('24.11.0') });
  });
});

describe('Electron', () => {
  it('ok inside Electron or with its binary installed; a warning (never a failure) without', () => {
    expect(electronCheck('39.0.0', undefined).status).toBe('ok');
    expect(electronCheck(undefined, '/opt/ChatOS/chatos')).toMatchObject({ status: 'ok', facts: { binary: '/opt/ChatOS/chatos' } });
    expect(electronCheck(undefined, undefined)).toMatchObject({ status: 'warn', fix: expect.stringContaining('chatos serve') });
  });
});

describe.skipIf(process.platform === 'win32')('the data home', () => {
  it('ok when writable, and when it does not exist yet but can be made', () => {
    const home = tempDir();
    expect(dataHomeCheck(home).status).toBe('ok');
    expect(dataHomeCheck(path.join(home, 'later', '.chatos'))).toMatchObject({ status: 'ok', summary: expect.stringContaining('does not exist yet') });
    expect(fs.readdirSync(home)).toEqual([]);
  });

  it('fail when it is a file, or cannot be made where it would be', () => {
    const file = path.join(tempDir(), 'home');
    fs.writeFileSync(file, '');
    expect(dataHomeCheck(file)).toMatchObject({ status: 'fail', summary: expect.stringContaining('not a folder') });
    expect(dataHomeCheck(path.join(file, 'inside'))).toMatchObject({ status: 'fail', fix: expect.stringContaining('CHATOS_HOME') });
  });
});

describe('free disk', () => {
  it('ok above the limits, fail below (the disk this home is on, read for real)', () => {
    const home = tempDir();
    expect(diskCheck(home, { failBelow: 1, warnBelow: 2 })).toMatchObject({ status: 'ok', facts: { freeBytes: expect.stringMatching(/^\d+$/) } });
    expect(diskCheck(home, { failBelow: Number.MAX_SAFE_INTEGER, warnBelow: Number.MAX_SAFE_INTEGER }).status).toBe('fail');
    expect(diskCheck(home, { failBelow: 1, warnBelow: Number.MAX_SAFE_INTEGER }).status).toBe('warn');
  });
});

describe('the PATH servers get', () => {
  it('ok with where it came from; a warning when the login shell failed; fail when empty', () => {
    expect(pathCheck({ kind: 'login-shell', path: '/opt/bin:/usr/bin', shell: '/bin/zsh', ms: 40 })).toMatchObject({
      status: 'ok',
      summary: expect.stringContaining('/opt/bin:/usr/bin'),
      facts: { source: 'login-shell', shell: '/bin/zsh' },
    });
    expect(pathCheck({ kind: 'login-shell-failed', path: '/usr/bin', shell: '/bin/zsh', error: 'exit 1' }).status).toBe('warn');
    expect(pathCheck({ kind: 'inherited', path: '', why: 'the PATH this process was started with', reason: 'started' })).toMatchObject({ status: 'fail', fix: expect.any(String) });
  });
});

describe.skipIf(process.platform === 'win32')('each configured server', () => {
  it("ok with what its command resolves to (node: to the app's own Node where PATH has none); fail naming the command, the PATH and the fix", () => {
    const bin = tempDir();
    const tool = executable(bin, 'some-tool');
    const empty = tempDir();
    const servers = [
      testServerDefinition('tool', { transport: { kind: 'stdio', command: 'some-tool', args: [], env: { PATH: bin } } }),
      testServerDefinition('noded', { transport: { kind: 'stdio', command: 'node', args: [], env: { PATH: empty } } }),
      testServerDefinition('missing', { transport: { kind: 'stdio', command: 'uvx', args: [], env: { PATH: empty } } }),
      testServerDefinition('strict', { transport: { kind: 'stdio', command: 'node', args: [], env: { PATH: empty }, nodeRuntime: 'system' } }),
      testServerDefinition('off', { disabled: true, transport: { kind: 'stdio', command: 'uvx', args: [], env: { PATH: empty } } }),
    ];
    const checks = new Map(serverChecks(servers, { PATH: empty }, '/home/me/.chatos/chatos/mcp.yaml', 0).map((c) => [c.id, c]));
    expect(checks.get('server:chatos::tool')).toMatchObject({ status: 'ok', facts: { resolved: tool } });
    expect(checks.get('server:chatos::noded')).toMatchObject({ status: 'ok', facts: { resolved: process.execPath, runtime: 'bundled' } });
    expect(checks.get('server:chatos::missing')).toMatchObject({ status: 'fail', summary: expect.stringContaining(empty), fix: expect.stringContaining('install uvx') });
    expect(checks.get('server:chatos::strict')).toMatchObject({ status: 'fail', fix: expect.stringContaining('nodeRuntime: bundled') });
    expect(checks.has('server:chatos::off')).toBe(false);
  });
});

describe('the headless port', () => {
  it('ok when free; a warning when something listens on it', async () => {
    const server = net.createServer();
    opened.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    expect((await headlessPortCheck(port)).status).toBe('warn');
    await new Promise((resolve) => server.close(resolve));
    opened.length = 0;
    expect((await headlessPortCheck(port)).status).toBe('ok');
  });

  it('fail when it cannot be listened on at all', async () => {
    // An address this machine does not have: the bind fails with EADDRNOTAVAIL, not "in use".
    const check = await headlessPortCheck(7357, '192.0.2.1');
    expect(check).toMatchObject({ status: 'fail', fix: expect.stringContaining('--port') });
  });
});

describe.skipIf(process.platform !== 'linux')('a UI', () => {
  it('ok with Electron or a browser and a display; a warning without a display; fail with neither Electron nor a browser', () => {
    const bin = tempDir();
    executable(bin, 'chromium');
    const browser = uiCheck({ platform: 'linux', env: { PATH: bin, DISPLAY: ':0' }, electron: false });
    expect(browser).toMatchObject({ status: 'ok', facts: { browser: path.join(bin, 'chromium') } });
    expect(uiCheck({ platform: 'linux', env: { PATH: tempDir(), WAYLAND_DISPLAY: 'wayland-0' }, electron: true }).status).toBe('ok');
    expect(uiCheck({ platform: 'linux', env: { PATH: bin }, electron: false })).toMatchObject({ status: 'warn', fix: expect.stringContaining('SSH') });
    expect(uiCheck({ platform: 'linux', env: { PATH: tempDir(), DISPLAY: ':0' }, electron: false })).toMatchObject({ status: 'fail', fix: expect.stringContaining('install a browser') });
  });
});
