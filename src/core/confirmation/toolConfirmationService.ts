import { randomUUID } from 'node:crypto';
import type { ConfirmationDecision, RiskLevel, ToolConfirmationRequest } from '../../shared/confirmation.js';
import type { AnswerOf, QuestionCall } from '../../shared/question.js';
import type { Scheduler } from '../ports.js';
import type { QuestionBroker } from '../questions/questionBroker.js';

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
  /** The model's id of the call that asks: with `conversationId`, a face shows the question on that call's card. */
  callId?: string;
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
 * Asks the user before a sensitive tool runs (docs/rules/confirmation.md#confirmation): the kind
 * `toolConfirmation` of the question broker. This module keeps what is its
 * own (which tools ask, their summaries and risk, approvals for a
 * conversation and "always allow"); the broker holds the question, its
 * 60 s expiry, its withdrawal when the call is cancelled, and the one
 * answer every face gives through `questions.respond`. Closing the host
 * declines everything pending; concurrent requests are independent.
 */
export class ToolConfirmationService {
  private readonly confirmables = new Map<string, ConfirmableEntry>();
  private readonly approvedForConversation = new Set<string>();

  constructor(
    private readonly scheduler: Scheduler,
    private readonly broker: QuestionBroker,
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
      options.onAsked?.(request);
      this.broker.ask(
        { kind: 'toolConfirmation', ...callOf(options), request },
        {
          signal: options.signal,
          handler: {
            answer: (answer) => this.answer(request, answer),
            ended: (outcome) => resolve(outcome as ConfirmationDecision),
          },
        },
      );
    });
  }

  /** The user's answer: an approval for more than this call is remembered (for the agent, else for the conversation). */
  private answer(request: ToolConfirmationRequest, { approved, scope = 'once' }: AnswerOf<'toolConfirmation'>): boolean {
    const store = this.alwaysAllow();
    if (approved && scope === 'always' && request.agentId !== undefined && store) {
      store.add(request.agentId, request.toolName, request.serverName);
    } else if (approved && scope !== 'once' && request.conversationId !== undefined) {
      this.approvedForConversation.add(`${request.conversationId}\u0000${request.toolName}`);
    }
    return this.broker.end(request.id, approved ? 'approved' : 'declined');
  }

  /** A conversation ended: its "for this conversation" approvals end with it. */
  forgetConversation(conversationId: string): void {
    for (const key of this.approvedForConversation) if (key.startsWith(`${conversationId}\u0000`)) this.approvedForConversation.delete(key);
  }

  /** Declines what is still waiting for an answer in this conversation (its run was stopped); returns how many. */
  declinePending(conversationId: string): number {
    const mine = this.broker.list().filter((q) => q.kind === 'toolConfirmation' && q.request.conversationId === conversationId);
    for (const question of mine) this.broker.end(question.request.id, 'declined');
    return mine.length;
  }

  /** Declines every pending request (the host is closing). */
  rejectAll(): void {
    for (const question of this.broker.list()) if (question.kind === 'toolConfirmation') this.broker.end(question.request.id, 'declined');
  }
}

/** The call a confirmation is of: the model's id within its conversation (the id alone repeats across conversations). */
function callOf({ conversationId, callId }: DecisionOptions): { call?: QuestionCall } {
  return conversationId !== undefined && callId !== undefined ? { call: { conversationId, callId } } : {};
}
