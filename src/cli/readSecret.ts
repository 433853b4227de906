import * as readline from 'node:readline';
import { Writable } from 'node:stream';
import { UsageError, type CliIo } from './output.js';

const MAX_KEY_BYTES = 16 * 1024;

/**
 * An API key from stdin (`--api-key-stdin`): never from an argument, where
 * `ps` and the shell history would show it. Piped (`pass show x | chatos …`),
 * stdin is read to its end; on a terminal, one line is read without echo.
 */
export async function readSecretFromStdin(prompt: string, input: CliIo['stdin'], stderr: NodeJS.WriteStream = process.stderr, option = '--api-key-stdin'): Promise<string> {
  const key = input.isTTY ? await readHiddenLine(prompt, stderr) : await readAll(input, option);
  const trimmed = key.trim();
  if (!trimmed) throw new UsageError(`${option}: nothing was read from stdin (pipe the key in, e.g. printf %s "$KEY" | chatos …)`);
  if (/[\r\n]/.test(trimmed)) throw new UsageError(`${option}: the key has more than one line; give only the key`);
  return trimmed;
}

async function readAll(input: NodeJS.ReadableStream, option: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_KEY_BYTES) throw new UsageError(`${option}: more than ${MAX_KEY_BYTES} bytes on stdin; give only the key`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readHiddenLine(prompt: string, stderr: NodeJS.WriteStream): Promise<string> {
  stderr.write(prompt);
  // Echo goes to a sink: the typed key never appears on the terminal.
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = readline.createInterface({ input: process.stdin, output: muted, terminal: true });
  return new Promise((resolve) => {
    rl.once('line', (line) => {
      rl.close();
      stderr.write('\n');
      resolve(line);
    });
    rl.once('close', () => resolve(''));
  });
}
