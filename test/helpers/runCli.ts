import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { repoRoot } from './tempDir.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  json<T = any>(): T;
}

const bin = path.join(repoRoot, 'bin', 'chatos.js');
const bundle = path.join(repoRoot, 'dist', 'cli', 'chatos.cjs');

interface CliBundle {
  runCli(argv: string[], io: unknown): Promise<number>;
  bufferedIo(input?: string): { stdout(): string; stderr(): string };
}

let loaded: Promise<CliBundle> | undefined;

function builtCli(): Promise<CliBundle> {
  if (!fs.existsSync(bundle)) throw new Error('dist/ is missing: run "npm run build" (npm test does)');
  // Required, as bin/chatos.js does: the chunks it loads when a command runs require it back, and an import() through
  // the test runner's module loader would give them a second copy (with classes of its own: `instanceof UserError` fails).
  loaded ??= Promise.resolve(createRequire(import.meta.url)(bundle) as CliBundle);
  return loaded;
}

/**
 * Runs the built `chatos` command (the bundle bin/chatos.js runs) inside
 * this process: the same code, arguments, data home and output as a user's
 * run, without a process start (~0.45 s each: the bundle and sql.js's
 * WebAssembly, compiled anew every time). `input` is its stdin. Where the
 * process itself is the subject (exit on a signal, a terminal, memory, two
 * processes at once, an environment of its own), use runCliProcess.
 *
 * `timeoutMs`: a command that has not finished by then fails the test,
 * naming it, instead of waiting for the test's own timeout.
 */
export async function runCli(args: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  const cli = await builtCli();
  const io = cli.bufferedIo(options.input);
  const run = cli.runCli(args, io);
  let timer: NodeJS.Timeout | undefined;
  const limit = options.timeoutMs ?? 120_000;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`chatos ${args.slice(0, 2).join(' ')} did not finish within ${limit} ms; stderr so far:\n${io.stderr().slice(-2000)}`)), limit);
  });
  try {
    const code = await Promise.race([run, hung]);
    const stdout = io.stdout();
    return { code, stdout, stderr: io.stderr(), json: () => JSON.parse(stdout) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the built `chatos` binary in a process of its own, as a user does, and
 * waits for it: for tests whose subject is the process (its exit code on a
 * hang, its environment, what it loads). `timeoutMs`: kill it (SIGKILL) if it
 * runs longer; `code` is then null.
 */
export function runCliProcess(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): CliRun {
  if (!fs.existsSync(bundle)) throw new Error('dist/ is missing: run "npm run build" (npm test does)');
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
 * Like runCliProcess, without blocking this process: for a process that
 * talks to a server running in the test (the local provider server), which
 * must go on answering meanwhile. `input` is written to its stdin, which is
 * then closed.
 */
export function runCliProcessAsync(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return spawnCli([], args, options).then(({ stdoutBytes: _bytes, ...run }) => run);
}

/** What a CLI run used, as the process saw itself at its exit: peak resident memory and CPU time (user and system). */
export interface CliUsage {
  maxRssKiB: number;
  cpuMs: number;
}

/**
 * Like runCliProcessAsync, and what the run used (a hook loaded with --require
 * writes process.resourceUsage() at exit): for tests of a run's memory. Only
 * the first MiB of stdout is kept; `stdoutBytes` counts all of it.
 */
export async function runCliMeasured(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<CliRun & { stdoutBytes: number; usage: CliUsage }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-cli-usage-'));
  try {
    const hook = path.join(dir, 'usage.cjs');
    const report = path.join(dir, 'usage.json');
    fs.writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.resourceUsage())));\n`);
    const run = await spawnCli(['--require', hook], args, { ...options, keepStdout: 1024 * 1024 });
    if (!fs.existsSync(report))
      throw new Error(`chatos ${args.slice(0, 2).join(' ')} did not finish${run.code === null ? ` within ${options.timeoutMs ?? 60_000} ms (killed)` : ''}: ${run.stderr.slice(-2000)}`);
    const used = JSON.parse(fs.readFileSync(report, 'utf8')) as NodeJS.ResourceUsage;
    return { ...run, usage: { maxRssKiB: used.maxRSS, cpuMs: (used.userCPUTime + used.systemCPUTime) / 1000 } };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function spawnCli(nodeArgs: string[], args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; keepStdout?: number }): Promise<CliRun & { stdoutBytes: number }> {
  if (!fs.existsSync(bundle)) throw new Error('dist/ is missing: run "npm run build" (npm test does)');
  const child = spawn(process.execPath, [...nodeArgs, bin, ...args], { cwd: repoRoot, env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stdoutBytes = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (options.keepStdout === undefined || stdout.length < options.keepStdout) stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stdoutBytes, stderr, json: () => JSON.parse(stdout) });
    });
  });
}
