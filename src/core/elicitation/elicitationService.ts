import { randomUUID } from 'node:crypto';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationAction, ElicitationContent, ElicitationOutcome, ElicitationRequest } from '../../shared/elicitation.js';
import type { QuestionCall, QuestionOf } from '../../shared/question.js';
import type { Asker } from '../mcp/client/clientFeatures.js';
import { isPlainObject } from '../plainObject.js';
import type { Scheduler } from '../ports.js';
import type { QuestionBroker } from '../questions/questionBroker.js';
import { sharedCallerIds } from '../tools/sharedCallerIds.js';
import type { Caller } from '../tools/toolSource.js';
import { checkElicitationUrl } from './elicitationUrl.js';
import { ElicitationError } from './elicitationError.js';
import { validateContent } from './formContent.js';
import { checkForm, messageProblem } from './requestedSchema.js';

/** The server's request, as the audit names it. */
const METHOD = 'elicitation/create';

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
  /** The one call in flight that this question is part of, when there is one. */
  call?: QuestionCall;
  signal: AbortSignal;
}

export interface ElicitationServiceDeps {
  scheduler: Scheduler;
  /** Holds each question, its clock and its answer; records asked, answered and refused questions (never a value the user typed). */
  broker: QuestionBroker;
  timeoutMs?: number;
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

/** What the audit keeps of a question: its mode, with the form's field names or the url's domain. */
const whatOf = (mode: 'form' | 'url', fields?: readonly string[], domain?: string) => ({ mode, ...(fields ? { fields } : {}), ...(domain ? { domain } : {}) });

/**
 * The questions servers put to the user (MCP elicitation, docs/using/elicitation.md): the kind
 * `elicitation` of the question broker. Each is checked (a form's schema, a
 * url), limited per server, then put through the broker, which holds it,
 * expires it (the server gets `cancel`, outcome `expired`), takes it back
 * when the call that asked ends (`withdrawn`) and routes the answer here,
 * where an accepted form is checked again. Every step is on the audit.
 */
export class ElicitationService {
  /** Per server: when it asked in the last minute. */
  private readonly recent = new Map<string, number[]>();
  /** Per server and limit: the minute whose refusal was recorded (a loop is recorded once a minute, not once a request). */
  private readonly refusalNoted = new Map<string, number>();
  /** Url questions waiting, by completion key; and those the user accepted (opened), which the server may still say are complete. */
  private readonly pendingByCompletion = new Map<string, string>();
  private readonly opened = new Map<string, { request: ElicitationRequest; caller: Caller | undefined }>();
  private readonly timeoutMs: number;

  constructor(private readonly deps: ElicitationServiceDeps) {
    this.timeoutMs = deps.timeoutMs ?? ELICITATION_TIMEOUT_MS;
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
    const refuse = (code: string, reason: string, mode?: 'form' | 'url'): never => {
      this.deps.broker.note({ method: METHOD, serverId: definition.id, ...(caller ? { caller } : {}), step: { kind: 'refused', code, reason }, ...(mode ? { what: whatOf(mode) } : {}) });
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
      if (!form.ok) return refuse('ELICITATION_REFUSED', form.reason, 'form');
      fieldNames = form.fields.map((field) => field.name);
      request = { ...common, mode: 'form', fields: form.fields };
    } else if (mode === 'url') {
      const url = checkElicitationUrl(params.url);
      if (!url.ok) return refuse('ELICITATION_REFUSED', url.reason, 'url');
      request = { ...common, mode: 'url', url: url.url, domain: url.domain, lookAlike: url.lookAlike };
    } else {
      return refuse('ELICITATION_REFUSED', `mode ${JSON.stringify(mode)} is neither "form" nor "url"`);
    }
    if (ask.signal.aborted) return Promise.resolve({ action: 'cancel' });
    const completionKey = mode === 'url' ? completionKeyOf(ask.asker, params.elicitationId) : undefined;
    return this.put({ kind: 'elicitation', ...(ask.call !== undefined ? { call: ask.call } : {}), request }, caller, fieldNames, ask.signal, completionKey);
  }

  /** At most ELICITATION_RATE.pending questions waiting and ELICITATION_RATE.perMinute asked a minute, per server. */
  private limit(serverId: string, now: number, refuse: (code: string, reason: string) => never): void {
    const minuteAgo = now - 60_000;
    const times = (this.recent.get(serverId) ?? []).filter((t) => t > minuteAgo);
    this.recent.set(serverId, times);
    const waiting = this.deps.broker.list().filter((q) => q.kind === 'elicitation' && q.request.serverId === serverId).length;
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

  private put(question: QuestionOf<'elicitation'>, caller: Caller | undefined, fieldNames: string[] | undefined, signal: AbortSignal, completionKey?: string): Promise<ElicitationAnswer> {
    const { request } = question;
    return new Promise<ElicitationAnswer>((resolve) => {
      // What the server gets: the answer the user gave; else (expired, withdrawn) cancel.
      let answer: ElicitationAnswer = { action: 'cancel' };
      if (completionKey) this.pendingByCompletion.set(completionKey, request.id);
      this.deps.broker.ask(question, {
        signal,
        handler: {
          answer: (given) => {
            answer = this.checkedAnswer(request, given.action, given.content);
            return this.deps.broker.end(request.id, answer.action);
          },
          ended: (outcome) => {
            if (completionKey) this.forgetOrKeepOpened(completionKey, request, caller, outcome as ElicitationOutcome);
            resolve(outcome === 'completed' ? { action: 'accept' } : answer);
          },
          audit: () => ({
            method: METHOD,
            serverId: request.serverId,
            ...(caller ? { caller } : {}),
            what: whatOf(request.mode, fieldNames, request.mode === 'url' ? request.domain : undefined),
          }),
        },
      });
    });
  }

  /**
   * The user's answer as the server gets it. An accepted form is checked
   * against its fields (an ElicitationError names each field and what is
   * wrong; the question stays waiting); keys that are no field are dropped.
   */
  private checkedAnswer(request: ElicitationRequest, action: ElicitationAction, content: unknown): ElicitationAnswer {
    if (action !== 'accept' || request.mode === 'url') return { action };
    const checked = validateContent(request.fields, content ?? {});
    if (!checked.ok) {
      const fields = checked.errors.map((e) => ({ path: e.field, message: e.message }));
      throw new ElicitationError('INVALID', `the answer does not fit the form: ${checked.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, fields);
    }
    return { action: 'accept', content: checked.content };
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
    if (waiting !== undefined) return this.deps.broker.end(waiting, 'completed');
    const opened = this.opened.get(key);
    if (!opened) return false;
    this.opened.delete(key);
    const { request, caller } = opened;
    this.deps.broker.note({
      method: METHOD,
      serverId: request.serverId,
      ...(caller ? { caller } : {}),
      step: { kind: 'completed' },
      what: whatOf(request.mode, undefined, request.mode === 'url' ? request.domain : undefined),
      durationMs: this.deps.scheduler.now() - request.createdAt,
    });
    return true;
  }

  /** A url question the user accepted is remembered (a bounded number) for the server's completion; any other end forgets it. */
  private forgetOrKeepOpened(key: string, request: ElicitationRequest, caller: Caller | undefined, outcome: ElicitationOutcome): void {
    this.pendingByCompletion.delete(key);
    if (outcome !== 'accept') return;
    this.opened.set(key, { request, caller });
    if (this.opened.size > OPENED_KEPT) this.opened.delete(this.opened.keys().next().value!);
  }
}

/** The params of an elicitation/create request as the SDK passes them: an object, else nothing to read. */
export const paramsOf = (params: unknown): Record<string, unknown> => (isPlainObject(params) ? params : {});
