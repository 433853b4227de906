import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolConfirmationRequest } from '../../shared/confirmation.js';
import type { PermissionLevel, ServerDefinition } from '../../shared/mcp.js';
import type { Problem } from '../../shared/problems.js';
import { suggestClosest } from '../naming/suggest.js';
import { NO_ARTIFACTS, type SavedArtifact } from './artifacts.js';
import { GatewayError } from './refusals.js';
import type { AuditNote, Caller, GatewayCallOptions, OfferedTool, ResolvedTool, SourceResult, ToolSource } from './toolSource.js';

export { GatewayError } from './refusals.js';
export type { Caller, Flow, GatewayCallOptions, OfferedTool } from './toolSource.js';

export type CallDecision = 'auto' | 'approved' | 'declined' | 'expired' | 'withdrawn';
/** A decision that means the tool does not run. */
type NotRun = 'declined' | 'expired' | 'withdrawn';
const notRun = (decision: CallDecision): decision is NotRun => decision === 'declined' || decision === 'expired' || decision === 'withdrawn';

/** One call as the hooks see it; `server` is the MCP server it runs on (absent for the host's own tools and sub-agents). */
export interface CallContext {
  caller: Caller;
  tool: OfferedTool;
  server?: ServerDefinition;
  args: Record<string, unknown>;
}

/** Where permission, confirmation and audit plug in (the agents issue); the gateway works without them. */
export interface GatewayHooks {
  /** Decides whether the call may run; a confirm-level tool asks the user here. Answers at once (no promise) when no one is asked. */
  /** `signal`: the call's own; aborted while the user is asked, the question is withdrawn (decision `withdrawn`). `asked`: told the question when one is put. `callId`: the model's id of the call, so the question shows on its card. */
  beforeCall?(context: CallContext, signal?: AbortSignal, asked?: (request: ToolConfirmationRequest) => void, callId?: string): CallDecision | Promise<CallDecision>;
  afterCall?(record: CallRecord): void;
  /** A call the gateway refused before anyone was asked (access, flow, trust, a switch, an unknown tool, bad arguments). */
  afterRefusal?(record: RefusalRecord): void;
  permissionOverride?(serverId: string, rawName: string): PermissionLevel | undefined;
}

/** A refused call: who asked for which name, the server the refusal names (if any), and the refusal's code and message. */
export interface RefusalRecord {
  caller: Caller;
  toolName: string;
  serverId: string | undefined;
  code: string;
  message: string;
  durationMs: number;
  endedAt: number;
}

/** What afterCall gets: the call, how it was decided and how it ended. `error` is set only for a failed call. */
export interface CallRecord extends CallContext {
  decision: CallDecision;
  durationMs: number;
  /** When the call ended, on the host's clock (the audit's time: one clock read serves both). */
  endedAt: number;
  /** `cancelled`: the caller aborted it while it ran (the server was told). */
  outcome: 'ok' | 'tool-error' | 'failed' | 'declined' | 'cancelled';
  error: string | undefined;
  /** What the tool answered (a call that ran and ended), for the audit. */
  result: CallToolResult | undefined;
  /** What the tool's source adds to its audit line (the server mcp_release released). */
  audit: AuditNote | undefined;
}

export interface GatewayCallResult {
  result: CallToolResult;
  tool: OfferedTool;
  decision: CallDecision;
  artifacts: readonly SavedArtifact[];
  /** docs/rules/mcp-yaml.md#leases: the first lease of a stateful server asks the agent to release it when done. */
  reminders: readonly string[];
  durationMs: number;
  /** The caller cancelled it and it stopped (a sub-agent's run). */
  cancelled?: boolean;
  /** Its server's cap on what the model is sent of the result (docs/rules/gateway.md#result-size); absent: the default. */
  maxResultChars?: number;
}

export interface ToolGatewayDeps {
  now: () => number;
  hooks?: GatewayHooks;
  /** The tool sources, in the order their tools are listed; more may be registered later. */
  sources?: readonly ToolSource[];
}

/** A call that adds no reminder (nearly all): one shared, frozen list. */
const NO_REMINDERS: readonly string[] = Object.freeze([]);

/**
 * A call record as one object literal of a fixed shape: spreading the context
 * (`{ ...context, … }`) cost several microseconds per call on a warm host,
 * more than the rest of the bookkeeping together.
 */
function callRecord(
  context: CallContext,
  decision: CallDecision,
  started: number,
  ended: number,
  outcome: CallRecord['outcome'],
  error: string | undefined,
  result?: CallToolResult,
  audit?: AuditNote,
): CallRecord {
  return { caller: context.caller, tool: context.tool, server: context.server, args: context.args, decision, durationMs: ended - started, endedAt: ended, outcome, error, result, audit };
}

/** A tool of a source that reserves its name, shown in place of a server tool of the same name. */
function reservedProblem(tool: OfferedTool, owner: OfferedTool): Problem {
  const what = owner.source === 'sub-agent' ? "this agent's sub-agent" : "a tool of the host for this caller (the host's own, never a server's)";
  return {
    severity: 'warning',
    code: 'TOOL_NAME_RESERVED',
    file: tool.serverId,
    path: tool.rawName,
    message: `${tool.name} is ${what}: this server's tool of that name is not offered`,
    hint: 'rename it with a transform',
  };
}

/**
 * The only way a tool runs, whichever source it comes from (MCP servers,
 * the host's own tools, sub-agents). In order: the source that owns the
 * name resolves it for this caller (access, flow, trust: a refusal is
 * audited) → the hooks decide (permission level, confirmation; skipped
 * for a source that intercepts first, the agent's memory) → the
 * source runs it → the hooks record it. Nothing here knows a tool by name.
 */
export class ToolGateway {
  private readonly sources: ToolSource[] = [];
  /** The sources in the order they claim a name: those that intercept first (memory), then those that reserve their names. */
  private claimOrder: readonly ToolSource[] = [];

  constructor(private readonly deps: ToolGatewayDeps) {
    for (const source of deps.sources ?? []) this.register(source);
  }

  /** Adds a tool source: its tools are listed after those of the sources before it. */
  register(source: ToolSource): void {
    this.sources.push(source);
    const first = this.sources.filter((s) => s.interceptsFirst);
    this.claimOrder = [...first, ...this.sources.filter((s) => !s.interceptsFirst && s.reservesNames), ...this.sources.filter((s) => !s.interceptsFirst && !s.reservesNames)];
  }

  /** Every source's tools for this caller; a server tool whose name a reserving source took for this caller is left out, saying so. */
  async listTools(caller: Caller): Promise<{ tools: OfferedTool[]; problems: Problem[]; reminders: string[] }> {
    const listings = await Promise.all(this.sources.map((source) => source.list(caller)));
    const reserved = new Map<string, OfferedTool>();
    listings.forEach((listing, i) => {
      if (this.sources[i]!.reservesNames) for (const tool of listing.tools) if (!reserved.has(tool.name)) reserved.set(tool.name, tool);
    });
    const tools: OfferedTool[] = [];
    const problems: Problem[] = [];
    const reminders: string[] = [];
    for (const listing of listings) {
      for (const tool of listing.tools) {
        const owner = reserved.get(tool.name);
        if (owner && owner !== tool) problems.push(reservedProblem(tool, owner));
        else tools.push(tool);
      }
      problems.push(...listing.problems);
      reminders.push(...listing.reminders);
    }
    return { tools, problems, reminders };
  }

  /**
   * Runs one tool call through every check. A repeated call (its resolution
   * remembered, its decision given at once, its instance running) goes
   * through without a promise of its own until the tool answers: this is
   * every call's path, and each async step costs a promise and a saved frame.
   * Errors always arrive as a rejected promise, never thrown.
   */
  callTool(caller: Caller, toolName: string, args: Record<string, unknown>, options?: GatewayCallOptions): Promise<GatewayCallResult> {
    const started = this.deps.now();
    try {
      const reminders: string[] = [];
      const found = this.claim(caller, toolName, reminders, 0);
      if (found === undefined) throw this.unknown(caller, toolName);
      if (!(found instanceof Promise)) return this.decideAndCall(found.source, { caller, tool: found.resolved.tool, server: found.resolved.server, args }, started, NO_REMINDERS, options);
      return found.then(
        (claimed) =>
          claimed
            ? this.decideAndCall(claimed.source, { caller, tool: claimed.resolved.tool, server: claimed.resolved.server, args }, started, reminders.length ? reminders : NO_REMINDERS, options)
            : this.refused(caller, toolName, this.unknown(caller, toolName), started),
        (error: unknown) => this.refused(caller, toolName, error, started),
      );
    } catch (error) {
      return this.refused(caller, toolName, error, started);
    }
  }

  /** The first source, in claim order, whose name this is for the caller; at once when every source answered at once. */
  private claim(caller: Caller, toolName: string, reminders: string[], from: number): Claimed | undefined | Promise<Claimed | undefined> {
    for (let i = from; i < this.claimOrder.length; i++) {
      const source = this.claimOrder[i]!;
      const resolved = source.resolve(caller, toolName, reminders);
      if (resolved === undefined) continue;
      if (!(resolved instanceof Promise)) return { source, resolved };
      return resolved.then((answer) => (answer ? { source, resolved: answer } : this.claim(caller, toolName, reminders, i + 1)));
    }
    return undefined;
  }

  /** No source has this name for this caller: the names it may use that are close. */
  private unknown(caller: Caller, toolName: string): GatewayError {
    const close = suggestClosest(
      toolName,
      this.sources.flatMap((source) => [...source.names(caller)]),
    );
    return new GatewayError(
      'UNKNOWN_TOOL',
      `no tool "${toolName}" is offered to ${caller.appId} (${caller.flow} flow)${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`,
      `see the tools it is offered: chatos tools ${caller.agentId ? `--agent ${caller.agentId}` : `--app ${caller.appId}`} --flow ${caller.flow}`,
    );
  }

  /** A refusal leaves a trace like any call (off the hot path: only a refusal gets here), then reaches the caller. */
  private refused(caller: Caller, toolName: string, error: unknown, started: number): Promise<never> {
    if (error instanceof GatewayError) this.recordRefusal(caller, toolName, error.serverId, error.code, error.message, started);
    return Promise.reject(error);
  }

  private recordRefusal(caller: Caller, toolName: string, serverId: string | undefined, code: string, message: string, started: number): void {
    const ended = this.deps.now();
    this.deps.hooks?.afterRefusal?.({ caller, toolName, serverId, code, message, durationMs: ended - started, endedAt: ended });
  }

  /** The hooks decide (a confirm-level tool waits for the user); a decision given at once is not awaited. */
  private decideAndCall(source: ToolSource, context: CallContext, started: number, reminders: readonly string[], options: GatewayCallOptions | undefined): Promise<GatewayCallResult> {
    // docs/rules/gateway.md#memory: a source that intercepts first (memory) is served before the confirmation step.
    const decision = source.interceptsFirst ? 'auto' : (this.deps.hooks?.beforeCall?.(context, options?.signal, options?.onAsked, options?.callId) ?? 'auto');
    if (typeof decision !== 'string')
      return Promise.resolve(decision).then((answer) => {
        if (answer === 'approved') options?.onApproved?.();
        return this.callDecided(source, context, answer, started, reminders, options);
      });
    return this.callDecided(source, context, decision, started, reminders, options);
  }

  private callDecided(
    source: ToolSource,
    context: CallContext,
    decision: CallDecision,
    started: number,
    reminders: readonly string[],
    options: GatewayCallOptions | undefined,
  ): Promise<GatewayCallResult> {
    if (notRun(decision)) return Promise.resolve(this.declined(context, decision, started, reminders));
    return this.run(source, context, decision, started, reminders, options);
  }

  private declined(context: CallContext, decision: NotRun, started: number, reminders: readonly string[]): GatewayCallResult {
    const toolName = context.tool.name;
    const said = {
      declined: `The user declined to run ${toolName}.`,
      expired: `No one confirmed ${toolName} in time, so it was not run.`,
      withdrawn: `The call of ${toolName} was cancelled before anyone confirmed it, so it was not run.`,
    }[decision];
    const result: CallToolResult = { content: [{ type: 'text', text: said }], isError: true };
    const ended = this.deps.now();
    this.deps.hooks?.afterCall?.(callRecord(context, decision, started, ended, decision === 'withdrawn' ? 'cancelled' : 'declined', undefined));
    return { result, tool: context.tool, decision, artifacts: NO_ARTIFACTS, reminders, durationMs: ended - started };
  }

  /** The source runs the call; the hooks record how it ended. Kept small: its frame is saved while the tool works. */
  private async run(
    source: ToolSource,
    context: CallContext,
    decision: CallDecision,
    started: number,
    reminders: readonly string[],
    options: GatewayCallOptions | undefined,
  ): Promise<GatewayCallResult> {
    let out: SourceResult;
    try {
      out = await source.call({ caller: context.caller, tool: context.tool, server: context.server, args: context.args, started, reminders }, options);
    } catch (error) {
      const refusal = error instanceof GatewayError ? { code: error.code, message: error.message, serverId: error.serverId } : source.refusalOf?.(error);
      if (refusal) this.recordRefusal(context.caller, context.tool.name, refusal.serverId, refusal.code, refusal.message, started);
      // The tool may have run even so (saving its images failed): the audit keeps a record of it.
      else this.deps.hooks?.afterCall?.(callRecord(context, decision, started, this.deps.now(), options?.signal?.aborted ? 'cancelled' : 'failed', (error as Error).message));
      throw error;
    }
    const ended = this.deps.now();
    const { result } = out;
    this.deps.hooks?.afterCall?.(callRecord(context, decision, started, ended, out.cancelled ? 'cancelled' : result.isError ? 'tool-error' : 'ok', undefined, result, out.audit));
    const all = out.reminders ? [...reminders, ...out.reminders] : reminders;
    // The optional fields are set, not spread in: spreading even an empty object copies through a slow path on every call.
    const answer: GatewayCallResult = { result, tool: context.tool, decision, artifacts: out.artifacts ?? NO_ARTIFACTS, reminders: all, durationMs: ended - started };
    if (out.cancelled) answer.cancelled = true;
    if (out.maxResultChars !== undefined) answer.maxResultChars = out.maxResultChars;
    return answer;
  }
}

/** A source that took a name, and what it resolved. */
interface Claimed {
  source: ToolSource;
  resolved: ResolvedTool;
}
