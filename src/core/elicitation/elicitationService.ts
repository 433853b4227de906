import { randomUUID } from 'node:crypto';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationAction, ElicitationContent, ElicitationOutcome, ElicitationRequest } from '../../shared/elicitation.js';
import type { ElicitationAuditEvent } from '../audit/elicitationAudit.js';
import type { Asker } from '../mcp/client/clientFeatures.js';
import { isPlainObject } from '../plainObject.js';
import type { Scheduler } from '../ports.js';
import { sharedCallerIds } from '../tools/sharedCallerIds.js';
import type { Caller } from '../tools/toolSource.js';
import { checkElicitationUrl } from './elicitationUrl.js';
import { ElicitationError } from './elicitationError.js';
import { validateContent } from './formContent.js';
import { checkForm, messageProblem } from './requestedSchema.js';

/** How long a question waits for the user before the host answers `cancel` for them. */
export const ELICITATION_TIMEOUT_MS = 10 * 60_000;

/** Per server: questions waiting at once, and questions asked in a minute (docs/using/elicitation.md#what-is-refused). */
export const ELICITATION_RATE = { pending: 1, perMinute: 20 };

/** What the server gets back (the spec's ElicitResult). */
export interface ElicitationAnswer {
  action: ElicitationAction;
  content?: ElicitationContent;
  [key: string]: unknown;
}

/** One question as it arrived: who asks, its raw params, who was calling, and the signal that takes it back. */
export interface ElicitationAsk {
  asker: Asker;
  params: Record<string, unknown>;
  callers: readonly Caller[];
  signal: AbortSignal;
}

export interface ElicitationEvents {
  required: (request: ElicitationRequest) => void;
  resolved: (request: ElicitationRequest, outcome: ElicitationOutcome) => void;
}

export interface ElicitationServiceDeps {
  scheduler: Scheduler;
  /** Where asked, answered and refused questions are recorded; never a value the user typed. */
  audit(event: ElicitationAuditEvent): void;
  timeoutMs?: number;
}

interface Pending {
  request: ElicitationRequest;
  caller: Caller | undefined;
  /** A url question's `elicitationId`, by which the server may say it is complete (keyed with its instance). */
  completionKey?: string;
  fieldNames?: string[];
  timer: unknown;
  unwatch(): void;
  resolve(answer: ElicitationAnswer): void;
}

/** Accepted url questions remembered for the server's notifications/elicitation/complete; the oldest are forgotten first. */
const OPENED_KEPT = 100;
/** Characters of an `elicitationId` kept: a longer one is no id the host will match. */
const MAX_ELICITATION_ID_CHARS = 256;

/** A url question's completion key: its server instance and its `elicitationId`, so no other instance can complete it. */
const completionKeyOf = (asker: Asker, elicitationId: unknown): string | undefined =>
  typeof elicitationId === 'string' && elicitationId.length > 0 && elicitationId.length <= MAX_ELICITATION_ID_CHARS
    ? `${asker.definition.id}\u0000${asker.lease ?? ''}\u0000${elicitationId}`
    : undefined;

/**
 * The questions servers put to the user (MCP elicitation, docs/using/elicitation.md): each is
 * checked (a form's schema, a url), limited per server, then waits for a
 * face's answer through `respond()`, which checks an accepted form again.
 * Nobody answering in time is `cancel` (outcome `expired`); the call that
 * asked ending first takes the question back (`withdrawn`). Every face
 * answers through this one service, and the audit records each question.
 */
export class ElicitationService {
  private readonly pending = new Map<string, Pending>();
  /** Per server: the ids of its questions waiting now, and when it asked in the last minute. */
  private readonly waiting = new Map<string, Set<string>>();
  private readonly recent = new Map<string, number[]>();
  /** Per server and limit: the minute whose refusal was recorded (a loop is recorded once a minute, not once a request). */
  private readonly refusalNoted = new Map<string, number>();
  /** Url questions waiting, by completion key; and those the user accepted (opened), which the server may still say are complete. */
  private readonly pendingByCompletion = new Map<string, string>();
  private readonly opened = new Map<string, { request: ElicitationRequest; caller: Caller | undefined }>();
  private readonly listeners: { [K in keyof ElicitationEvents]: Set<ElicitationEvents[K]> } = { required: new Set(), resolved: new Set() };
  private readonly timeoutMs: number;

  constructor(private readonly deps: ElicitationServiceDeps) {
    this.timeoutMs = deps.timeoutMs ?? ELICITATION_TIMEOUT_MS;
  }

  on<K extends keyof ElicitationEvents>(event: K, listener: ElicitationEvents[K]): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  private emit<K extends keyof ElicitationEvents>(event: K, ...args: Parameters<ElicitationEvents[K]>): void {
    for (const listener of this.listeners[event]) (listener as (...a: Parameters<ElicitationEvents[K]>) => void)(...args);
  }

  /** The questions waiting for an answer, oldest first. */
  list(): ElicitationRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /**
   * A server's question: checked, limited, then put to the user; resolves
   * with the answer for the server. A refusal is thrown as the MCP error the
   * server gets, with the reason.
   */
  ask(ask: ElicitationAsk): Promise<ElicitationAnswer> {
    const { definition } = ask.asker;
    const now = this.deps.scheduler.now();
    const caller = ask.callers[0];
    const refuse = (code: string, reason: string, what: Partial<ElicitationAuditEvent> = {}): never => {
      this.deps.audit({ at: now, serverId: definition.id, ...(caller ? { caller } : {}), step: { kind: 'refused', code, reason }, ...what });
      throw new McpError(code === 'RATE_LIMITED' ? ErrorCode.InvalidRequest : ErrorCode.InvalidParams, `ChatOS refused the elicitation: ${reason}`);
    };
    this.limit(definition.id, now, refuse);
    const { params } = ask;
    const mode = params.mode ?? 'form';
    const problem = messageProblem(params.message);
    if (problem) refuse('ELICITATION_REFUSED', problem);
    const common = {
      id: randomUUID(),
      serverId: definition.id,
      serverName: definition.name,
      message: params.message as string,
      ...sharedCallerIds(ask.callers),
      createdAt: now,
      expiresAt: now + this.timeoutMs,
    };
    let request: ElicitationRequest;
    let fieldNames: string[] | undefined;
    if (mode === 'form') {
      const form = checkForm(params.message, params.requestedSchema);
      if (!form.ok) return refuse('ELICITATION_REFUSED', form.reason, { mode: 'form' });
      fieldNames = form.fields.map((field) => field.name);
      request = { ...common, mode: 'form', fields: form.fields };
    } else if (mode === 'url') {
      const url = checkElicitationUrl(params.url);
      if (!url.ok) return refuse('ELICITATION_REFUSED', url.reason, { mode: 'url' });
      request = { ...common, mode: 'url', url: url.url, domain: url.domain, lookAlike: url.lookAlike };
    } else {
      return refuse('ELICITATION_REFUSED', `mode ${JSON.stringify(mode)} is neither "form" nor "url"`);
    }
    if (ask.signal.aborted) return Promise.resolve({ action: 'cancel' });
    const completionKey = mode === 'url' ? completionKeyOf(ask.asker, params.elicitationId) : undefined;
    return this.put(request, caller, fieldNames, ask.signal, completionKey);
  }

  /** At most ELICITATION_RATE.pending questions waiting and ELICITATION_RATE.perMinute asked a minute, per server. */
  private limit(serverId: string, now: number, refuse: (code: string, reason: string) => never): void {
    const minuteAgo = now - 60_000;
    const times = (this.recent.get(serverId) ?? []).filter((t) => t > minuteAgo);
    this.recent.set(serverId, times);
    const waiting = this.waiting.get(serverId)?.size ?? 0;
    const over =
      waiting >= ELICITATION_RATE.pending
        ? { kind: 'waiting', reason: `server "${serverId}" already has a question waiting for the user; ask one at a time` }
        : times.length >= ELICITATION_RATE.perMinute
          ? { kind: 'minute', reason: `server "${serverId}" asked ${times.length} questions in the last minute; at most ${ELICITATION_RATE.perMinute}` }
          : undefined;
    if (!over) {
      times.push(now);
      return;
    }
    // A server asking in a loop is recorded once a minute for each limit, not once a request.
    const minute = Math.floor(now / 60_000);
    const noted = `${serverId}\u0000${over.kind}`;
    if (this.refusalNoted.get(noted) === minute) throw new McpError(ErrorCode.InvalidRequest, `ChatOS refused the elicitation: ${over.reason}`);
    this.refusalNoted.set(noted, minute);
    refuse('RATE_LIMITED', over.reason);
  }

  private put(request: ElicitationRequest, caller: Caller | undefined, fieldNames: string[] | undefined, signal: AbortSignal, completionKey?: string): Promise<ElicitationAnswer> {
    return new Promise<ElicitationAnswer>((resolve) => {
      const timer = this.deps.scheduler.setTimeout(() => this.end(request.id, 'expired', { action: 'cancel' }), this.timeoutMs);
      const withdraw = () => this.end(request.id, 'withdrawn', { action: 'cancel' });
      signal.addEventListener('abort', withdraw, { once: true });
      this.pending.set(request.id, {
        request,
        caller,
        ...(fieldNames ? { fieldNames } : {}),
        ...(completionKey ? { completionKey } : {}),
        timer,
        unwatch: () => signal.removeEventListener('abort', withdraw),
        resolve,
      });
      if (completionKey) this.pendingByCompletion.set(completionKey, request.id);
      const waiting = this.waiting.get(request.serverId) ?? new Set<string>();
      this.waiting.set(request.serverId, waiting.add(request.id));
      this.audit(request, caller, fieldNames, { kind: 'asked' }, 0);
      this.emit('required', request);
    });
  }

  /**
   * The user's answer. An accepted form is checked against its fields (an
   * ElicitationError names each field and what is wrong; the question stays
   * waiting); keys that are no field are dropped. False for an id that is
   * not waiting (answered, expired or withdrawn).
   */
  respond(id: string, action: ElicitationAction, content?: unknown): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    const { request } = pending;
    if (action !== 'accept' || request.mode === 'url') return this.end(id, action, { action });
    const checked = validateContent(request.fields, content ?? {});
    if (!checked.ok) {
      const fields = checked.errors.map((e) => ({ path: e.field, message: e.message }));
      throw new ElicitationError('INVALID', `the answer does not fit the form: ${checked.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, fields);
    }
    return this.end(id, 'accept', { action: 'accept', content: checked.content });
  }

  /**
   * The server's notifications/elicitation/complete (url mode, docs/using/elicitation.md#url-questions):
   * a url question of this instance still waiting ends as `completed` (the
   * server gets accept, the card closes); one the user already accepted is
   * recorded as completed. An id this instance never asked with is ignored
   * (false).
   */
  complete(asker: Asker, elicitationId: unknown): boolean {
    const key = completionKeyOf(asker, elicitationId);
    if (key === undefined) return false;
    const waiting = this.pendingByCompletion.get(key);
    if (waiting !== undefined) return this.end(waiting, 'completed', { action: 'accept' });
    const opened = this.opened.get(key);
    if (!opened) return false;
    this.opened.delete(key);
    this.audit(opened.request, opened.caller, undefined, { kind: 'completed' }, this.deps.scheduler.now() - opened.request.createdAt);
    return true;
  }

  /** Takes back every waiting question (the host is closing): each server gets `cancel`. */
  withdrawAll(): void {
    for (const id of [...this.pending.keys()]) this.end(id, 'withdrawn', { action: 'cancel' });
  }

  private end(id: string, outcome: ElicitationOutcome, answer: ElicitationAnswer): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    this.pending.delete(id);
    this.waiting.get(pending.request.serverId)?.delete(id);
    if (pending.completionKey) this.forgetOrKeepOpened(pending, outcome);
    this.deps.scheduler.clearTimeout(pending.timer);
    pending.unwatch();
    const durationMs = this.deps.scheduler.now() - pending.request.createdAt;
    this.audit(pending.request, pending.caller, pending.fieldNames, { kind: 'ended', outcome }, durationMs);
    this.emit('resolved', pending.request, outcome);
    pending.resolve(answer);
    return true;
  }

  /** A url question the user accepted is remembered (a bounded number) for the server's completion; any other end forgets it. */
  private forgetOrKeepOpened(pending: Pending, outcome: ElicitationOutcome): void {
    const key = pending.completionKey!;
    this.pendingByCompletion.delete(key);
    if (outcome !== 'accept') return;
    this.opened.set(key, { request: pending.request, caller: pending.caller });
    if (this.opened.size > OPENED_KEPT) this.opened.delete(this.opened.keys().next().value!);
  }

  private audit(request: ElicitationRequest, caller: Caller | undefined, fieldNames: string[] | undefined, step: ElicitationAuditEvent['step'], durationMs: number): void {
    this.deps.audit({
      at: this.deps.scheduler.now(),
      serverId: request.serverId,
      ...(caller ? { caller } : {}),
      step,
      mode: request.mode,
      ...(fieldNames ? { fields: fieldNames } : {}),
      ...(request.mode === 'url' ? { domain: request.domain } : {}),
      durationMs,
    });
  }
}

/** The params of an elicitation/create request as the SDK passes them: an object, else nothing to read. */
export const paramsOf = (params: unknown): Record<string, unknown> => (isPlainObject(params) ? params : {});
