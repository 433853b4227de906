import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './tempDir.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  json<T = any>(): T;
}

const bin = path.join(repoRoot, 'bin', 'chatos.js');

/** Runs the built `chatos` binary as a user would (npm test builds dist/ first). */
/** `timeoutMs`: kill it (SIGKILL) if it runs longer; `code` is then null. For commands that must not hang. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): CliRun {
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is missing: run "npm run build" (npm test does)');
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs, killSignal: 'SIGKILL' as const }),
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    json() {
      return JSON.parse(result.stdout);
    },
  };
}

/** Runs the CLI under a pseudo-terminal (util-linux `script`), typing `answer` at its prompt; what it printed is in `stdout`. */
export function runCliInTerminal(args: string[], answer: string): { status: number | null; stdout: string } {
  const command = [process.execPath, bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const result = spawnSync('script', ['-qec', command, '/dev/null'], { input: `${answer}\n`, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout };
}

/**
 * Like runCli, without blocking this process: for commands that talk to a
 * server running in the test (the local provider server), which must go on
 * answering meanwhile. `input` is written to its stdin, which is then closed.
 */
export function runCliAsync(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is missing: run "npm run build" (npm test does)');
  const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) });
    });
  });
}
