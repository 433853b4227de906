import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { McpAdminError } from '../../core/facades/errors.js';
import type { SignInState } from '../../shared/mcpAuth.js';
import { globalOptions, withReadOnlyHost } from '../globalOptions.js';
import { printJson, UsageError, UserError, type CliContext } from '../output.js';

/**
 * `chatos mcp login NAME` / `chatos mcp logout NAME`: signing in to a remote
 * server from a terminal, through the same operation as the server card's
 * Sign in (host.mcp.signIn). The page to sign in on is opened in the system
 * browser and always printed, for a terminal on another machine (ssh) or
 * `--no-browser`; the browser comes back to a listener on 127.0.0.1.
 */

/** One line for a server's sign-in, for `mcp list` and `mcp login`. */
export function signInText(state: SignInState, now = Date.now()): string {
  switch (state.kind) {
    case 'none':
      return 'no sign-in';
    case 'needed':
      return `sign-in needed${state.scope ? ` (asks for ${state.scope})` : ''}`;
    case 'again':
      return `sign-in needed again: ${state.reason}`;
    case 'signed-in': {
      const who = state.account ? ` as ${state.account}` : '';
      const until =
        state.expiresAt === undefined
          ? ''
          : state.expiresAt > now
            ? ` (expires ${new Date(state.expiresAt).toISOString()}${state.refreshable ? ', renewed by itself' : ''})`
            : ' (expired; renewed at the next call)';
      return `signed in${who}${until}`;
    }
  }
}

/** The system browser on a url; where none opens (no desktop, ssh), the printed url is the way. */
function openSystemBrowser(url: string): void {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // The url is printed.
  }
}

async function signInStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof McpAdminError) throw new UserError(error.message, error.hint);
    throw error;
  }
}

export async function login(cli: CliContext, name: string, opts: { browser: boolean; timeout?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const seconds = opts.timeout === undefined ? 300 : Number(opts.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout must be a positive number of seconds, not "${opts.timeout}"`);
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  process.once('SIGINT', onInterrupt);
  try {
    const state = await withReadOnlyHost(options, (host) =>
      signInStep(() =>
        host.mcp.signIn.signIn(name, {
          signal: cancel.signal,
          timeoutMs: seconds * 1000,
          openBrowser: (url) => {
            // stderr: stdout stays the result (one JSON document with --json).
            io.err(`Open this page to sign in to ${name}:\n  ${url.href}\nWaiting for the browser (Ctrl-C cancels; gives up after ${seconds} s)…`);
            if (opts.browser) openSystemBrowser(url.href);
          },
        }),
      ),
    );
    if (options.json) printJson(io, { name, signIn: state });
    else io.out(`${name}: ${signInText(state)}`);
    cli.exitCode = 0;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

export async function logout(cli: CliContext, name: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const removed = await withReadOnlyHost(options, (host) => signInStep(() => host.mcp.signIn.signOut(name)));
  if (options.json) printJson(io, { name, signedOut: removed });
  else io.out(removed ? `signed out of ${name}` : `${name}: there was no sign-in to forget`);
  cli.exitCode = 0;
}
