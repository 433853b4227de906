import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { DataHome, resolveDataHome, silentLogger } from '../../core/facades/setup.js';
import { SecretError } from '../../core/facades/errors.js';
import { startHeadlessServer, type HeadlessServer } from '../../serve/headlessServer.js';
import { serveUrl, ServeToken } from '../../serve/serveToken.js';
import { answerLimitOf } from '../answerLimitOption.js';
import { globalOptions, withStartedHost, type GlobalOptions } from '../globalOptions.js';
import { UsageError, UserError, type CliContext } from '../output.js';

import { DEFAULT_SERVE_PORT } from '../../shared/servePort.js';

function parsePort(text: string, option = '--port'): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || !Number.isInteger(port) || port > 65535) throw new UsageError(`${option} must be a whole number from 0 to 65535 (0 = any free port), not "${text}"`);
  return port;
}

function versionOf(appRoot: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(appRoot, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The command that prints this server's url, as the 401 page and the banner name it (`--home` only when it is not the default). */
export function printUrlCommand(port: number, home: string | undefined): string {
  const homeArg = home !== undefined ? ` --home ${JSON.stringify(path.resolve(home))}` : '';
  return `npx chatos serve --print-url --port ${port}${homeArg}`;
}

/** What a request without the token is told: the url it needs, and how to get it. */
function unauthorizedText(port: number, home: string | undefined): string {
  return [
    'This ChatOS server needs its key, which is in the URL that "chatos serve" printed.',
    'To print that URL again, run this on the machine that runs chatos serve (from the ChatOS folder):',
    '',
    `  ${printUrlCommand(port, home)}`,
    '',
    'then open the URL it prints. (If the server was started with --new-token, an old URL no longer works.)',
  ].join('\n');
}

function tokenFailure(error: unknown): never {
  if (error instanceof SecretError) throw new UserError(error.message, error.hint);
  throw error;
}

/** `--print-url`: the url of this data home's server on `port`, from the stored token; starts nothing. */
function printUrl(options: GlobalOptions, port: number, cli: CliContext): void {
  const home = new DataHome(resolveDataHome(options.home));
  const tokens = new ServeToken(home.serveTokenFile, silentLogger);
  let token: string | undefined;
  try {
    token = tokens.peek();
  } catch (error) {
    tokenFailure(error);
  }
  if (!token) throw new UserError(`no serve token in ${tokens.path} yet`, 'start the server once: npx chatos serve (it prints the URL)');
  const url = serveUrl(port, token);
  cli.io.out(options.json ? JSON.stringify({ url, port }) : url);
  cli.exitCode = 0;
}

/** Resolves on the first SIGINT or SIGTERM; a second one gets Node's default (exit at once). */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function serve(
  cli: CliContext,
  opts: { port?: string; viewPort?: string; watch: boolean; newToken?: boolean; printUrl?: boolean; maxAnswerChars?: number; open?: string },
  command: Command,
): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const port = opts.port === undefined ? DEFAULT_SERVE_PORT : parsePort(opts.port);
  const viewPort = opts.viewPort === undefined ? 0 : parsePort(opts.viewPort, '--view-port');
  if (opts.printUrl) return printUrl(options, port, cli);
  await withStartedHost(
    options,
    async (host) => {
      const token = await new ServeToken(host.setup.home.serveTokenFile, host.setup.logger).obtain(opts.newToken ?? false).catch(tokenFailure);
      const stopWatching = opts.watch ? host.watcher.watch() : () => {};
      let server: HeadlessServer;
      try {
        server = await startHeadlessServer({
          host,
          port,
          viewPort,
          token,
          unauthorizedText: (bound) => unauthorizedText(bound, options.home),
          rendererDir: path.join(host.setup.appRoot, 'dist', 'renderer'),
          version: versionOf(host.setup.appRoot),
        });
      } catch (error) {
        stopWatching();
        if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
          const taken = (error as { port?: number }).port ?? port;
          const option = taken === viewPort && taken !== port ? '--view-port' : '--port';
          throw new UserError(`port ${taken} on 127.0.0.1 is already in use`, `pick another with ${option} N, or ${option} 0 for any free port`);
        }
        throw error;
      }
      // Held until a window takes it: the one the person opens next shows its install preview.
      if (opts.open !== undefined) server.openBundle(opts.open, process.cwd());
      const signal = untilSignal();
      if (options.json) io.out(JSON.stringify({ url: server.url, port: server.port, viewPort: server.viewPort }));
      else {
        io.out(`ChatOS is serving on ${server.url}`);
        io.err(`MCP App views run at http://<view>.localhost:${server.viewPort} (through an SSH tunnel, forward that port too).`);
        io.err('Open the URL in a browser on this machine (the token in it is the key: do not share it; it stays the same when you restart, --new-token replaces it).');
        io.err(`Print it again with: ${printUrlCommand(server.port, options.home)}. Press Ctrl+C to stop.`);
      }
      await signal;
      io.err('stopping: closing connections, ending servers, saving data…');
      stopWatching();
      await server.close();
    },
    { chat: answerLimitOf(opts.maxAnswerChars) },
  );
  cli.exitCode = 0;
}
