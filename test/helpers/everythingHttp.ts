import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEachFile, afterEachTest } from './afterEachTest.js';
import { freePort } from './freePort.js';
import { EVERYTHING_SERVER } from './mcpYaml.js';

async function stopAll(children: ChildProcess[]): Promise<void> {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

const perTest: ChildProcess[] = [];
const perFile: ChildProcess[] = [];
afterEachTest(() => stopAll(perTest));
afterEachFile(() => stopAll(perFile));

/**
 * Starts server-everything over streamable HTTP on a free port of 127.0.0.1
 * (ended after the test). It reads its port from $PORT and says "listening
 * on port N" on stderr once bound; a port taken between choosing and
 * binding makes it exit, so retry.
 */
export const startHttpEverything = (): Promise<number> => startInto(perTest);

/**
 * As startHttpEverything, ended after the file's last test: for a file whose
 * tests each run many commands against it, where a server process per
 * command (stdio) is most of the file's time. Each connection is a session
 * of its own on the server, so tests do not see each other's state.
 */
export const startHttpEverythingForFile = (): Promise<number> => startInto(perFile);

async function startInto(children: ChildProcess[]): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING_SERVER, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let stderr = '';
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 20_000);
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes(`listening on port ${port}`)) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (ready) return port;
    if (attempt >= 3) throw new Error(`server-everything did not start over HTTP:\n${stderr}`);
  }
}
