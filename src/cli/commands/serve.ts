import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { startHeadlessServer, type HeadlessServer } from '../../serve/headlessServer.js';
import { globalOptions, withStartedHost } from '../globalOptions.js';
import { UsageError, UserError, type CliContext } from '../output.js';

export const DEFAULT_SERVE_PORT = 7357;

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || !Number.isInteger(port) || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535 (0 = any free port), not "${text}"`);
  return port;
}

function versionOf(appRoot: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(appRoot, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
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

export function registerServe(program: Command, cli: CliContext): void {
  const { io } = cli;
  program
    .command('serve')
    .description('the headless host: serves the UI on 127.0.0.1 and prints a URL carrying a random token')
    .option('--port <n>', `port to listen on, 0 = any free port (default ${DEFAULT_SERVE_PORT})`)
    .option('--no-watch', 'do not reload when mcp.yaml or plugin folders change')
    .action(async (opts: { port?: string; watch: boolean }, command: Command) => {
      const options = globalOptions(command);
      const port = opts.port === undefined ? DEFAULT_SERVE_PORT : parsePort(opts.port);
      await withStartedHost(options, async (host) => {
        const stopWatching = opts.watch ? host.watch() : () => {};
        let server: HeadlessServer;
        try {
          server = await startHeadlessServer({ host, port, rendererDir: path.join(host.appRoot, 'dist', 'renderer'), version: versionOf(host.appRoot) });
        } catch (error) {
          stopWatching();
          if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
            throw new UserError(`port ${port} on 127.0.0.1 is already in use`, `pick another with --port N, or --port 0 for any free port`);
          }
          throw error;
        }
        const signal = untilSignal();
        if (options.json) io.out(JSON.stringify({ url: server.url, port: server.port }));
        else {
          io.out(`ChatOS is serving on ${server.url}`);
          io.err('Open the URL in a browser on this machine (the token in it is the key: do not share it). Press Ctrl+C to stop.');
        }
        await signal;
        io.err('stopping: closing connections, ending servers, saving data…');
        stopWatching();
        await server.close();
      });
      cli.exitCode = 0;
    });
}
