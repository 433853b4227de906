import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { asJsonRpcMessage } from './jsonRpcMessage.js';
import { ChildTree, exitText, LAST_STDERR_LINE_CHARS, LAST_STDERR_LINES, markedEnvironment, OWN_PROCESS_GROUP, pipesDrained, STDERR_MAX_LINE_BYTES } from './childTree.js';
import { GIVE_UP_FACTOR, LineBuffer, OVERLONG_EDGE_BYTES, type OverlongLine } from './lineBuffer.js';
import { megabytes, overlongIdOf, overlongIsCall, tooLargeAnswer, type LargeAnswers } from './overlongAnswer.js';
import type { PidRegistry } from './pidRegistry.js';
import { ServerFaultError, type ServerFaultCode } from './serverFaultError.js';
import type { ServerLog } from './serverLog.js';

export interface ProcessTransportOptions {
  serverId: string;
  command: string;
  args: string[];
  /** The complete environment of the child, already resolved (see `serverEnvironment`). */
  env: Record<string, string>;
  cwd?: string;
  log: ServerLog;
  /** Longest stdout line accepted; default 4 MiB. A longer one is passed over (its request answered with an error); one GIVE_UP_FACTOR times longer closes the transport. */
  maxLineBytes?: number;
  /** Requests whose answer may be longer (an MCP App view's read): while one is awaited, a line up to their bound is read, and kept only when it answers one of them. */
  largeAnswers?: LargeAnswers;
  stopTimeouts?: {
    /** How long close() waits for the server to exit on stdin EOF; default 1500 ms. */
    afterStdinEndMs?: number;
    /** How long close() waits after SIGTERM before SIGKILL; default 1500 ms. */
    afterTermMs?: number;
  };
  pids?: PidRegistry;
  /**
   * Asked synchronously right before the spawn (the host's run gate): a
   * throw refuses the start and nothing is spawned.
   */
  beforeSpawn?: () => void;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The server's last stderr lines, oldest first. */
  lastStderr: string[];
  /** True when it ended on its own, before the host asked it to (a crash, not a stop). */
  unasked?: boolean;
}

/** The message for calls that failed because the server went away: names the server and what it last said. */
export function describeExit(serverId: string, info: ExitInfo): string {
  return exitText(`MCP server "${serverId}"`, info, info.lastStderr);
}

const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
const FIRST_STDERR_LINES = 10;

type Connection = { kind: 'idle' } | { kind: 'starting' } | { kind: 'open' } | { kind: 'closed' };

/**
 * A stdio MCP transport that owns the server's whole process tree: spawned
 * without a shell as the leader of its own process group, stderr always
 * drained into a bounded log, stdout framed with a hard line limit, and
 * close() ending the group (EOF → SIGTERM → SIGKILL), not just the child
 * (a launcher such as npx would otherwise leave the real server running).
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** The protocol revision the client agreed with the server (the SDK clients set it as they connect), for the Servers page. */
  protocolVersion: string | undefined;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  private connection: Connection = { kind: 'idle' };
  private child: ChildProcessWithoutNullStreams | undefined;
  /** Set as soon as the spawn gave a pid: what ends the server's process tree. */
  private tree: ChildTree | undefined;
  private exit: ExitInfo | undefined;
  private readonly stdoutLines: LineBuffer;
  private readonly stderrLines = new LineBuffer(STDERR_MAX_LINE_BYTES, 'split');
  /** This process's first stderr lines: why a server that dies as it starts died (the shared log may hold other runs' lines). */
  private readonly firstStderr: string[] = [];
  /** The ids of the requests sent and not answered yet: a line too long to read may be the answer to one of them. */
  private readonly awaited = new Set<string | number>();
  /** Those of them whose answer may be up to `largeAnswers.maxBytes`. */
  private readonly awaitedLarge = new Set<string | number>();
  /** Why the transport closed itself, when it did (not the server's exit). */
  private closedFor: string | undefined;
  /** Messages sent in this turn of the event loop are held to go to the pipe together (send). */
  private corked = false;

  constructor(private readonly options: ProcessTransportOptions) {
    this.stdoutLines = new LineBuffer(this.maxLineBytes, 'skip', this.giveUpBytes);
  }

  /** A line still going past this is no answer worth waiting for (twice a larger answer's bound, when that is more). */
  private get giveUpBytes(): number {
    return Math.max(this.maxLineBytes * GIVE_UP_FACTOR, (this.options.largeAnswers?.maxBytes ?? 0) * 2);
  }

  private get maxLineBytes(): number {
    return this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** Why the transport ended the connection itself (a line it could not frame), if it did. */
  get closedBecause(): string | undefined {
    return this.closedFor;
  }

  get serverId(): string {
    return this.options.serverId;
  }

  /** The direct child's pid (on POSIX also its process group id); undefined before start or if spawning failed. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Set once the child has exited, whoever ended it. */
  get exitInfo(): ExitInfo | undefined {
    return this.exit;
  }

  private resolveExitKnown!: (info: ExitInfo) => void;
  /** Resolves with the exit info once the child has exited and its last output is read (never, if it was not spawned). */
  readonly exitKnown = new Promise<ExitInfo>((resolve) => (this.resolveExitKnown = resolve));

  async start(): Promise<void> {
    if (this.connection.kind !== 'idle') throw new Error(`ProcessTransport for "${this.serverId}" already started`);
    // Before the state changes: a refused start leaves an idle transport that close() has nothing to end in.
    this.options.beforeSpawn?.();
    this.connection = { kind: 'starting' };
    const { command, args, cwd } = this.options;
    // Every process of the server's tree carries its marker, so ending the tree finds one that double-forked away.
    const { env, marker } = markedEnvironment(this.options.env);
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(command, args, {
        env,
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        // No shell: `&&`, `|` or `$(…)` in a plugin's args stay literal arguments.
        shell: false,
        ...OWN_PROCESS_GROUP,
      });
    } catch (error) {
      throw this.spawnFailed(error);
    }
    this.child = child;
    if (child.pid !== undefined) {
      const { log, pids } = this.options;
      this.tree = new ChildTree(child, {
        record: pids?.treeRecord(this.serverId, this.options.command, 'server', (message) => log.append('fault', message)),
        log: (kind, message) => log.append(kind, message),
        marker,
      });
    }
    this.wireStreams(child);
    return new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        this.onSpawned(child);
        resolve();
      });
      child.on('error', (error) => {
        if (this.connection.kind === 'starting') {
          reject(this.spawnFailed(error));
        } else {
          this.options.log.append('fault', `process error: ${error.message}`);
        }
      });
      child.once('exit', (code, signal) => this.onExit(code, signal).catch((error) => this.report(error)));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (this.connection.kind !== 'open' || !child || !child.stdin.writable) {
      return Promise.reject(new ServerFaultError('NOT_CONNECTED', this.serverId, `MCP server "${this.serverId}" is not connected`));
    }
    // Resolved as soon as the pipe took the bytes (as the SDK's own transport does): waiting for the write
    // callback costs a turn of the event loop per request. No callback at all: Node runs one tick per distinct
    // write callback but lets callback-less writes share one. A failed write is the stream's 'error' (logged),
    // and a server that cannot read its stdin is gone: its exit fails the calls in flight with its last words.
    const stdin = child.stdin;
    if ('method' in message) this.trackAwaited(message);
    // The messages sent before this turn of the event loop ends go to the pipe in one write: calls answered together
    // (a burst of results read at once) send the next calls together, one system call rather than one each, and the
    // server wakes once to read them. Released before the loop goes on, so no message waits for anything else.
    if (!this.corked) {
      this.corked = true;
      stdin.cork();
      process.nextTick(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    if (stdin.write(serializeMessage(message))) return Promise.resolve();
    // A full pipe: wait until it drains, or fails.
    return new Promise((resolve, reject) => {
      const settle = (error?: Error) => {
        stdin.off('drain', settle);
        stdin.off('error', settle);
        if (!error) resolve();
        else reject(new ServerFaultError('STDIN_FAILED', this.serverId, `writing to MCP server "${this.serverId}" failed: ${error.message}`, { cause: error }));
      };
      stdin.once('drain', settle);
      stdin.once('error', settle);
    });
  }

  /** Requests sent are awaited until answered, or until the client cancels them (a cancelled request may never be answered). */
  private trackAwaited(message: JSONRPCMessage): void {
    const { id, method, params } = message as { id?: string | number; method?: string; params?: { requestId?: unknown } };
    if (id !== undefined) {
      this.awaited.add(id);
      if (this.options.largeAnswers?.applies(message)) this.awaitedLarge.add(id);
    } else if (method === 'notifications/cancelled' && (typeof params?.requestId === 'string' || typeof params?.requestId === 'number')) this.answered(params.requestId);
    this.fitLineLimit();
  }

  /** A request answered (or given up): no longer awaited. */
  private answered(id: string | number): void {
    this.awaited.delete(id);
    this.awaitedLarge.delete(id);
  }

  /** Lines up to the larger bound are read only while a request that may be answered so is awaited. */
  private fitLineLimit(): void {
    const large = this.options.largeAnswers;
    this.stdoutLines.maxLineBytes = large && this.awaitedLarge.size > 0 ? Math.max(this.maxLineBytes, large.maxBytes) : this.maxLineBytes;
  }

  /** Ends the connection at once, then the process tree: resolves when no process of it is left. */
  close(): Promise<void> {
    const wasIdle = this.connection.kind === 'idle';
    this.closeConnection();
    if (wasIdle) return Promise.resolve();
    return this.stop(true);
  }

  private wireStreams(child: ChildProcessWithoutNullStreams): void {
    const { log } = this.options;
    // Every stream gets an 'error' listener: an unhandled one (EPIPE when the server died) would crash the host.
    child.stdin.on('error', (error) => log.append('fault', `stdin: ${error.message}`));
    child.stdout.on('error', (error) => log.append('fault', `stdout: ${error.message}`));
    child.stderr.on('error', (error) => log.append('fault', `stderr: ${error.message}`));
    // stdout is read until it ends, even after close(): a server blocked on a full pipe would never exit.
    child.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    child.stderr.on('data', (chunk: Buffer) => this.stderrLines.push(chunk, (line) => this.logStderr(line)));
    child.stderr.on('end', () => {
      const rest = this.stderrLines.flush();
      if (rest) this.logStderr(rest);
    });
  }

  private onSpawned(child: ChildProcessWithoutNullStreams): void {
    this.options.log.append('lifecycle', `started pid ${child.pid}: ${[this.options.command, ...this.options.args].join(' ')}`);
    if (this.connection.kind === 'starting') this.connection = { kind: 'open' };
  }

  private onStdout(chunk: Buffer): void {
    if (this.connection.kind !== 'open') return;
    const framed = this.stdoutLines.push(
      chunk,
      (line) => this.onStdoutLine(line),
      (line) => this.onOverlong(line),
    );
    if (framed) return;
    const givenUpAt = this.giveUpBytes;
    this.closedFor = `it wrote a stdout line of more than ${megabytes(givenUpAt)} (the limit of one message is ${megabytes(this.maxLineBytes)}), so the connection was closed`;
    this.fault(
      'STDOUT_LINE_TOO_LONG',
      `MCP server "${this.serverId}" wrote a stdout line over ${givenUpAt} bytes, ${givenUpAt / this.maxLineBytes} times the limit of ${this.maxLineBytes}; closing it`,
    );
    void this.close();
  }

  /**
   * A line over the limit, passed over whole: framing goes on with the next
   * line. The request it answered (its id at one of its ends, else the only
   * one awaited) is answered with an error saying how large it was, so the
   * call fails at once, in those words, and the server stays connected.
   */
  private onOverlong(line: OverlongLine): void {
    if (this.connection.kind !== 'open') return;
    const id = overlongIdOf(line);
    // Without an id to go by, the only request awaited is the one it answered, unless the line says it is the server's own call.
    const only = this.awaited.size === 1 && !overlongIsCall(line) ? this.awaited.values().next().value : undefined;
    const answered = id !== undefined ? (this.awaited.has(id) ? id : undefined) : only;
    // An answer that could have been larger is held to that bound, and its error names it (and the setting that raises it).
    const large = answered !== undefined && this.awaitedLarge.has(answered) ? this.options.largeAnswers : undefined;
    const limit = large ? Math.max(large.maxBytes, this.maxLineBytes) : this.maxLineBytes;
    this.fault(
      'STDOUT_LINE_TOO_LONG',
      `MCP server "${this.serverId}" wrote a stdout line of ${line.bytes} bytes, over the limit of ${limit}: it was dropped${answered === undefined ? '' : ` (the answer to request ${answered})`}; the connection goes on`,
    );
    if (answered === undefined) return;
    this.answered(answered);
    this.fitLineLimit();
    try {
      this.onmessage?.(tooLargeAnswer(answered, line.bytes, limit, large?.tooLargeText(limit, line.bytes)));
    } catch (error) {
      this.report(error);
    }
  }

  /**
   * A line over the usual limit was read because a larger answer was
   * awaited: it is kept only when it is that answer (its id, at one of its
   * ends); any other is passed over as if it had been too long to read.
   */
  private isAllowedLong(bytes: Buffer): boolean {
    if (bytes.length <= this.maxLineBytes) return true;
    const line = { bytes: bytes.length, head: bytes.subarray(0, OVERLONG_EDGE_BYTES), tail: bytes.subarray(Math.max(0, bytes.length - OVERLONG_EDGE_BYTES)) };
    const id = overlongIdOf(line);
    if (id !== undefined && this.awaitedLarge.has(id)) return true;
    this.onOverlong(line);
    return false;
  }

  private onStdoutLine(bytes: Buffer): void {
    if (this.connection.kind !== 'open') return;
    if (!this.isAllowedLong(bytes)) return;
    const line = bytes.toString('utf8').replace(/\r$/, '');
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.fault('NON_JSON_STDOUT', `MCP server "${this.serverId}" wrote a non-JSON line to stdout (only JSON-RPC belongs there): ${preview(line)}`);
      return;
    }
    const message = asJsonRpcMessage(json);
    if (!message) {
      this.fault('INVALID_JSONRPC', `MCP server "${this.serverId}" wrote JSON that is not a JSON-RPC message: ${preview(line)}`);
      return;
    }
    if (!('method' in message) && message.id !== undefined) {
      this.answered(message.id);
      this.fitLineLimit();
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.report(error);
    }
  }

  private logStderr(line: Buffer): void {
    const text = line.toString('utf8').replace(/\r$/, '');
    if (this.firstStderr.length < FIRST_STDERR_LINES) this.firstStderr.push(text.slice(0, LAST_STDERR_LINE_CHARS));
    this.options.log.append('stderr', text);
  }

  get firstStderrLines(): readonly string[] {
    return this.firstStderr;
  }

  private async onExit(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const unasked = this.connection.kind !== 'closed';
    this.options.log.append('lifecycle', signal ? `pid ${this.pid} killed by ${signal}` : `pid ${this.pid} exited with code ${code}`);
    // A launcher that died may leave the real server behind: end whatever is left of its tree.
    void this.stop(false);
    await pipesDrained([this.child!.stdout, this.child!.stderr]);
    const lastStderr = this.options.log.tail(LAST_STDERR_LINES, 'stderr').map((entry) => entry.text.slice(0, LAST_STDERR_LINE_CHARS));
    this.exit = { code, signal, lastStderr, unasked };
    this.resolveExitKnown(this.exit);
    if (this.connection.kind === 'closed') return;
    this.fault('SERVER_EXITED', describeExit(this.serverId, this.exit));
    this.closeConnection();
  }

  /** EOF (if asked, and only on the first call), then SIGTERM, then SIGKILL to the whole tree, each only while something of it still runs. */
  private stop(endStdinFirst: boolean): Promise<void> {
    if (!this.tree) return Promise.resolve();
    const { afterStdinEndMs = 1500, afterTermMs } = this.options.stopTimeouts ?? {};
    return this.tree.end({
      // A destroyed stdin reports through its 'error' listener.
      gentle: endStdinFirst ? { ask: () => this.child!.stdin.end(), waitMs: afterStdinEndMs, said: 'closing stdin' } : undefined,
      termGraceMs: afterTermMs,
    });
  }

  private closeConnection(): void {
    if (this.connection.kind === 'closed') return;
    this.connection = { kind: 'closed' };
    try {
      this.onclose?.();
    } catch (error) {
      this.report(error);
    }
  }

  private spawnFailed(error: unknown): ServerFaultError {
    const message = `could not start MCP server "${this.serverId}" (${this.options.command}): ${(error as Error).message}`;
    this.options.log.append('fault', message);
    this.closeConnection();
    return new ServerFaultError('SPAWN_FAILED', this.serverId, message, { cause: error });
  }

  private fault(code: ServerFaultCode, message: string): void {
    this.options.log.append('fault', message);
    this.report(new ServerFaultError(code, this.serverId, message));
  }

  /** Hands an error to onerror; nothing a callback throws may reach the pipes' event handlers. */
  private report(error: unknown): void {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // The host's error handler failed; there is no one left to tell.
    }
  }
}

function preview(line: string): string {
  return JSON.stringify(line.length > 200 ? `${line.slice(0, 200)}…` : line);
}
