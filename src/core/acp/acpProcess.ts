import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { AcpCommand } from '../../shared/agents.js';
import { exitText } from '../process/childTree.js';
import type { PidRegistry } from '../process/pidRegistry.js';
import { ProcessTransport } from '../process/processTransport.js';
import { serverEnvironment } from '../process/serverEnvironment.js';
import { ServerLog } from '../process/serverLog.js';

/** Longest line an ACP agent may write (a file it sends whole in one message fits; a flood of one line does not). */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface AcpProcessOptions {
  agentId: string;
  command: AcpCommand;
  cwd: string;
  /** The host's environment: the agent inherits only its minimal part (src/core/process/serverEnvironment.ts), plus `command.env`. */
  hostEnv: NodeJS.ProcessEnv;
  pids?: PidRegistry;
}

/**
 * An ACP agent program over stdio, as the ACP SDK's `Stream`. It is started
 * the way every process of the host is (processTransport.ts): no shell, its
 * own process group, the minimal environment, stderr kept in a bounded log,
 * a hard line limit, the whole tree ended on close. A line that is not
 * JSON-RPC is no agent's answer: the process is ended and `failure` says why,
 * so the turn stops with that reason rather than waiting for ever.
 */
export class AcpProcess {
  private readonly transport: ProcessTransport;
  private readonly log = new ServerLog({ maxLines: 200, maxBytes: 64 * 1024 });
  private broken: string | undefined;
  readonly stream: Stream;

  constructor(private readonly options: AcpProcessOptions) {
    this.transport = new ProcessTransport({
      serverId: `acp:${options.agentId}`,
      command: options.command.command,
      args: options.command.args,
      env: serverEnvironment(options.hostEnv, undefined, options.command.env ?? {}),
      cwd: options.cwd,
      log: this.log,
      maxLineBytes: MAX_LINE_BYTES,
      ...(options.pids ? { pids: options.pids } : {}),
    });
    let push: ReadableStreamDefaultController<AnyMessage> | undefined;
    const readable = new ReadableStream<AnyMessage>({ start: (controller) => void (push = controller) });
    this.transport.onmessage = (message) => push?.enqueue(message as AnyMessage);
    this.transport.onerror = (error) => {
      // A malformed line means the two sides no longer agree on what was said: end it.
      if (this.broken === undefined) this.broken = error.message.replace(/^MCP server "acp:[^"]*"/, `ACP agent "${options.agentId}"`);
      void this.transport.close();
    };
    this.transport.onclose = () => {
      try {
        push?.close();
      } catch {
        // Already closed.
      }
    };
    const writable = new WritableStream<AnyMessage>({ write: (message) => this.transport.send(message as JSONRPCMessage) });
    this.stream = { readable, writable };
  }

  start(): Promise<void> {
    return this.transport.start();
  }

  /** Why the agent can no longer be talked to: a malformed message, or its exit with its last stderr lines; undefined while it runs. */
  failure(): string | undefined {
    if (this.broken !== undefined) return this.broken;
    const exit = this.transport.exitInfo;
    if (!exit) return undefined;
    return exitText(`ACP agent "${this.options.agentId}"`, exit, exit.lastStderr);
  }

  /** The exit, once known (ends with the tree). */
  get exited(): Promise<unknown> {
    return this.transport.exitKnown;
  }

  /** Ends the connection and the whole process tree. */
  close(): Promise<void> {
    return this.transport.close();
  }
}
