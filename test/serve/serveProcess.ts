import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'vitest';
import { repoRoot } from '../helpers/tempDir.js';
import { afterEachTest } from '../helpers/afterEachTest.js';

/** `chatos serve` as a user runs it: the built binary (npm test builds dist/ first). */
const bin = path.join(repoRoot, 'bin', 'chatos.js');
const running: ChildProcess[] = [];

afterEachTest(async () => {
  // A failed test must not leave a server behind: SIGTERM first, so `npm start`'s wrapper passes it on to its server.
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
});

export interface Served {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function serve(args: string[], script: string[] = [bin, 'serve'], env: NodeJS.ProcessEnv = {}): Served {
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'src', 'cli', 'commands', 'serve.js'))) {
    throw new Error('dist/ has no serve command: run "npm run build" (npm test does)');
  }
  const child = spawn(process.execPath, [...script, ...args], { cwd: repoRoot, env: { ...process.env, CHATOS_HOME: undefined, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits for a line on stdout that matches, looking each time the process writes; fails with what the process printed. */
export function lineMatching(served: Served, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
  const stdout = served.child.stdout!;
  return new Promise((resolve, reject) => {
    // serve()'s own listener was added first, so served.stdout() already holds each chunk when this one looks.
    const look = () => {
      const match = pattern.exec(served.stdout());
      if (match) (stop(), resolve(match));
      return match !== null;
    };
    const ended = () => look() || (stop(), reject(new Error(`chatos serve exited ${served.child.exitCode} before a line matching ${pattern}: ${served.stderr()}`)));
    // A guard against a hang, not a wait: it fails the test, naming what the process printed.
    const timer = setTimeout(() => (stop(), reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; stdout: ${served.stdout()} stderr: ${served.stderr()}`))), timeoutMs);
    const stop = () => {
      clearTimeout(timer);
      stdout.off('data', look);
      stdout.off('close', ended);
    };
    if (look()) return;
    if (stdout.closed) return void ended();
    stdout.on('data', look);
    stdout.once('close', ended);
  });
}

export async function api(url: URL, token: string, method: string, params: unknown = {}): Promise<any> {
  const res = await fetch(new URL('/api', url), { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ method, params }) });
  expect(res.status).toBe(200);
  return res.json();
}
