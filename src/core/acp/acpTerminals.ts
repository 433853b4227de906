import { spawn, type ChildProcess } from 'node:child_process';
import type { CreateTerminalRequest, TerminalExitStatus, TerminalOutputResponse } from '@agentclientprotocol/sdk';
import { ServerEnvNameSchema } from '../../shared/mcp.js';
import { ChildTree, markedEnvironment, OWN_PROCESS_GROUP, pipesDrained } from '../process/childTree.js';
import { whyChangesCode } from '../process/codeVariables.js';
import type { PidRegistry } from '../process/pidRegistry.js';
import { serverEnvironment } from '../process/serverEnvironment.js';
import { AcpFileRefusal, folderInRoots } from './acpFiles.js';

/** Most output one terminal keeps (its tail), whatever the agent's `outputByteLimit` asks: the output travels in one JSON-RPC line. */
export const MAX_TERMINAL_OUTPUT_BYTES = 1024 * 1024;
/** Terminals one session may hold at once (created and not released): an agent cannot fill the machine with processes. */
const MAX_TERMINALS = 16;

/** A terminal request, checked: what the person is asked about, and what runs if they agree. */
export interface TerminalCommand {
  command: string;
  args: string[];
  /** The real folder, inside the roots. */
  cwd: string;
  /** Only the variables the request names (the host's minimal environment is added at the spawn). */
  env: Record<string, string>;
  outputByteLimit: number;
}

/**
 * Checks `terminal/create` before anyone is asked (docs/using/acp.md#terminals):
 * the cwd must really be inside the roots, and no variable may decide which
 * code runs (PATH, LD_PRELOAD, NODE_OPTIONS… the list of the trust plan):
 * the person approves the command they read, not a library or interpreter
 * option slipped in beside it. Throws the refusal the agent reads.
 */
export function checkTerminalRequest(request: CreateTerminalRequest, roots: readonly string[]): TerminalCommand {
  const cwd = folderInRoots(request.cwd, roots);
  const env: Record<string, string> = {};
  for (const { name, value } of request.env ?? []) {
    if (!ServerEnvNameSchema.safeParse(name).success) throw new AcpFileRefusal(`the environment variable name ${JSON.stringify(name)} is not a valid name`);
    const why = whyChangesCode(name);
    if (why) throw new AcpFileRefusal(`the host sets no ${name} for a command: it decides ${why}`);
    // As data: a name such as `__proto__` stays a plain key.
    Object.defineProperty(env, name, { value, enumerable: true, writable: true, configurable: true });
  }
  const asked = request.outputByteLimit;
  const outputByteLimit = asked == null || !Number.isFinite(asked) || asked < 0 ? MAX_TERMINAL_OUTPUT_BYTES : Math.min(Math.floor(asked), MAX_TERMINAL_OUTPUT_BYTES);
  return { command: request.command, args: [...(request.args ?? [])], cwd, env, outputByteLimit };
}

/** How a terminal's command ended, as the agent and the audit read it. */
export interface TerminalEnd {
  exitStatus: { exitCode: number | null; signal: string | null };
  /** Ended by the host (terminal/kill, a cancelled turn, the agent or the conversation gone), not by itself. */
  killed: boolean;
}

class Terminal {
  private tail: Buffer = Buffer.alloc(0);
  private truncated = false;
  private status: TerminalExitStatus | undefined;
  private killedByHost = false;
  readonly exited: Promise<TerminalEnd>;

  constructor(
    readonly child: ChildProcess,
    readonly tree: ChildTree,
    private readonly limit: number,
  ) {
    const take = (chunk: Buffer) => this.append(chunk);
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        // The last output the command wrote before it exited, then the status (a grandchild holding the pipes does not hold this).
        void pipesDrained([child.stdout, child.stderr].filter((s) => s !== null)).then(() => {
          this.status = { exitCode: code, signal };
          resolve({ exitStatus: { exitCode: code, signal }, killed: this.killedByHost });
        });
      }),
    );
  }

  /** Keeps the last `limit` bytes: what a command printed last is what says how it went. */
  private append(chunk: Buffer): void {
    const joined = this.tail.length === 0 ? chunk : Buffer.concat([this.tail, chunk]);
    if (joined.length > this.limit) this.truncated = true;
    this.tail = joined.length > this.limit ? Buffer.from(joined.subarray(joined.length - this.limit)) : joined;
  }

  output(): TerminalOutputResponse {
    // Cut at a character boundary: a UTF-8 sequence whose first bytes were dropped is dropped whole.
    let start = 0;
    while (start < this.tail.length && (this.tail[start]! & 0xc0) === 0x80) start++;
    return { output: this.tail.subarray(start).toString('utf8'), truncated: this.truncated, ...(this.status ? { exitStatus: this.status } : {}) };
  }

  /** Ends the command and everything it started (its own process group, and what left it). */
  kill(): Promise<void> {
    if (this.status === undefined) this.killedByHost = true;
    return this.tree.end({ termGraceMs: 500 });
  }
}

/**
 * The terminals of one ACP session (docs/using/acp.md#terminals). Each
 * command runs as written, never through a shell, as the leader of its own
 * process group, in the host's minimal environment plus the variables its
 * request named; its output is kept as a bounded tail. Every tree is ended
 * on terminal/kill and release, when a turn is cancelled, when the agent
 * exits and when the conversation ends.
 */
export class AcpTerminals {
  private readonly terminals = new Map<string, Terminal>();
  private next = 0;
  /** Set once the agent or the conversation is gone: a command approved just then must not start after the rest were ended. */
  private closed = false;

  constructor(private readonly deps: { agentId: string; hostEnv: NodeJS.ProcessEnv; pids?: PidRegistry }) {}

  /** Starts an approved command; its id, and when it ends. */
  async create(command: TerminalCommand): Promise<{ terminalId: string; exited: Promise<TerminalEnd> }> {
    if (this.closed) throw new AcpFileRefusal('the session has ended: the host runs no more commands in it');
    if (this.terminals.size >= MAX_TERMINALS) throw new AcpFileRefusal(`this session holds ${MAX_TERMINALS} terminals already; release one first (terminal/release)`);
    const { env, marker } = markedEnvironment(serverEnvironment(this.deps.hostEnv, undefined, command.env));
    const child = spawn(command.command, command.args, { cwd: command.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], shell: false, ...OWN_PROCESS_GROUP });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => reject(new AcpFileRefusal(`the command could not be started: ${error.message}`)));
    });
    const { pids } = this.deps;
    const tree = new ChildTree(child, {
      ...(pids ? { record: pids.treeRecord(`acp-terminal:${this.deps.agentId}`, command.command, 'server', () => undefined) } : {}),
      log: () => undefined,
      marker,
    });
    const terminalId = `term-${++this.next}`;
    const terminal = new Terminal(child, tree, command.outputByteLimit);
    this.terminals.set(terminalId, terminal);
    // Closed while it was starting: it goes the way the others went.
    if (this.closed) void this.closeAll();
    return { terminalId, exited: terminal.exited };
  }

  private get(terminalId: string): Terminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw new AcpFileRefusal(`no terminal ${JSON.stringify(terminalId)} in this session`);
    return terminal;
  }

  output(terminalId: string): TerminalOutputResponse {
    return this.get(terminalId).output();
  }

  async waitForExit(terminalId: string): Promise<TerminalExitStatus> {
    return (await this.get(terminalId).exited).exitStatus;
  }

  /** Ends the command; its output and exit status stay readable until released. */
  kill(terminalId: string): Promise<void> {
    return this.get(terminalId).kill();
  }

  /** Ends the command if it still runs, and forgets the terminal. */
  async release(terminalId: string): Promise<void> {
    const terminal = this.get(terminalId);
    this.terminals.delete(terminalId);
    await terminal.kill();
  }

  /** Ends every command (a cancelled turn): the terminals stay, so the agent may still read what they printed. */
  async killAll(): Promise<void> {
    await Promise.all([...this.terminals.values()].map((terminal) => terminal.kill()));
  }

  /** Ends every command and forgets every terminal (the agent or the conversation is gone). */
  async closeAll(): Promise<void> {
    this.closed = true;
    const all = [...this.terminals.values()];
    this.terminals.clear();
    await Promise.all(all.map((terminal) => terminal.kill()));
  }
}
