import {
  client,
  PROTOCOL_VERSION,
  RequestError,
  type ClientConnection,
  type LoadSessionRequest,
  type NewSessionResponse,
  type McpServer,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type StopReason,
} from '@agentclientprotocol/sdk';
import type { AuditDraft } from '../audit/auditLog.js';
import type { Agent } from '../../shared/agents.js';
import type { StopInfo } from '../../shared/chat.js';
import type { ToolConfirmationService } from '../confirmation/toolConfirmationService.js';
import type { Logger, Scheduler } from '../ports.js';
import type { PidRegistry } from '../process/pidRegistry.js';
import type { Caller } from '../tools/toolGateway.js';
import { AcpFileRefusal, readTextInRoots, writeTextInRoots } from './acpFiles.js';
import { AcpProcess } from './acpProcess.js';
import { createTerminal } from './acpTerminalRequest.js';
import { AcpTerminals } from './acpTerminals.js';
import { programFingerprint, type AcpTrust } from './acpTrust.js';
import { AcpTranscript, type TranscriptSink } from './acpTranscript.js';
import type { EndpointGrant, GatewayEndpoint } from './gatewayEndpoint.js';

export interface AcpAgentsDeps {
  endpoint: GatewayEndpoint;
  /** The trust gate, asked right before the program is spawned (docs/using/acp.md#trust). */
  trust: Pick<AcpTrust, 'check'>;
  /** The ACP session each stored conversation's program last answered in (kept on its row), to resume with `session/load`. */
  sessions: {
    saved(conversationId: string): StoredSession | undefined;
    save(conversationId: string, session: StoredSession): void;
  };
  confirmations: Pick<ToolConfirmationService, 'requestDecision'>;
  /** The conversation's workspace roots now: the only folders its agent's fs requests reach. */
  roots(conversationId: string): readonly string[];
  hostEnv: NodeJS.ProcessEnv;
  pids?: PidRegistry;
  /** Where each terminal command an agent asked for is recorded, run or refused, like a tool call. */
  audit?: (draft: AuditDraft) => void;
  scheduler: Scheduler;
  logger: Logger;
  /** How long a cancelled turn may take to answer before its process is ended. */
  cancelGraceMs?: number;
  /** Characters of text and thought one turn may stream. */
  maxAnswerChars: number;
}

/** An agent's session as a conversation keeps it: its id, and the fingerprint of the program that made it. */
export interface StoredSession {
  sessionId: string;
  program: string;
}

/** One turn to run: whose, where, with what, and where its messages go. */
export interface AcpTurnInput {
  agent: Agent;
  conversationId: string;
  caller: Caller;
  /** The folder the session starts in when the conversation has no roots. */
  fallbackCwd: string;
  artifactsDir: string;
  text: string;
  signal: AbortSignal;
  sink: TranscriptSink;
}

export interface AcpTurnOutcome {
  status: 'done' | 'stopped';
  stop?: StopInfo;
}

/** A running agent process and its session, per conversation. */
interface Live {
  agentKey: string;
  process: AcpProcess;
  connection: ClientConnection;
  sessionId: string;
  grant: EndpointGrant | undefined;
  /** The commands it runs in terminals (terminal/*): ended with the turn's cancel, the agent, the conversation. */
  terminals: AcpTerminals;
  /** The turn now running (its transcript and signal), if any. */
  turn: { transcript: AcpTranscript; signal: AbortSignal; input: AcpTurnInput } | undefined;
}

/** The host would not start the agent's program: said in the conversation with its code and fix, nothing started. */
class AcpRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

const STOPPED_BEFORE_READY = 'stopped before the agent was ready';
const DEFAULT_CANCEL_GRACE_MS = 10_000;
const USER_STOPPED: StopInfo = { kind: 'user', message: 'stopped by the user' };

/** The question's tool name: one per kind of action, so "always for this agent" covers that kind (edit, execute, fetch…). */
const permissionToolName = (kind: string | null | undefined) => `acp_${kind ?? 'other'}`;

/**
 * Agents of kind `acp` (docs/using/acp.md): each conversation with one runs
 * the agent's program once, keeps its ACP session across turns, and ends it
 * with the conversation. ChatOS is the ACP client: it offers the agent one
 * MCP server, the gateway for the ChatOS agent's caller; it answers
 * `session/request_permission` with the host's confirmation question, fs
 * requests only inside the conversation's roots, and terminal commands only at the agent's level (acpTerminals.ts).
 */
export class AcpAgents {
  private readonly live = new Map<string, Live>();

  constructor(private readonly deps: AcpAgentsDeps) {}

  async runTurn(input: AcpTurnInput): Promise<AcpTurnOutcome> {
    const transcript = new AcpTranscript(input.sink, { conversationId: input.conversationId, agentId: input.agent.id, modelId: `acp:${input.agent.id}` }, this.deps.maxAnswerChars);
    let live: Live;
    try {
      live = await this.session(input, transcript);
    } catch (error) {
      return this.failed(input, transcript, undefined, error);
    }
    if (input.signal.aborted) return this.end(transcript, { status: 'stopped', stop: USER_STOPPED });
    live.turn = { transcript, signal: input.signal, input };
    const cancel = () => this.cancel(live);
    input.signal.addEventListener('abort', cancel, { once: true });
    try {
      const response = await live.connection.agent.request('session/prompt', { sessionId: live.sessionId, prompt: [{ type: 'text', text: input.text }] });
      if (transcript.overflowed) return this.overflow(input, transcript);
      return this.end(transcript, this.outcomeOf(response.stopReason, input.signal));
    } catch (error) {
      // Stopped by the person: an agent that died of it, or that the grace ended, is no failure of its own.
      if (input.signal.aborted) return this.end(transcript, { status: 'stopped', stop: USER_STOPPED });
      return this.failed(input, transcript, live, error);
    } finally {
      input.signal.removeEventListener('abort', cancel);
      live.turn = undefined;
    }
  }

  private outcomeOf(reason: StopReason, signal: AbortSignal): AcpTurnOutcome {
    switch (reason) {
      case 'end_turn':
        return { status: 'done' };
      case 'cancelled':
        return { status: 'stopped', stop: signal.aborted ? USER_STOPPED : { kind: 'error', code: 'ACP_CANCELLED', message: 'the agent cancelled its turn' } };
      case 'max_tokens':
        return { status: 'stopped', stop: { kind: 'error', code: 'ACP_MAX_TOKENS', message: 'the agent reached its token limit', hint: 'ask it to go on' } };
      case 'max_turn_requests':
        return { status: 'stopped', stop: { kind: 'round-limit', code: 'ACP_MAX_TURN_REQUESTS', message: 'the agent reached its limit of requests in one turn', hint: 'ask it to go on' } };
      case 'refusal':
        return { status: 'stopped', stop: { kind: 'error', code: 'ACP_REFUSAL', message: 'the agent declined to answer' } };
    }
  }

  private end(transcript: AcpTranscript, outcome: AcpTurnOutcome): AcpTurnOutcome {
    transcript.flush(outcome.status === 'done' ? 'complete' : 'stopped', outcome.stop ? { stop: outcome.stop } : {});
    return outcome;
  }

  private async overflow(input: AcpTurnInput, transcript: AcpTranscript): Promise<AcpTurnOutcome> {
    await this.close(input.conversationId);
    return this.end(transcript, {
      status: 'stopped',
      stop: {
        kind: 'answer-limit',
        code: 'ACP_ANSWER_LIMIT',
        message: `the agent sent more than ${this.deps.maxAnswerChars} characters in one turn; its process was ended`,
        hint: 'ask for a shorter answer',
      },
    });
  }

  /** A turn that could not run or went wrong: the agent's process is ended, and why is said in the conversation. */
  private async failed(input: AcpTurnInput, transcript: AcpTranscript, live: Live | undefined, error: unknown): Promise<AcpTurnOutcome> {
    if (error instanceof AcpRefusal) return this.end(transcript, { status: 'stopped', stop: { kind: 'error', code: error.code, message: error.message, hint: error.fix } });
    const why = live?.process.failure() ?? (error instanceof Error ? error.message : String(error));
    await this.close(input.conversationId);
    if (live && !live.process.failure()) await live.process.close();
    return this.end(transcript, {
      status: 'stopped',
      stop: {
        kind: 'error',
        code: 'ACP_AGENT_FAILED',
        message: `the ACP agent "${input.agent.id}" failed: ${why}`,
        hint: 'check its command on the Agents page (or: chatos agents show ID); the next message starts it again',
      },
    });
  }

  /** session/cancel; an agent that does not end its turn within the grace is ended. */
  private cancel(live: Live): void {
    void live.connection.agent.notify('session/cancel', { sessionId: live.sessionId }).catch(() => undefined);
    // A command the turn started does not outlive its Stop: its whole tree is ended now, not after the agent's grace.
    void live.terminals.killAll();
    const conversationId = live.turn?.input.conversationId;
    const timer = this.deps.scheduler.setTimeout(() => {
      // Still in the same turn: the agent ignored the cancel, so its process goes (the next message starts it again).
      if (conversationId !== undefined && this.live.get(conversationId) === live && live.turn) void this.close(conversationId);
    }, this.deps.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS);
    void live.process.exited.then(() => this.deps.scheduler.clearTimeout(timer));
  }

  /**
   * The conversation's live session (the same agent command), else a new
   * process and initialize, then the conversation's earlier session resumed
   * (`session/load`, where the agent offers it), else session/new, saying
   * in the conversation that the agent starts afresh.
   */
  private async session(input: AcpTurnInput, transcript: AcpTranscript): Promise<Live> {
    const agentKey = JSON.stringify(input.agent.acp);
    const current = this.live.get(input.conversationId);
    if (current && current.agentKey === agentKey && !current.process.failure()) return current;
    if (current) await this.close(input.conversationId);
    // The gate, at the moment of spawning (as every process the host starts): a program not trusted, or changed since, starts nothing.
    const gate = this.deps.trust.check(input.agent);
    if (!gate.ok) throw new AcpRefusal(gate.code, gate.message, gate.fix);
    const roots = this.deps.roots(input.conversationId);
    const cwd = roots[0] ?? input.fallbackCwd;
    const process = new AcpProcess({ agentId: input.agent.id, command: input.agent.acp!, cwd, hostEnv: this.deps.hostEnv, ...(this.deps.pids ? { pids: this.deps.pids } : {}) });
    const terminals = new AcpTerminals({ agentId: input.agent.id, hostEnv: this.deps.hostEnv, ...(this.deps.pids ? { pids: this.deps.pids } : {}) });
    const live: Live = { agentKey, process, connection: undefined as unknown as ClientConnection, sessionId: '', grant: undefined, terminals, turn: undefined };
    // The agent gone (crashed, ended), its commands go with it.
    void process.exited.then(() => terminals.closeAll());
    await process.start();
    live.connection = this.clientFor(live, input.conversationId, input.agent).connect(process.stream);
    this.live.set(input.conversationId, live);
    const aborted = new Promise<never>((_, reject) => {
      const stop = () => reject(new Error(STOPPED_BEFORE_READY));
      if (input.signal.aborted) stop();
      input.signal.addEventListener('abort', stop, { once: true });
    });
    aborted.catch(() => undefined);
    const init = await Promise.race([
      live.connection.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: input.agent.acp!.terminal === 'ask' },
        clientInfo: { name: 'chatos', version: '0.1.0' },
      }),
      aborted,
    ]);
    const mcpServers: McpServer[] = [];
    if (init.agentCapabilities?.mcpCapabilities?.http) {
      live.grant = await this.deps.endpoint.grant({ caller: input.caller, artifactsDir: input.artifactsDir, signal: () => live.turn?.signal });
      mcpServers.push({ type: 'http', name: 'chatos', url: live.grant.url, headers: live.grant.headers });
    } else {
      this.deps.logger.warn(`ACP agent "${input.agent.id}" takes no HTTP MCP servers: it is offered none of the ChatOS agent's servers`);
    }
    const where: Omit<LoadSessionRequest, 'sessionId'> = { cwd, mcpServers, ...(roots.length > 1 ? { additionalDirectories: roots.slice(1) } : {}) };
    const program = programFingerprint(input.agent.acp!);
    const earlier = this.deps.sessions.saved(input.conversationId);
    if (earlier && earlier.program === program) {
      const resumed = init.agentCapabilities?.loadSession ? await this.load(live, earlier.sessionId, where, aborted) : 'it does not offer session/load';
      if (resumed === true) return live;
      transcript.note(`The ACP agent's earlier session could not be resumed (${resumed}): this is a new session, and the agent does not remember this conversation's earlier turns.`);
    }
    const session: NewSessionResponse = await Promise.race([live.connection.agent.request('session/new', where), aborted]);
    live.sessionId = session.sessionId;
    this.deps.sessions.save(input.conversationId, { sessionId: session.sessionId, program });
    return live;
  }

  /**
   * `session/load` of the conversation's earlier session: true, or why not.
   * The history the agent replays meanwhile is already in the conversation,
   * so it is not written again (no turn runs yet: its updates are dropped).
   */
  private async load(live: Live, sessionId: string, where: Omit<LoadSessionRequest, 'sessionId'>, aborted: Promise<never>): Promise<true | string> {
    live.sessionId = sessionId;
    try {
      await Promise.race([live.connection.agent.request('session/load', { sessionId, ...where }), aborted]);
      return true;
    } catch (error) {
      if (live.process.failure() || (error instanceof Error && error.message === STOPPED_BEFORE_READY)) throw error;
      live.sessionId = '';
      return `it answered: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** The client side of one agent's connection: every request it may make of the host. */
  private clientFor(live: Live, conversationId: string, agent: Agent) {
    const refuse = (message: string) => new RequestError(-32000, message);
    const turn = () => {
      if (!live.turn) throw refuse('no turn is running in this session');
      return live.turn;
    };
    const ownSession = (sessionId: string) => {
      if (sessionId !== live.sessionId) throw RequestError.sessionNotFound(sessionId);
    };
    const files = <T>(sessionId: string, work: (roots: readonly string[]) => T): T => {
      ownSession(sessionId);
      try {
        return work(this.deps.roots(conversationId));
      } catch (error) {
        throw refuse(error instanceof AcpFileRefusal ? error.message : `the host could not do it: ${(error as Error).message}`);
      }
    };
    const terminals = async <T>(sessionId: string, work: () => T | Promise<T>): Promise<T> => {
      ownSession(sessionId);
      if (agent.acp?.terminal !== 'ask') throw refuse('ChatOS runs no terminal for this ACP agent: the user did not allow it one (clientCapabilities.terminal is false)');
      try {
        return await work();
      } catch (error) {
        throw error instanceof AcpFileRefusal ? refuse(error.message) : error;
      }
    };
    return client({ name: 'chatos' })
      .onNotification('session/update', ({ params }) => {
        if (params.sessionId === live.sessionId) live.turn?.transcript.update(params.update);
      })
      .onRequest('session/request_permission', ({ params, signal }) => {
        ownSession(params.sessionId);
        return this.permission(turn(), params, signal);
      })
      .onRequest('fs/read_text_file', ({ params }) => ({ content: files(params.sessionId, (roots) => readTextInRoots(params, roots)) }))
      .onRequest('fs/write_text_file', ({ params }) => {
        files(params.sessionId, (roots) => writeTextInRoots(params, roots));
        return {};
      })
      .onRequest('terminal/create', ({ params, signal }) => terminals(params.sessionId, () => createTerminal(this.deps, live.terminals, turn(), params, signal)))
      .onRequest('terminal/output', ({ params }) => terminals(params.sessionId, () => live.terminals.output(params.terminalId)))
      .onRequest('terminal/wait_for_exit', ({ params }) => terminals(params.sessionId, () => live.terminals.waitForExit(params.terminalId)))
      .onRequest('terminal/kill', ({ params }) => terminals(params.sessionId, async () => (await live.terminals.kill(params.terminalId), {})))
      .onRequest('terminal/release', ({ params }) => terminals(params.sessionId, async () => (await live.terminals.release(params.terminalId), {})));
  }

  /**
   * `session/request_permission` as the host's own confirmation question
   * (the same card, scopes and audit as a tool call's): approved picks the
   * agent's allow option, anything else its reject option.
   */
  private async permission(turn: NonNullable<Live['turn']>, params: RequestPermissionRequest, requestSignal: AbortSignal): Promise<RequestPermissionResponse> {
    const { input, transcript } = turn;
    const call = params.toolCall;
    const title = call.title ?? call.toolCallId;
    const signal = AbortSignal.any([turn.signal, requestSignal]);
    const decision = await this.deps.confirmations.requestDecision(`ACP agent ${input.agent.name}`, permissionToolName(call.kind), (call.rawInput ?? {}) as Record<string, unknown>, {
      conversationId: input.conversationId,
      agentId: input.agent.id,
      callId: call.toolCallId,
      description: title,
      signal,
      risk: call.kind === 'read' || call.kind === 'search' || call.kind === 'think' ? 'low' : 'medium',
      onAsked: (request) => transcript.awaiting(call.toolCallId, title, call.rawInput, request),
    });
    if (signal.aborted) return { outcome: { outcome: 'cancelled' } };
    const kinds = decision === 'approved' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
    const option = kinds.map((kind) => params.options.find((o) => o.kind === kind)).find((o) => o !== undefined);
    return option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } };
  }

  private async closeLive(live: Live): Promise<void> {
    live.grant?.revoke();
    live.connection?.close();
    await Promise.all([live.terminals.closeAll(), live.process.close()]);
  }

  /** Ends the conversation's agent process, if one runs (the conversation closed, was deleted, or its agent failed). */
  async close(conversationId: string): Promise<void> {
    const live = this.live.get(conversationId);
    if (!live) return;
    this.live.delete(conversationId);
    await this.closeLive(live);
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.live.keys()].map((id) => this.close(id)));
    await this.deps.endpoint.close();
  }
}
