import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DiagnosticCheck } from '../../../src/shared/diagnostics.js';
import { dataHomeCheck, diskCheck } from '../../../src/core/diagnostics/dataHomeChecks.js';
import { appCheck, electronCheck, pathCheck } from '../../../src/core/diagnostics/environmentChecks.js';
import { headlessPortCheck, uiCheck } from '../../../src/core/diagnostics/faceChecks.js';
import { INHERITED_WHY } from '../../../src/core/runtime/loginShellPath.js';
import { serverChecks } from '../../../src/core/diagnostics/serverChecks.js';
import said from '../../../renderer/src/i18n/lazy/diagnosticsSaid.js';
import { testServerDefinition } from '../../helpers/serverDefinition.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/** The Diagnostics page says each check in the user's language from keys the host sends: each key has both texts, and the English one is the host's own sentence. */

const fill = (template: string, params: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? `{{${name}}}`);

/** Every state each check can be in, made for real where it can be (a file as home, a port taken, a shell that fails). */
async function everyCheck(): Promise<DiagnosticCheck[]> {
  const home = tempDir();
  const file = path.join(home, 'file');
  fs.writeFileSync(file, '');
  const bin = tempDir();
  fs.writeFileSync(path.join(bin, 'chromium'), '#!/bin/sh\n', { mode: 0o755 });
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const takenPort = (taken.address() as net.AddressInfo).port;
  const busy = await headlessPortCheck(takenPort);
  await new Promise((resolve) => taken.close(resolve));
  const definitions = [
    testServerDefinition('http', { transport: { kind: 'streamable_http', url: 'http://127.0.0.1:9/mcp', headers: {} } }),
    testServerDefinition('sh', { transport: { kind: 'stdio', command: 'sh', args: [], env: {} } }),
    testServerDefinition('bundled', { transport: { kind: 'stdio', command: 'node', args: [], env: {}, nodeRuntime: 'bundled' } }),
    testServerDefinition('nonode', { transport: { kind: 'stdio', command: 'node', args: [], env: { PATH: bin } } }),
  ];
  return [
    dataHomeCheck(file),
    dataHomeCheck(path.join(file, 'inside')),
    dataHomeCheck(home),
    dataHomeCheck(path.join(home, 'later')),
    diskCheck(home, { failBelow: 1, warnBelow: 2 }),
    diskCheck(home, { failBelow: 1, warnBelow: Number.MAX_SAFE_INTEGER }),
    diskCheck(home, { failBelow: Number.MAX_SAFE_INTEGER, warnBelow: Number.MAX_SAFE_INTEGER }),
    appCheck('1.2.3', '24.22.3', 'Node 24.22.3'),
    appCheck('1.2.3', '18.20.4', 'Node 18.20.4'),
    electronCheck('39.0.0', undefined),
    electronCheck(undefined, '/opt/ChatOS/chatos'),
    electronCheck(undefined, undefined),
    pathCheck({ kind: 'login-shell', path: '/opt/bin:/usr/bin', shell: '/bin/zsh', ms: 40 }),
    pathCheck({ kind: 'login-shell-failed', path: '/usr/bin', shell: '/bin/zsh', error: 'exit 1' }),
    pathCheck({ kind: 'inherited', path: '', why: INHERITED_WHY.started, reason: 'started' }),
    pathCheck({ kind: 'inherited', path: '/usr/bin', why: INHERITED_WHY.started, reason: 'started' }),
    pathCheck({ kind: 'inherited', path: 'C:\\Windows', why: INHERITED_WHY.windows, reason: 'windows' }),
    busy,
    await headlessPortCheck(0),
    await headlessPortCheck(7357, '192.0.2.1'),
    uiCheck({ platform: 'linux', env: { PATH: bin, DISPLAY: ':0' }, electron: false }),
    uiCheck({ platform: 'linux', env: { PATH: bin, DISPLAY: ':0' }, electron: true }),
    uiCheck({ platform: 'linux', env: { PATH: bin }, electron: false }),
    uiCheck({ platform: 'linux', env: { PATH: tempDir() }, electron: false }),
    uiCheck({ platform: 'darwin', env: {}, electron: true }),
    uiCheck({ platform: 'darwin', env: {}, electron: false }),
    // The era the http server spoke at its last start.
    ...serverChecks(definitions, { PATH: process.env.PATH }, '/home/me/.chatos/mcp.yaml', 0, new Map([['chatos::http', { era: 'modern', version: '2026-07-28' }]])),
  ];
}

describe('the words of the diagnostic checks', () => {
  it('has a Chinese and an English text for every key a check sends, and the English one reads as the host wrote it', async () => {
    const checks = await everyCheck();
    const keys = new Set<string>();
    for (const check of checks) {
      expect(check.words, `${check.id} ${check.summary}`).toBeDefined();
      const { summary, fix, params } = check.words!;
      keys.add(summary);
      const summaryKey = `diagnostics.said.${summary}`;
      expect(said.zh, summaryKey).toHaveProperty([summaryKey]);
      expect(fill(said.en[summaryKey as keyof typeof said.en], params), summaryKey).toBe(check.summary);
      if (check.fix !== undefined) {
        expect(fix, `${check.id}: a fix with no key`).toBeDefined();
        const fixKey = `diagnostics.fixSaid.${fix}`;
        expect(said.zh, fixKey).toHaveProperty([fixKey]);
        expect(fill(said.en[fixKey as keyof typeof said.en], params), fixKey).toBe(check.fix);
      }
    }
    // Every key the checks' source can send was sent above, but a disk that cannot be read and a home this user (root, here) cannot write to.
    const dir = path.join(repoRoot, 'src/core/diagnostics');
    const inSource = fs
      .readdirSync(dir)
      .flatMap((name) => [...fs.readFileSync(path.join(dir, name), 'utf8').matchAll(/said\(\s*(?:[^'()]*\?\s*)?'(\w+)'(?:\s*:\s*'(\w+)')?/g)].flatMap((m) => [m[1]!, ...(m[2] ? [m[2]] : [])]));
    expect(inSource.length).toBeGreaterThan(20);
    expect(inSource.filter((key) => !keys.has(key) && key !== 'diskUnread' && key !== 'homeNotWritable')).toEqual([]);
  });
});
