import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as path from 'node:path';

const require = createRequire(import.meta.url);

/** pglite-socket's server script (its package exports only the library). */
const serverScript = path.join(path.dirname(require.resolve('@electric-sql/pglite-socket')), 'scripts', 'server.js');

export interface PgServer {
  /** postgres://chatos@127.0.0.1:PORT/postgres: no password in it, as a base's URL must be. */
  url: string;
  port: number;
  /** Everything the server printed, for a failure's message. */
  output(): string;
  /** Stops the server (SIGTERM: it closes its database; SIGKILL: it dies mid-whatever) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A loopback port nobody listens on now (the server is told it; a race with another program is possible but not with ourselves). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as net.AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

/** The address of a PostgreSQL server that is not there (nothing listens on its port): an engine that is down. */
export async function absentPgUrl(): Promise<string> {
  return `postgres://chatos@127.0.0.1:${await freePort()}/postgres`;
}

/**
 * A real PostgreSQL server with pgvector on a loopback port, in its own
 * process: PGlite (PostgreSQL compiled to WASM) with its pgvector build,
 * served over PostgreSQL's wire protocol by pglite-socket, so the engine
 * talks to it with node-postgres exactly as to a team's server. `dataDir`
 * keeps its data across a stop and a start (a server restarted); without
 * it the data lives in memory. Ready when it says it listens.
 */
export async function startPgServer(options: { dataDir?: string; port?: number } = {}): Promise<PgServer> {
  const port = options.port ?? (await freePort());
  const args = [serverScript, `--port=${port}`, '--host=127.0.0.1', '--max-connections=16', '--extensions=@electric-sql/pglite-pgvector:vector', `--db=${options.dataDir ?? 'memory://'}`];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = once(child, 'exit');
  const ready = new Promise<void>((resolve, reject) => {
    const read = (data: Buffer) => {
      output += data.toString();
      if (output.includes('PGLiteSocketServer listening')) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(([code]) => reject(new Error(`the PostgreSQL test server exited (${String(code)}) before listening:\n${output}`)));
  });
  await ready;
  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://chatos@127.0.0.1:${port}/postgres`,
    port,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      (stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill(signal);
          await exited;
        }
      })()),
  };
}
