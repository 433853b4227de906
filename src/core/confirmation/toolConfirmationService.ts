import { randomUUID } from 'node:crypto';
import type { ApprovalScope, ConfirmationDecision, RiskLevel, ToolConfirmationRequest } from '../../shared/confirmation.js';
import type { Scheduler } from '../ports.js';

export type SummaryBuilder = (args: Record<string, unknown>) => string;

export interface ConfirmableEntry {
  toolName: string;
  risk: RiskLevel;
  summaryBuilder?: SummaryBuilder;
  /**
   * Which calls ask: those whose arguments (and calling agent, when an
   * agent calls) this answers true for (a `write` tool asks only for what
   * is not on its low-risk list). Without it, every call of the tool asks.
   */
  asks?: (args: Record<string, unknown>, callerAgentId: string | undefined) => boolean;
}

export interface ConfirmationEvents {
  required: (request: ToolConfirmationRequest) => void;
  expired: (request: ToolConfirmationRequest) => void;
  resolved: (request: ToolConfirmationRequest, decision: ConfirmationDecision) => void;
}

interface Pending {
  request: ToolConfirmationRequest;
  resolve: (decision: ConfirmationDecision) => void;
  timer: unknown;
  /** Stops listening to the call's signal once the request is settled. */
  unwatch: () => void;
}

export const CONFIRMATION_TIMEOUT_MS = 60_000;

/** Where "always allow" answers are kept (the admin DB); the service works without one. */
export interface AlwaysAllowPort {
  has(agentId: string, toolName: string): boolean;
  add(agentId: string, toolName: string, serverId: string): void;
}

export interface DecisionOptions {
  conversationId?: string;
  risk?: RiskLevel;
  agentId?: string;
  groupId?: string;
  /** The tool's own description, shown to the person asked. */
  description?: string;
  /** The call's signal: aborted before an answer (Stop, or the call's Cancel), the request is withdrawn and its card goes. */
  signal?: AbortSignal;
  /** Told the request when the user is really asked (not when an earlier approval answers at once), so the caller can say the call waits for it. */
  onAsked?(request: ToolConfirmationRequest): void;
}

/**
 * The sentence of a tool without one of its own. Faces list the arguments
 * themselves (the page's card, the CLI's question), in full; this one keeps
 * to a line, and says how much of them it leaves out rather than cutting
 * silently.
 */
function defaultSummary(serverName: string, toolName: string, args: Record<string, unknown>): string {
  const shown = JSON.stringify(args);
  const cut = shown.length > 200 ? `${shown.slice(0, 197)}… (${(shown.length - 197).toLocaleString('en')} more characters)` : shown;
  return `Run ${toolName} on ${serverName}${shown === '{}' ? '' : ` with ${cut}`}`;
}

/**
 * Asks the user before a sensitive tool runs (docs/rules/confirmation.md#confirmation). One service for
 * every face: the UI, the CLI and tests answer through `respond()`. A
 * request nobody answers is rejected after 60 s (no promise is left
 * hanging), closing the host rejects everything pending, and concurrent
 * requests are independent. Approving "for this conversation" remembers
 * (conversation, tool) so later calls pass without asking.
 */
export class ToolConfirmationService {
  private readonly confirmables = new Map<string, ConfirmableEntry>();
  private readonly pending = new Map<string, Pending>();
  private readonly approvedForConversation = new Set<string>();
  private readonly listeners: { [K in keyof ConfirmationEvents]: Set<ConfirmationEvents[K]> } = { required: new Set(), expired: new Set(), resolved: new Set() };

  constructor(
    private readonly scheduler: Scheduler,
    private readonly timeoutMs = CONFIRMATION_TIMEOUT_MS,
    /** Read at each request: the store exists only once the host has started. */
    private readonly alwaysAllow: () => AlwaysAllowPort | undefined = () => undefined,
  ) {}

  registerConfirmable(toolName: string, risk: RiskLevel, summaryBuilder?: SummaryBuilder, asks?: ConfirmableEntry['asks']): void {
    this.confirmables.set(toolName, { toolName, risk, summaryBuilder, ...(asks ? { asks } : {}) });
  }

  registerMultiple(entries: readonly ConfirmableEntry[]): void {
    for (const entry of entries) this.registerConfirmable(entry.toolName, entry.risk, entry.summaryBuilder, entry.asks);
  }

  /** Whether a call of this tool with these arguments, by this agent (if an agent calls), asks the user (a registered tool; one that asks only for some calls, for these). */
  needsConfirmation(toolName: string, args: Record<string, unknown> = {}, callerAgentId?: string): boolean {
    const entry = this.confirmables.get(toolName);
    return entry !== undefined && (entry.asks?.(args, callerAgentId) ?? true);
  }

  getRiskLevel(toolName: string): RiskLevel {
    return this.confirmables.get(toolName)?.risk ?? 'medium';
  }

  on<K extends keyof ConfirmationEvents>(event: K, listener: ConfirmationEvents[K]): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  private emit<K extends keyof ConfirmationEvents>(event: K, ...args: Parameters<ConfirmationEvents[K]>): void {
    for (const listener of this.listeners[event]) (listener as (...a: Parameters<ConfirmationEvents[K]>) => void)(...args);
  }

  /** The API of docs/rules/confirmation.md#the-services-interface: resolves true only when the user approved. */
  async requestConfirmation(serverName: string, toolName: string, args: Record<string, unknown>, options: DecisionOptions = {}): Promise<boolean> {
    return (await this.requestDecision(serverName, toolName, args, options)) === 'approved';
  }

  /** Like requestConfirmation, but tells a decline from an expiry (the audit needs both). */
  requestDecision(serverName: string, toolName: string, args: Record<string, unknown>, options: DecisionOptions = {}): Promise<ConfirmationDecision> {
    if (options.conversationId !== undefined && this.approvedForConversation.has(`${options.conversationId}\u0000${toolName}`)) {
      return Promise.resolve('approved');
    }
    if (options.agentId !== undefined && this.alwaysAllow()?.has(options.agentId, toolName)) return Promise.resolve('approved');
    if (options.signal?.aborted) return Promise.resolve('withdrawn');
    const entry = this.confirmables.get(toolName);
    const custom = entry?.summaryBuilder?.(args);
    const now = this.scheduler.now();
    const request: ToolConfirmationRequest = {
      id: randomUUID(),
      serverName,
      toolName,
      args,
      summary: custom ?? defaultSummary(serverName, toolName, args),
      ...(custom !== undefined ? { customSummary: true } : {}),
      ...(options.description ? { description: options.description } : {}),
      risk: options.risk ?? entry?.risk ?? 'medium',
      conversationId: options.conversationId,
      ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
      ...(options.groupId !== undefined ? { groupId: options.groupId } : {}),
      createdAt: now,
      expiresAt: now + this.timeoutMs,
    };
    return new Promise<ConfirmationDecision>((resolve) => {
      const timer = this.scheduler.setTimeout(() => {
        const pending = this.pending.get(request.id);
        if (!pending) return;
        this.pending.delete(request.id);
        pending.unwatch();
        this.emit('expired', request);
        this.emit('resolved', request, 'expired');
        resolve('expired');
      }, this.timeoutMs);
      const signal = options.signal;
      const withdraw = () => this.withdraw(request.id);
      signal?.addEventListener('abort', withdraw, { once: true });
      this.pending.set(request.id, { request, resolve, timer, unwatch: () => signal?.removeEventListener('abort', withdraw) });
      options.onAsked?.(request);
      this.emit('required', request);
    });
  }

  /** The user's answer. Unknown (already answered or expired) ids are ignored and reported as false. */
  respond(requestId: string, approved: boolean, scope: ApprovalScope = 'once'): boolean {
    const pending = this.pending.get(requestId);
    if (!pending) return false;
    this.pending.delete(requestId);
    this.scheduler.clearTimeout(pending.timer);
    pending.unwatch();
    const { request } = pending;
    const store = this.alwaysAllow();
    if (approved && scope === 'always' && request.agentId !== undefined && store) {
      store.add(request.agentId, request.toolName, request.serverName);
    } else if (approved && scope !== 'once' && request.conversationId !== undefined) {
      this.approvedForConversation.add(`${request.conversationId}\u0000${request.toolName}`);
    }
    const decision: ConfirmationDecision = approved ? 'approved' : 'declined';
    this.emit('resolved', request, decision);
    pending.resolve(decision);
    return true;
  }

  /** The call stopped waiting (its signal aborted): the question is taken back, answered by no one. */
  private withdraw(requestId: string): void {
    const pending = this.pending.get(requestId);
    if (!pending) return;
    this.pending.delete(requestId);
    this.scheduler.clearTimeout(pending.timer);
    this.emit('resolved', pending.request, 'withdrawn');
    pending.resolve('withdrawn');
  }

  getPendingCount(): number {
    return this.pending.size;
  }

  listPending(): ToolConfirmationRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /** A conversation ended: its "for this conversation" approvals end with it. */
  forgetConversation(conversationId: string): void {
    for (const key of this.approvedForConversation) if (key.startsWith(`${conversationId}\u0000`)) this.approvedForConversation.delete(key);
  }

  /** Declines what is still waiting for an answer in this conversation (its run was stopped); returns how many. */
  declinePending(conversationId: string): number {
    const mine = [...this.pending.values()].filter((p) => p.request.conversationId === conversationId);
    for (const pending of mine) this.respond(pending.request.id, false);
    return mine.length;
  }

  /** Rejects every pending request (the host is closing). */
  rejectAll(): void {
    for (const id of [...this.pending.keys()]) this.respond(id, false);
  }
}
