import { fork, type ChildProcess } from 'node:child_process';
import { serverEnvironment } from '../mcp/process/serverEnvironment.js';
import { refusalText, type RunGateAnswer } from '../policy/runGate.js';
import { ChildTree, exitText, LAST_STDERR_LINE_CHARS, LAST_STDERR_LINES, markedEnvironment, OWN_PROCESS_GROUP, pipesDrained, STDERR_MAX_LINE_BYTES, type TreeRecord } from '../process/childTree.js';
import { LineBuffer } from '../process/lineBuffer.js';
import { RunnerReplySchema, type BackendContext, type InvokeOutcome, type RunnerRequest } from './backendProtocol.js';

export interface BackendProcessOptions {
  pluginId: string;
  /** Absolute path of the plugin's `backend.entry`. */
  entry: string;
  ctx: BackendContext;
  /** The compiled `backendRunner.js`. */
  runnerPath: string;
  /** Node's own options for the process (the host-modules hook); never the host's own flags. */
  nodeArgs: readonly string[];
  env: Record<string, string>;
  /** How long loading the entry and `createUiAppsBackend(ctx)` may take. */
  startTimeoutMs: number;
  /** The backend's stderr/stdout lines and uncaught errors, for the host's log. */
  log(line: string): void;
  /** The run gate, asked right before the fork: a refusal forks nothing. */
  gate(): RunGateAnswer;
  /** Keeps track of the process while it runs: a record to reap after a crash, the processes found below it. */
  record?: TreeRecord;
}

/**
 * The environment of a backend process: the variables a plugin's MCP server
 * inherits too (PATH, HOME, locale, time zone, proxies, …; see
 * serverEnvironment.ts), so no API key or NODE_OPTIONS of the host reaches
 * plugin code. Inside Electron, `process.execPath` is the Electron binary:
 * ELECTRON_RUN_AS_NODE makes it a plain Node.
 */
export function backendEnvironment(): Record<string, string> {
  return serverEnvironment(process.env, undefined, process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {});
}

type State = { kind: 'idle' } | { kind: 'starting' } | { kind: 'running' } | { kind: 'stopping' } | { kind: 'exited'; message: string };

/** The runner gives the backend's dispose() 2 s; a little more lets it exit on its own. */
const DISPOSE_GRACE_MS = 2_500;

/**
 * One plugin backend's process: forks the runner (as the leader of its own
 * process group on POSIX, so ending it ends whatever it started), sends it
 * the entry, and matches replies to calls. When the process exits, every
 * call in flight fails at once with a message naming the plugin and what it
 * last wrote to stderr.
 */
export class BackendProcess {
  private state: State = { kind: 'idle' };
  private child: ChildProcess | undefined;
  /** Set as soon as the fork gave a pid: what ends the backend's process tree. */
  private tree: ChildTree | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (outcome: InvokeOutcome) => void>();
  private readonly stderrTail: string[] = [];
  private readonly stderrLines = new LineBuffer(STDERR_MAX_LINE_BYTES, 'split');
  private readonly stdoutLines = new LineBuffer(STDERR_MAX_LINE_BYTES, 'split');
  private onStartReply: ((outcome: { ok: true } | { ok: false; message: string }) => void) | undefined;

  constructor(private readonly options: BackendProcessOptions) {}

  get pluginId(): string {
    return this.options.pluginId;
  }

  /** Set as soon as start() forked; undefined before. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Started or starting, and not yet exited or being stopped. */
  get alive(): boolean {
    return this.state.kind === 'starting' || this.state.kind === 'running';
  }

  /** Exited or being stopped: it will answer no more calls. */
  get finished(): boolean {
    return this.state.kind === 'stopping' || this.state.kind === 'exited';
  }

  /** Forks at once (so `pid` is set when this returns), then resolves when the backend is ready or failed. */
  start(): Promise<{ ok: true } | { ok: false; message: string }> {
    if (this.state.kind !== 'idle') throw new Error(`the backend process of ${this.pluginId} was already started`);
    this.state = { kind: 'starting' };
    const { runnerPath, ctx, entry, startTimeoutMs } = this.options;
    const gate = this.options.gate();
    if (!gate.ok) return Promise.resolve(this.failStart(refusalText(gate)));
    // Every process the backend starts carries its tree's marker, so ending the tree finds one that double-forked away.
    const { env, marker } = markedEnvironment(this.options.env);
    let child: ChildProcess;
    try {
      child = fork(runnerPath, [], {
        // Inside Electron this is the Electron binary, made a plain Node by ELECTRON_RUN_AS_NODE (see backendEnvironment).
        execPath: process.execPath,
        env,
        cwd: ctx.pluginDir,
        // Not the host's flags (an --inspect port or a loader must not be inherited): only the ones the run plan shows.
        execArgv: [...this.options.nodeArgs],
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        serialization: 'json',
        ...OWN_PROCESS_GROUP,
      });
    } catch (error) {
      return Promise.resolve(this.failStart(`could not start the backend of plugin ${this.pluginId}: ${(error as Error).message}`));
    }
    this.child = child;
    if (child.pid !== undefined) {
      this.tree = new ChildTree(child, {
        record: this.options.record,
        marker,
        // Only what went wrong reaches the host's log; a backend's routine stop is not news.
        log: (kind, message) => {
          if (kind === 'fault') this.options.log(`the backend of plugin ${this.pluginId}: ${message}`);
        },
      });
    }
    this.wire(child);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.onStartReply = undefined;
        resolve({ ok: false, message: `the backend of plugin ${this.pluginId} did not get ready within ${startTimeoutMs} ms` });
        void this.stop();
      }, startTimeoutMs);
      this.onStartReply = (outcome) => {
        clearTimeout(timer);
        this.onStartReply = undefined;
        if (outcome.ok && this.state.kind === 'starting') this.state = { kind: 'running' };
        if (!outcome.ok) void this.stop();
        resolve(outcome);
      };
      this.post({ type: 'init', entry, ctx }, (error) => this.onStartReply?.({ ok: false, message: `could not start the backend of plugin ${this.pluginId}: ${error.message}` }));
    });
  }

  /** Never throws; a call the backend does not answer within `timeoutMs` fails (the process keeps running). */
  invoke(method: string, params: unknown, timeoutMs: number): Promise<InvokeOutcome> {
    if (this.state.kind === 'exited') return Promise.resolve({ ok: false, message: this.state.message });
    if (this.state.kind !== 'running') return Promise.resolve({ ok: false, message: `the backend of plugin ${this.pluginId} is ${this.state.kind}` });
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle({ ok: false, message: `the backend of plugin ${this.pluginId} did not answer "${method}" within ${timeoutMs} ms` }), timeoutMs);
      const settle = (outcome: InvokeOutcome) => {
        clearTimeout(timer);
        if (this.pending.delete(id)) resolve(outcome);
      };
      this.pending.set(id, settle);
      this.post({ type: 'invoke', id, method, params }, (error) => settle({ ok: false, message: `could not send "${method}" to the backend of plugin ${this.pluginId}: ${error.message}` }));
    });
  }

  /** Asks the backend to dispose, then SIGTERM, then SIGKILL to its process group; resolves when none of it is left. */
  stop(): Promise<void> {
    if (!this.tree) return Promise.resolve();
    if (this.alive) this.state = { kind: 'stopping' };
    return this.tree.end({
      gentle: this.child?.connected ? { ask: () => this.post({ type: 'dispose' }, () => {}), waitMs: DISPOSE_GRACE_MS, said: 'asking the backend to dispose' } : undefined,
    });
  }

  private wire(child: ChildProcess): void {
    const { log } = this.options;
    const prefix = `plugin ${this.pluginId} backend:`;
    child.stdout!.on('data', (chunk: Buffer) => this.stdoutLines.push(chunk, (line) => log(`${prefix} ${line.toString('utf8')}`)));
    child.stderr!.on('data', (chunk: Buffer) => this.stderrLines.push(chunk, (line) => this.onStderrLine(line.toString('utf8'))));
    child.stderr!.on('end', () => {
      const rest = this.stderrLines.flush();
      if (rest) this.onStderrLine(rest.toString('utf8'));
    });
    // Every stream and the channel get an 'error' listener: an unhandled one would crash the host.
    child.stdout!.on('error', () => {});
    child.stderr!.on('error', () => {});
    child.on('error', (error) => {
      log(`${prefix} process error: ${error.message}`);
      if (child.pid === undefined) this.failStart(`could not start the backend of plugin ${this.pluginId}: ${error.message}`);
    });
    child.on('message', (raw: unknown) => this.onMessage(raw));
    child.once('exit', (code, signal) => void this.onExit(child, code, signal));
  }

  private onStderrLine(line: string): void {
    const text = line.replace(/\r$/, '');
    this.stderrTail.push(text.slice(0, LAST_STDERR_LINE_CHARS));
    if (this.stderrTail.length > LAST_STDERR_LINES) this.stderrTail.shift();
    this.options.log(`plugin ${this.pluginId} backend: ${text}`);
  }

  private onMessage(raw: unknown): void {
    const parsed = RunnerReplySchema.safeParse(raw);
    if (!parsed.success) {
      this.options.log(`plugin ${this.pluginId} backend sent a malformed message: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    const reply = parsed.data;
    switch (reply.type) {
      case 'ready':
        return this.onStartReply?.({ ok: true });
      case 'init-failed':
        return this.onStartReply?.({ ok: false, message: `the backend of plugin ${this.pluginId} failed to start: ${reply.message}` });
      case 'result':
        return this.pending.get(reply.id)?.(reply.ok ? { ok: true, result: reply.result } : { ok: false, message: reply.message });
      case 'log':
        return this.options.log(`plugin ${this.pluginId} backend: ${reply.text}`);
    }
  }

  private async onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const wasStopping = this.state.kind === 'stopping';
    // The last stderr lines are the most useful part of the message; give the pipe a moment to deliver them.
    await pipesDrained([child.stderr!]);
    const message = wasStopping ? `the backend of plugin ${this.pluginId} was stopped before it answered` : this.describeExit(code, signal);
    this.state = { kind: 'exited', message };
    this.onStartReply?.({ ok: false, message });
    for (const settle of [...this.pending.values()]) settle({ ok: false, message });
    // Whatever the backend started may outlive it: end the rest of its group.
    if (!wasStopping) void this.stop();
  }

  private describeExit(code: number | null, signal: NodeJS.Signals | null): string {
    return exitText(`the backend of plugin ${this.pluginId}`, { code, signal }, this.stderrTail);
  }

  private failStart(message: string): { ok: false; message: string } {
    this.state = { kind: 'exited', message };
    this.onStartReply?.({ ok: false, message });
    return { ok: false, message };
  }

  /** Sends on the channel; a closed channel or a value IPC cannot carry (a BigInt) reaches `onError`, never a throw. */
  private post(request: RunnerRequest, onError: (error: Error) => void): void {
    const child = this.child;
    if (!child?.connected) return onError(new Error('the process is not connected'));
    try {
      child.send(request, (error) => {
        if (error) onError(error);
      });
    } catch (error) {
      onError(error as Error);
    }
  }
}
