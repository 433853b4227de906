import { randomUUID } from 'node:crypto';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { QuestionCall, QuestionOf, QuestionOutcome } from '../../shared/question.js';
import type { SamplingAnswer, SamplingCompletion, SamplingRequest } from '../../shared/sampling.js';
import type { QuestionAuditEvent } from '../audit/questionAudit.js';
import type { Asker } from '../mcp/client/clientFeatures.js';
import type { ModelClient } from '../models/providers/modelClient.js';
import type { Scheduler } from '../ports.js';
import type { QuestionBroker } from '../questions/questionBroker.js';
import { sharedCallerIds } from '../tools/sharedCallerIds.js';
import type { Caller } from '../tools/toolSource.js';
import { SamplingError } from './samplingError.js';
import { applyEdits, checkSamplingParams, type CheckedSampling } from './samplingParams.js';
import { createMessageResult, runSampling } from './samplingRun.js';

/** How long each step (review, then the completion) waits for the user before the host declines for them. */
export const SAMPLING_TIMEOUT_MS = 10 * 60_000;

/** Per server: requests a minute (mcp.yaml `sampling.perMinute` overrides it) and requests waiting at once (docs/rules/sampling.md#limits). */
export const SAMPLING_RATE = { perMinute: 10, pending: 1 };

/** The server's request, as the audit names it. */
const METHOD = 'sampling/createMessage';

/** The spec's code for a request the user rejected. */
const USER_REJECTED = -1;

/** One request as it arrived: who asks, its raw params, who was calling, and the signal that takes it back. */
export interface SamplingAsk {
  asker: Asker;
  params: Record<string, unknown>;
  callers: readonly Caller[];
  /** The one call in flight that this request is part of, when there is one. */
  call?: QuestionCall;
  signal: AbortSignal;
}

export interface SamplingServiceDeps {
  scheduler: Scheduler;
  /** Holds each request, its clock and its answer; records what was asked and how it ended (sizes and names, never the text). */
  broker: QuestionBroker;
  /** The model entry that answers this server's requests for this caller: mcp.yaml's `sampling.model`, else the calling agent's. */
  modelFor(asker: Asker, caller: Caller | undefined): { ok: true; modelId: string } | { ok: false; reason: string };
  /** The chat's provider client for a model entry (its key read when asked). */
  client(modelId: string): Promise<ModelClient>;
  /** Whether the user chose "always allow" for this server, and remembering it. */
  alwaysAllowed(serverId: string): boolean;
  allowAlways(serverId: string): void;
  /** Requests a minute for this server (mcp.yaml's, else SAMPLING_RATE.perMinute). */
  perMinute(asker: Asker): number;
  timeoutMs?: number;
}

/** One request while the broker holds it: what this kind keeps beside the question. */
interface Pending {
  question: QuestionOf<'sampling'>;
  checked: CheckedSampling;
  caller: Caller | undefined;
  edited: boolean;
  /** Run without the user's review: the server is always allowed. */
  remembered: boolean;
  /** Stops the model run, when one is running. */
  run?: AbortController;
  /** What the server gets when the request ends: the result, or the error with the reason. */
  answer: Record<string, unknown> | McpError;
}

const charsOf = (checked: CheckedSampling) =>
  checked.messages.reduce((sum, m) => sum + m.content.reduce((n, p) => n + (p.type === 'text' || p.type === 'tool_result' ? p.text.length : 0), 0), checked.systemPrompt.length);

/** What the server hears when nobody sent it a completion, by how the request ended. */
const notSent = (outcome: QuestionOutcome): McpError =>
  outcome === 'expired'
    ? new McpError(USER_REJECTED, 'nobody answered the sampling request in time')
    : outcome === 'withdrawn'
      ? new McpError(USER_REJECTED, 'the call that asked has ended')
      : new McpError(USER_REJECTED, 'User rejected sampling request');

/**
 * Servers' requests to sample the user's model (MCP sampling,
 * docs/using/sampling.md): the kind `sampling` of the question broker, with
 * a person in the loop. Each request is checked and bounded, limited per
 * server, shown for review (editable), run on the model once approved, and
 * its completion shown before the server gets it. "Always allow" for a
 * server skips both steps (still audited). The broker holds the request:
 * nobody answering a step in time declines (`expired`); the call that
 * asked ending first takes it back (`withdrawn`).
 */
export class SamplingService {
  private readonly pending = new Map<string, Pending>();
  private readonly recent = new Map<string, number[]>();
  private readonly timeoutMs: number;

  constructor(private readonly deps: SamplingServiceDeps) {
    this.timeoutMs = deps.timeoutMs ?? SAMPLING_TIMEOUT_MS;
  }

  /**
   * A server's request: checked, limited, then put to the user (or, for a
   * server always allowed, run at once); resolves with the spec's
   * CreateMessageResult. A refusal or a decline is thrown as the MCP error
   * the server gets, with the reason.
   */
  async ask(ask: SamplingAsk): Promise<Record<string, unknown>> {
    const { definition } = ask.asker;
    const now = this.deps.scheduler.now();
    const caller = ask.callers[0];
    const refuse = (code: string, reason: string): never => {
      this.deps.broker.note({ method: METHOD, serverId: definition.id, ...(caller ? { caller } : {}), step: { kind: 'refused', code, reason } });
      throw new McpError(code === 'RATE_LIMITED' ? ErrorCode.InvalidRequest : ErrorCode.InvalidParams, `ChatOS refused the sampling request: ${reason}`);
    };
    this.limit(ask.asker, now, refuse);
    const checked = checkSamplingParams(ask.params);
    if (!checked.ok) return refuse('SAMPLING_REFUSED', checked.reason);
    const model = this.deps.modelFor(ask.asker, caller);
    if (!model.ok) return refuse('NO_MODEL', model.reason);
    const request: SamplingRequest = {
      id: randomUUID(),
      serverId: definition.id,
      serverName: definition.name,
      ...sharedCallerIds(ask.callers),
      stage: 'review',
      systemPrompt: checked.value.systemPrompt,
      messages: checked.value.messages,
      maxTokens: checked.value.maxTokens,
      tools: checked.value.tools.map(({ name, description }) => ({ name, description })),
      modelId: model.modelId,
      createdAt: now,
      expiresAt: now + this.timeoutMs,
    };
    if (ask.signal.aborted) throw new McpError(USER_REJECTED, 'the call that asked has ended');
    const pending: Pending = {
      question: { kind: 'sampling', ...(ask.call !== undefined ? { call: ask.call } : {}), request },
      checked: checked.value,
      caller,
      edited: false,
      remembered: this.deps.alwaysAllowed(definition.id),
      answer: notSent('declined'),
    };
    const result = new Promise<Record<string, unknown>>((resolve, reject) => {
      this.pending.set(request.id, pending);
      this.deps.broker.ask(pending.question, {
        signal: ask.signal,
        // Always allowed: no card; the run and its completion go straight through, on the record.
        silent: pending.remembered,
        timed: !pending.remembered,
        handler: {
          answer: (given) => this.answer(pending, given.answer),
          ended: (outcome) => {
            this.pending.delete(request.id);
            pending.run?.abort();
            const answer = outcome === 'sent' || outcome === 'failed' ? pending.answer : notSent(outcome);
            if (answer instanceof McpError) reject(answer);
            else resolve(answer);
          },
          audit: () => this.auditOf(pending),
        },
      });
    });
    if (pending.remembered) void this.run(pending);
    return result;
  }

  /**
   * The user's answer. Under review: `approve` (the edits checked by the
   * request's bounds: a SamplingError says what is wrong and the request
   * stays waiting; `always` remembers this server) or `decline`. With the
   * completion shown: `send` or `decline`. While the model runs: `decline`
   * stops it. False for an answer its step has not.
   */
  private answer(pending: Pending, answer: SamplingAnswer): boolean {
    const { request } = pending.question;
    if (answer.action === 'decline') return this.deps.broker.end(request.id, 'declined');
    if (answer.action === 'send') {
      if (request.stage !== 'completion' || !request.completion) return false;
      pending.answer = createMessageResult(request.completion, pending.checked.tools.length > 0);
      return this.deps.broker.end(request.id, 'sent');
    }
    if (request.stage !== 'review') return false;
    if (answer.edits) {
      const edited = applyEdits(pending.checked, answer.edits);
      if (!edited.ok) throw new SamplingError('INVALID', `the edited request is refused: ${edited.reason}`);
      pending.checked = edited.value;
      pending.edited = true;
    }
    if (answer.always) this.deps.allowAlways(request.serverId);
    void this.run(pending);
    return true;
  }

  /** Runs the approved request on its model; then the completion waits for the user, or (remembered) goes to the server. */
  private async run(pending: Pending): Promise<void> {
    const { checked, remembered } = pending;
    const id = pending.question.request.id;
    this.moveOn(pending, { stage: 'running', systemPrompt: checked.systemPrompt, messages: checked.messages, maxTokens: checked.maxTokens }, false);
    pending.run = new AbortController();
    let completion: SamplingCompletion;
    try {
      completion = await runSampling(await this.deps.client(pending.question.request.modelId), checked, pending.run.signal);
    } catch (error) {
      const message = (error as Error).message;
      pending.answer = new McpError(ErrorCode.InternalError, `ChatOS could not sample: ${message}`);
      this.deps.broker.end(id, 'failed', message);
      return;
    }
    if (this.pending.get(id) !== pending) return;
    if (remembered) {
      pending.question = { ...pending.question, request: { ...pending.question.request, stage: 'completion', completion } };
      pending.answer = createMessageResult(completion, checked.tools.length > 0);
      this.deps.broker.end(id, 'sent');
      return;
    }
    this.moveOn(pending, { stage: 'completion', completion, expiresAt: this.deps.scheduler.now() + this.timeoutMs }, true);
  }

  /** The request's next step: faces hear of it; `timed` runs its clock again (to its new `expiresAt`), else it stops. */
  private moveOn(pending: Pending, change: Partial<SamplingRequest>, timed: boolean): void {
    pending.question = { ...pending.question, request: { ...pending.question.request, ...change } };
    this.deps.broker.update(pending.question, timed);
  }

  /** At most `perMinute` requests a minute and SAMPLING_RATE.pending waiting, per server. */
  private limit(asker: Asker, now: number, refuse: (code: string, reason: string) => never): void {
    const serverId = asker.definition.id;
    const perMinute = this.deps.perMinute(asker);
    const times = (this.recent.get(serverId) ?? []).filter((t) => t > now - 60_000);
    this.recent.set(serverId, times);
    const waiting = [...this.pending.values()].filter((p) => p.question.request.serverId === serverId).length;
    if (waiting >= SAMPLING_RATE.pending) refuse('RATE_LIMITED', `server "${serverId}" already has a sampling request waiting; ask one at a time`);
    if (times.length >= perMinute) refuse('RATE_LIMITED', `server "${serverId}" asked ${times.length} sampling requests in the last minute; at most ${perMinute}`);
    times.push(now);
  }

  private auditOf(pending: Pending): Omit<QuestionAuditEvent, 'at' | 'step' | 'durationMs'> {
    const { question, checked, caller } = pending;
    const { request } = question;
    const completion = request.completion;
    return {
      method: METHOD,
      serverId: request.serverId,
      ...(caller ? { caller } : {}),
      what: {
        modelId: request.modelId,
        messages: checked.messages.length,
        chars: charsOf(checked),
        tools: checked.tools.map((t) => t.name),
        maxTokens: checked.maxTokens,
        ...(pending.edited ? { edited: true } : {}),
        ...(pending.remembered ? { remembered: true } : {}),
        ...(completion ? { answer: { model: completion.model, stopReason: completion.stopReason, ...(completion.usage ?? {}) } } : {}),
      },
    };
  }
}
