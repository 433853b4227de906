import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from './tempDir.js';

const bin = path.join(repoRoot, 'bin', 'chatos.js');

export interface SignInRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a `chatos` command that signs in with `--no-browser` (`mcp login`, `catalog add --sign-in`) as a process of
 * its own, as a user would in a terminal, and hands the sign-in page it prints to `browser` as soon as it shows.
 * Killed after 90 s so a sign-in that never ends fails the test rather than hanging it.
 */
export function runSigningIn(args: string[], browser: (url: URL) => Promise<unknown>): Promise<SignInRun> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let opened = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    const url = /^\s+(http\S+)$/m.exec(stderr)?.[1];
    if (url && !opened) {
      opened = true;
      void browser(new URL(url));
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) => child.once('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr }))));
}
