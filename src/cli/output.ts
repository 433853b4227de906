import { Readable } from 'node:stream';
import type { Problem } from '../shared/problems.js';
import { formatProblem } from '../shared/problemText.js';
import { visibleControls } from '../shared/visibleText.js';

/** Where a command writes: results to stdout, problems to stderr (docs/reference/cli.md#exit-codes-and-output). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Writes to stdout as it is, no newline added (a streamed answer); absent where only lines are kept. */
  write?(text: string): void;
  /** stdout is a terminal (stream the answer) rather than a pipe or file (print it once done). */
  terminal?: boolean;
  /** Writes to stderr as it is, no newline added (the model's thinking, as it streams). */
  errWrite?(text: string): void;
  /** Asks one question on the terminal (stderr) and gives the line typed; absent when stdin is no terminal. */
  ask?(question: string): Promise<string>;
  /** What the command reads: a key (`--api-key-stdin`), a config (`mcp import -`); `isTTY` when it is a terminal. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/**
 * The process's stdout and stderr. A reader that goes away early
 * (`chatos … | head -1`) is no error: later output is dropped and the
 * command finishes its work (and saves it) as if it had been read.
 *
 * Everything a command prints passes here, and much of it comes from
 * outside (a model's answer, a tool's result, a plugin's env value, a
 * server's stderr): control characters are made visible on the way out
 * (shared/visibleText.ts), so none of it can set the clipboard, retitle
 * the window, hide the host's own question or rewrite a line. The CLI
 * writes no styling of its own; readline's line editing is the only
 * escape sequence that reaches the terminal.
 */
export function processIo(): CliIo {
  const out = writerOf(process.stdout);
  const err = writerOf(process.stderr);
  return {
    out: (text) => out(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => err(text.endsWith('\n') ? text : `${text}\n`),
    write: out,
    terminal: process.stdout.isTTY === true,
    errWrite: err,
    ...(process.stdin.isTTY ? { ask: askOnTerminal } : {}),
    stdin: process.stdin,
  };
}

/**
 * A command's output kept in memory, exactly as processIo would print it
 * (control characters made visible), with `input` as its stdin: to run the
 * CLI inside another program, as the tests do (test/helpers/runCli.ts).
 */
export function bufferedIo(input = ''): CliIo & { stdout(): string; stderr(): string } {
  let stdout = '';
  let stderr = '';
  const line = (text: string) => visibleControls(text.endsWith('\n') ? text : `${text}\n`);
  return {
    out: (text) => (stdout += line(text)),
    err: (text) => (stderr += line(text)),
    write: (text) => (stdout += visibleControls(text)),
    errWrite: (text) => (stderr += visibleControls(text)),
    terminal: false,
    stdin: Readable.from(input ? [Buffer.from(input)] : []),
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

async function askOnTerminal(question: string): Promise<string> {
  // Loaded here, not at start: only a command that asks on a terminal needs it.
  const readline = await import('node:readline/promises');
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });

  try {
    return await rl.question(visibleControls(question));
  } finally {
    rl.close();
  }
}

/** Writes what it is given, its control characters made visible, dropping it once the reader has gone. */
function writerOf(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    // Node ignores SIGPIPE, so a closed pipe arrives as EPIPE (and writes after it as a destroyed stream).
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') closed = true;
    else throw error;
  });
  return (text) => {
    if (closed || stream.destroyed) return;
    stream.write(visibleControls(text));
  };
}

/** What commands share: where to print, and the exit code their action sets. */
export interface CliContext {
  io: CliIo;
  exitCode: number;
}

export function printJson(io: CliIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

export function printProblems(io: CliIo, problems: readonly Problem[]): void {
  for (const problem of problems) io.err(formatProblem(problem));
}

/** A problem the user must fix: exit 1 with this message. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Bad usage (wrong arguments): exit 2. */
export class UsageError extends Error {}
