import { randomUUID } from 'node:crypto';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { SamplingAnswer, SamplingCompletion, SamplingOutcome, SamplingRequest } from '../../shared/sampling.js';
import type { SamplingAuditEvent } from '../audit/samplingAudit.js';
import type { Asker } from '../mcp/client/clientFeatures.js';
import type { ModelClient } from '../models/providers/modelClient.js';
import type { Scheduler } from '../ports.js';
import { sharedCallerIds } from '../tools/sharedCallerIds.js';
import type { Caller } from '../tools/toolSource.js';
import { SamplingError } from './samplingError.js';
import { applyEdits, checkSamplingParams, type CheckedSampling } from './samplingParams.js';
import { createMessageResult, runSampling } from './samplingRun.js';

/** How long each step (review, then the completion) waits for the user before the host declines for them. */
export const SAMPLING_TIMEOUT_MS = 10 * 60_000;

/** Per server: requests a minute (mcp.yaml `sampling.perMinute` overrides it) and requests waiting at once (docs/rules/sampling.md#limits). */
export const SAMPLING_RATE = { perMinute: 10, pending: 1 };

/** The spec's code for a request the user rejected. */
const USER_REJECTED = -1;

/** One request as it arrived: who asks, its raw params, who was calling, and the signal that takes it back. */
export interface SamplingAsk {
  asker: Asker;
  params: Record<string, unknown>;
  callers: readonly Caller[];
  signal: AbortSignal;
}

export interface SamplingEvents {
  /** A request waits for the user's review. */
  required: (request: SamplingRequest) => void;
  /** A request moved on: the model runs, or its completion waits to be sent. */
  updated: (request: SamplingRequest) => void;
  resolved: (request: SamplingRequest, outcome: SamplingOutcome) => void;
}

export interface SamplingServiceDeps {
  scheduler: Scheduler;
  audit(event: SamplingAuditEvent): void;
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

interface Pending {
  request: SamplingRequest;
  checked: CheckedSampling;
  caller: Caller | undefined;
  edited: boolean;
  /** Run without the user's review: the server is always allowed. */
  remembered: boolean;
  timer: unknown;
  /** Stops the model run, when one is running. */
  run?: AbortController;
  unwatch(): void;
  settle(result: Record<string, unknown> | McpError): void;
}

const charsOf = (checked: CheckedSampling) =>
  checked.messages.reduce((sum, m) => sum + m.content.reduce((n, p) => n + (p.type === 'text' || p.type === 'tool_result' ? p.text.length : 0), 0), checked.systemPrompt.length);

/**
 * Servers' requests to sample the user's model (MCP sampling,
 * docs/using/sampling.md), with a person in the loop: each request is
 * checked and bounded, limited per server, shown for review (editable),
 * run on the model once approved, and its completion shown before the
 * server gets it. "Always allow" for a server skips both steps (still
 * audited). Nobody answering in time declines (`expired`); the call that
 * asked ending first takes the request back (`withdrawn`).
 */
export class SamplingService {
  private readonly pending = new Map<string, Pending>();
  private readonly recent = new Map<string, number[]>();
  private readonly listeners: { [K in keyof SamplingEvents]: Set<SamplingEvents[K]> } = { required: new Set(), updated: new Set(), resolved: new Set() };
  private readonly timeoutMs: number;

  constructor(private readonly deps: SamplingServiceDeps) {
    this.timeoutMs = deps.timeoutMs ?? SAMPLING_TIMEOUT_MS;
  }

  on<K extends keyof SamplingEvents>(event: K, listener: SamplingEvents[K]): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  private emit<K extends keyof SamplingEvents>(event: K, ...args: Parameters<SamplingEvents[K]>): void {
    for (const listener of this.listeners[event]) (listener as (...a: Parameters<SamplingEvents[K]>) => void)(...args);
  }

  /** The requests waiting for the user (or their model), oldest first. */
  list(): SamplingRequest[] {
    return [...this.pending.values()].map((p) => p.request);
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
      this.deps.audit({ at: now, serverId: definition.id, ...(caller ? { caller } : {}), step: { kind: 'refused', code, reason } });
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
    const result = new Promise<Record<string, unknown>>((resolve, reject) => {
      const withdraw = () => this.end(request.id, 'withdrawn', new McpError(USER_REJECTED, 'the call that asked has ended'));
      ask.signal.addEventListener('abort', withdraw, { once: true });
      this.pending.set(request.id, {
        request,
        checked: checked.value,
        caller,
        edited: false,
        remembered: this.deps.alwaysAllowed(definition.id),
        timer: undefined,
        unwatch: () => ask.signal.removeEventListener('abort', withdraw),
        settle: (answer) => (answer instanceof McpError ? reject(answer) : resolve(answer)),
      });
    });
    const pending = this.pending.get(request.id)!;
    this.audit(pending, { kind: 'asked' }, {});
    if (pending.remembered) {
      // Always allowed: no card; the run and its completion go straight through, on the record.
      void this.run(request.id, true);
    } else {
      this.wait(request.id);
      this.emit('required', request);
    }
    return result;
  }

  /**
   * The user's answer. Under review: `approve` (the edits checked by the
   * request's bounds: a SamplingError says what is wrong and the request
   * stays waiting; `always` remembers this server) or `decline`. With the
   * completion shown: `send` or `decline`. While the model runs: `decline`
   * stops it. False for an id not waiting, or an answer its step has not.
   */
  respond(id: string, answer: SamplingAnswer): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    const { stage } = pending.request;
    if (answer.action === 'decline') return this.end(id, 'declined', new McpError(USER_REJECTED, 'User rejected sampling request'));
    if (answer.action === 'send') {
      if (stage !== 'completion' || !pending.request.completion) return false;
      return this.end(id, 'sent', createMessageResult(pending.request.completion, pending.checked.tools.length > 0));
    }
    if (stage !== 'review') return false;
    if (answer.edits) {
      const edited = applyEdits(pending.checked, answer.edits);
      if (!edited.ok) throw new SamplingError('INVALID', `the edited request is refused: ${edited.reason}`);
      pending.checked = edited.value;
      pending.edited = true;
    }
    if (answer.always) this.deps.allowAlways(pending.request.serverId);
    void this.run(id, false);
    return true;
  }

  /** Takes back every waiting request (the host is closing): each server hears it was not sampled. */
  withdrawAll(): void {
    for (const id of [...this.pending.keys()]) this.end(id, 'withdrawn', new McpError(USER_REJECTED, 'ChatOS is closing'));
  }

  /** Runs the approved request on its model; then the completion waits for the user, or (remembered) goes to the server. */
  private async run(id: string, remembered: boolean): Promise<void> {
    const pending = this.pending.get(id)!;
    this.deps.scheduler.clearTimeout(pending.timer);
    const { checked } = pending;
    pending.request = { ...pending.request, stage: 'running', systemPrompt: checked.systemPrompt, messages: checked.messages, maxTokens: checked.maxTokens };
    pending.run = new AbortController();
    if (!remembered) this.emit('updated', pending.request);
    let completion: SamplingCompletion;
    try {
      completion = await runSampling(await this.deps.client(pending.request.modelId), checked, pending.run.signal);
    } catch (error) {
      const message = (error as Error).message;
      this.end(id, 'failed', new McpError(ErrorCode.InternalError, `ChatOS could not sample: ${message}`), message);
      return;
    }
    if (this.pending.get(id) !== pending) return;
    pending.request = { ...pending.request, stage: 'completion', completion };
    if (remembered) {
      this.end(id, 'sent', createMessageResult(completion, checked.tools.length > 0));
      return;
    }
    const now = this.deps.scheduler.now();
    pending.request = { ...pending.request, expiresAt: now + this.timeoutMs };
    this.wait(id);
    this.emit('updated', pending.request);
  }

  /** Starts the step's clock: nobody answering by `expiresAt` declines. */
  private wait(id: string): void {
    const pending = this.pending.get(id)!;
    pending.timer = this.deps.scheduler.setTimeout(
      () => this.end(id, 'expired', new McpError(USER_REJECTED, 'nobody answered the sampling request in time')),
      pending.request.expiresAt - this.deps.scheduler.now(),
    );
  }

  /** At most `perMinute` requests a minute and SAMPLING_RATE.pending waiting, per server. */
  private limit(asker: Asker, now: number, refuse: (code: string, reason: string) => never): void {
    const serverId = asker.definition.id;
    const perMinute = this.deps.perMinute(asker);
    const times = (this.recent.get(serverId) ?? []).filter((t) => t > now - 60_000);
    this.recent.set(serverId, times);
    const waiting = [...this.pending.values()].filter((p) => p.request.serverId === serverId).length;
    if (waiting >= SAMPLING_RATE.pending) refuse('RATE_LIMITED', `server "${serverId}" already has a sampling request waiting; ask one at a time`);
    if (times.length >= perMinute) refuse('RATE_LIMITED', `server "${serverId}" asked ${times.length} sampling requests in the last minute; at most ${perMinute}`);
    times.push(now);
  }

  private end(id: string, outcome: SamplingOutcome, answer: Record<string, unknown> | McpError, error?: string): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    this.pending.delete(id);
    this.deps.scheduler.clearTimeout(pending.timer);
    pending.run?.abort();
    pending.unwatch();
    this.audit(pending, { kind: 'ended', outcome }, { durationMs: this.deps.scheduler.now() - pending.request.createdAt, ...(error ? { error } : {}) });
    this.emit('resolved', pending.request, outcome);
    pending.settle(answer);
    return true;
  }

  private audit(pending: Pending, step: SamplingAuditEvent['step'], extra: { durationMs?: number; error?: string }): void {
    const { request, checked, caller } = pending;
    const completion = request.completion;
    this.deps.audit({
      at: this.deps.scheduler.now(),
      serverId: request.serverId,
      ...(caller ? { caller } : {}),
      step,
      request: {
        modelId: request.modelId,
        messages: checked.messages.length,
        chars: charsOf(checked),
        tools: checked.tools.map((t) => t.name),
        maxTokens: checked.maxTokens,
        ...(pending.edited ? { edited: true } : {}),
        ...(pending.remembered ? { remembered: true } : {}),
      },
      ...(completion ? { answer: { model: completion.model, stopReason: completion.stopReason, ...(completion.usage ?? {}) } } : {}),
      ...(extra.error ? { error: extra.error } : {}),
      durationMs: extra.durationMs ?? 0,
    });
  }
}
