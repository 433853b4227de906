import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { waitUntil } from './gatewayHost.js';
import { repoRoot } from './tempDir.js';

/**
 * The built `chatos` on a real terminal: util-linux `script` gives it a
 * pseudo-terminal (stdin, stdout and stderr all a TTY), and the test reads
 * every byte the terminal was sent and types as a user would. TERM=dumb, so
 * readline edits lines without escape sequences of its own: any ESC in what
 * the terminal got came from somewhere else.
 */
export interface TerminalSession {
  /** Every byte written to the terminal so far. */
  bytes(): Buffer;
  /** The same as text. */
  screen(): string;
  /** Waits until `text` is on the screen at or after `from`; fails with what it shows. */
  see(text: string, from?: number): Promise<void>;
  type(keys: string): void;
  exited: Promise<number | null>;
}

const sessions: ChildProcess[] = [];

export function startTerminalSession(args: string[]): TerminalSession {
  const command = [process.execPath, path.join(repoRoot, 'bin', 'chatos.js'), ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // `script` runs the CLI in a session of its own on the pseudo-terminal; detached, `script` leads a group endTerminalSessions can end.
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  sessions.push(child);
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (d: Buffer) => chunks.push(d));
  child.stderr!.on('data', (d: Buffer) => chunks.push(d));
  const bytes = () => Buffer.concat(chunks);
  const screen = () => bytes().toString('utf8');
  return {
    bytes,
    screen,
    see: (text, from = 0) =>
      waitUntil(() => screen().indexOf(text, from) !== -1, `"${text}" on the terminal`, 60_000).catch((error: Error) => {
        throw new Error(`${error.message}; it shows:\n${screen()}`);
      }),
    type: (keys) => void child.stdin!.write(keys),
    exited: new Promise((resolve) => child.once('close', resolve)),
  };
}

/** For afterEach: a failed test must not leave a session behind (`script` and the CLI under it). */
export function endTerminalSessions(): void {
  for (const child of sessions.splice(0)) {
    if (child.exitCode !== null) continue;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
}
