import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's stdio client transport, reading and writing exactly as it does
 * (its ReadBuffer and serializeMessage), but with the server started as the
 * gateway starts its own (core/process/childTree.ts, OWN_PROCESS_GROUP): in a
 * process group and session of its own. On Linux a new session is also a
 * scheduling group of its own (autogroup), and each message to or from a
 * process of another group costs the writer more CPU: a bare client whose
 * server shares the bench's session answered echo 14-36 % faster on this
 * machine for that reason alone. A baseline that does the gateway's work
 * must place its server the same way.
 */
export class DetachedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly readBuffer = new ReadBuffer();

  constructor(private readonly server: { command: string; args: string[]; env: Record<string, string> }) {}

  start(): Promise<void> {
    const child = spawn(this.server.command, this.server.args, { env: this.server.env, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
    this.child = child;
    child.stderr.resume();
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.stdout.on('data', (chunk: Buffer) => {
      this.readBuffer.append(chunk);
      for (let message = this.readBuffer.readMessage(); message; message = this.readBuffer.readMessage()) this.onmessage?.(message);
    });
    child.on('close', () => {
      this.child = undefined;
      this.onclose?.();
    });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('not connected'));
    // As the SDK's: resolved once the pipe took the bytes, or once it drained.
    if (stdin.write(serializeMessage(message))) return Promise.resolve();
    return new Promise((resolve) => stdin.once('drain', resolve));
  }

  /** stdin closed, then the server's process group ended if it has not exited within a second. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin.end();
    const timer = setTimeout(() => {
      try {
        process.kill(process.platform === 'win32' ? child.pid! : -child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 1000);
    await exited;
    clearTimeout(timer);
  }
}
