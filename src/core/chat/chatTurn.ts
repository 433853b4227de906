import { randomUUID } from 'node:crypto';
import type { Agent } from '../../shared/agents.js';
import type { AssistantMessage, Conversation, ConversationMessage, ConversationTotals, StopInfo, SummaryMessage, ToolMessage } from '../../shared/chat.js';
import type { AcpAgents } from '../acp/acpAgents.js';
import type { Problem } from '../../shared/problems.js';
import type { Caller, ToolGateway } from '../tools/toolGateway.js';
import type { Logger, Scheduler } from '../ports.js';
import { addToTotals, answerStats } from './answerStats.js';
import type { ChatEvent, ChatPolicy } from './chatPolicy.js';
import { COMPACT_AT, planCompaction, requestTokens, SUMMARY_SYSTEM, summaryPreamble, summaryRequestText } from './contextWindow.js';
import { estimateTokens, tokenCounterFor } from './tokenCount.js';
import { readConversationArtifact } from './conversations/artifactFile.js';
import type { ConversationStore } from './conversations/conversationStore.js';
import { historyOf } from './history.js';
import { requestAnswer, stopOf, type AnswerResult } from './modelAnswer.js';
import { userText } from '../models/providers/modelRequest.js';
import type { StreamedCall } from './streamedAnswer.js';
import type { SubAgentRun, SubAgentRunInput } from './subAgentSource.js';
import { runToolCalls, type ToolCallDeps, type ToolResultDraft } from './toolCalls.js';
import { answerRepairingCalls, type RepairState } from './toolCallRepair.js';
import { setUpTurn, withToolsNow, type SetupDeps, type TurnSetup } from './turnSetup.js';

export interface ChatTurnDeps extends Omit<SetupDeps, 'gateway'>, Pick<ToolCallDeps, 'calls'> {
  gateway: Pick<ToolGateway, 'listTools' | 'callTool'>;
  store: ConversationStore;
  scheduler: Scheduler;
  now(): number;
  policy: ChatPolicy;
  emit(event: ChatEvent): void;
  /**
   * Gets the run's row to the admin DB, so another process sees the run
   * (and, after a kill, sees it interrupted). `mustWait`: the row has never
   * been written (the conversation was created for this turn), so the first
   * request waits for it; a row already on disk goes with the store's next
   * batched write, off the time to first token (the messages themselves are
   * in the conversation's file at once).
   */
  save(conversationId: string): { mustWait: boolean; done: Promise<void> };
  /** A sub-agent's run ended: its leases and "for this conversation" approvals go. */
  endConversation(id: string): Promise<void>;
  /** Runs registered here (Stop finds them; a 'running' row of this process is live only while here). */
  running: Map<string, AbortController>;
  logger: Logger;
  /** Agents of kind `acp` (docs/using/acp.md): their turns run in their own program. */
  acp?: AcpAgents;
}

/** How a turn ended, with what it wrote. */
export interface TurnOutcome {
  conversationId: string;
  status: 'done' | 'stopped';
  stop?: StopInfo;
  /** The messages this run appended, in order. */
  messages: ConversationMessage[];
  leafId: string | null;
  problems: Problem[];
}

/** Images fed back to vision models are read from the conversation's folder; bigger ones are left as a note. */

/** The messages of one run along its branch: appended to the file and the path as they complete. */
class TurnState {
  readonly appended: ConversationMessage[] = [];
  totals: ConversationTotals = { answers: 0, inputTokens: 0, outputTokens: 0, cost: 0 };

  constructor(
    private readonly deps: ChatTurnDeps,
    readonly conversationId: string,
    readonly path: ConversationMessage[],
    public leafId: string | null,
  ) {}

  append<M extends ConversationMessage>(draft: Omit<M, 'id' | 'parentId' | 'at'> & { id?: string }): M {
    const message = { ...draft, id: draft.id ?? randomUUID(), parentId: this.leafId, at: this.deps.now() } as unknown as M;
    this.deps.store.append(this.conversationId, message);
    this.path.push(message);
    this.appended.push(message);
    this.leafId = message.id;
    this.deps.emit({ type: 'message', conversationId: this.conversationId, message });
    return message;
  }
}

/**
 * The conversation loop (docs/rules/chat.md#a-turn), one turn of
 * it: the model answers the branch ending at the leaf; the tool calls of
 * each answer run through the gateway in parallel, their results go back in
 * order, and it repeats until an answer without tools, a stop, or the round
 * limit. Every face runs turns through here (ChatService), so the CLI, the
 * UI and a sub-agent's run behave alike.
 */
export class ChatRunner {
  constructor(private readonly deps: ChatTurnDeps) {}

  /**
   * Runs a turn of `conversation` from `leafId`, keeping its index row (status, leaf, totals) true throughout.
   * `summarize`: older turns are summarized before the first request whatever their size (after the provider said the conversation is too long).
   */
  async run(conversation: Conversation, leafId: string | null, options: { controller: AbortController; depth: number; summarize?: boolean }): Promise<TurnOutcome> {
    const { deps } = this;
    const id = conversation.id;
    deps.running.set(id, options.controller);
    try {
      deps.store.update(id, (c) => ({ ...c, leafId, status: { kind: 'running', pid: process.pid, since: deps.now() }, updatedAt: deps.now() }));
      deps.emit({ type: 'status', status: { conversationId: id, status: 'running' } });
      deps.emit({ type: 'conversations' });
      const saved = deps.save(id);
      const saving = saved.done.catch((error: unknown) => deps.logger.warn(`could not save conversation ${id}'s state: ${(error as Error).message}`));
      if (saved.mustWait) await saving;
      const outcome = await this.loop(conversation, leafId, options.controller.signal, options.depth, options.summarize === true);
      const finished = deps.store.update(id, (c) => ({
        ...c,
        leafId: outcome.outcome.leafId,
        status: outcome.outcome.status === 'done' ? { kind: 'done', at: deps.now() } : { kind: 'stopped', at: deps.now(), stop: outcome.outcome.stop! },
        totals: {
          answers: c.totals.answers + outcome.totals.answers,
          inputTokens: c.totals.inputTokens + outcome.totals.inputTokens,
          outputTokens: c.totals.outputTokens + outcome.totals.outputTokens,
          cost: c.totals.cost + outcome.totals.cost,
        },
        updatedAt: deps.now(),
      }));
      const { status, stop } = outcome.outcome;
      deps.emit({ type: 'status', status: { conversationId: id, status, ...(stop ? { stop } : {}), totals: finished.totals } });
      deps.emit({ type: 'conversations' });
      return outcome.outcome;
    } finally {
      deps.running.delete(id);
    }
  }

  private async loop(conversation: Conversation, leafId: string | null, signal: AbortSignal, depth: number, summarize: boolean): Promise<{ outcome: TurnOutcome; totals: ConversationTotals }> {
    const { deps } = this;
    const { tree, notices } = deps.store.open(conversation.id);
    for (const notice of notices) deps.logger.warn(`conversation ${conversation.id}: ${notice}`);
    const state = new TurnState(deps, conversation.id, tree.pathTo(leafId), leafId);
    const end = (status: 'done' | 'stopped', stop?: StopInfo, problems: Problem[] = []) => ({
      outcome: { conversationId: conversation.id, status, ...(stop ? { stop } : {}), messages: state.appended, leafId: state.leafId, problems },
      totals: state.totals,
    });

    const agent = deps.agents.get(conversation.agentId);
    if (agent?.kind === 'acp') {
      const outcome = await this.acpTurn(state, agent, signal, depth);
      return end(outcome.status, outcome.stop);
    }
    const first = await setUpTurn(deps, { agentId: conversation.agentId, conversationId: conversation.id, ...(conversation.modelId ? { modelId: conversation.modelId } : {}) }, depth);
    if ('stop' in first) return end('stopped', first.stop);
    let setup: TurnSetup = first;
    const artifactCache = new Map<string, string | undefined>();
    const readImage = (artifact: string) => {
      if (!artifactCache.has(artifact)) artifactCache.set(artifact, this.readArtifact(conversation.id, artifact));
      return artifactCache.get(artifact);
    };
    const readText = (artifact: string) => {
      if (!artifactCache.has(artifact)) artifactCache.set(artifact, this.readArtifact(conversation.id, artifact, 'utf8'));
      return artifactCache.get(artifact);
    };

    const repair: RepairState = { used: false };
    for (let round = 1; ; round++) {
      if (signal.aborted) return end('stopped', stopOf(signal), setup.problems);
      await this.compactIfNeeded(state, setup, signal, summarize && round === 1, readText);
      const history = historyOf(state.path, { vision: setup.entry.vision, readImage, readText, modelId: setup.entry.id });
      const system = [setup.system, history.summary ? summaryPreamble(history.summary.text) : ''].filter(Boolean).join('\n\n');
      const answer = await answerRepairingCalls(
        (note) =>
          requestAnswer(
            setup.client,
            { system, messages: note ? [...history.messages, note] : history.messages, tools: setup.tools },
            { entry: setup.entry, signal, retry: deps.policy.retry, scheduler: deps.scheduler, idleTimeoutMs: deps.policy.idleTimeoutMs, maxAnswerChars: deps.policy.maxAnswerChars },
            {
              onDelta: (messageId, text) => deps.emit({ type: 'delta', conversationId: conversation.id, messageId, text }),
              onReasoning: (messageId, text, fromAnswer) => deps.emit({ type: 'reasoning', conversationId: conversation.id, messageId, text, ...(fromAnswer ? { fromAnswer: true as const } : {}) }),
              onRetry: (retry) => deps.emit({ type: 'status', status: { conversationId: conversation.id, status: 'running', retry } }),
            },
          ),
        repair,
      );
      const { message, calls } = this.writeAnswer(state, setup, answer);
      if (!answer.ok) return end('stopped', answer.stop, setup.problems);
      // A turn the provider paused (its own server tools ran long) goes on: the answer is sent back as it is, and the model continues it.
      const paused = answer.streamed.finish === 'pause';
      if (!calls.length && !paused) return end('done', undefined, setup.problems);

      const results = await runToolCalls(this.toolCallDeps(), {
        conversationId: conversation.id,
        messageId: message.id,
        calls,
        setup,
        artifactsDir: deps.store.artifactsDir(conversation.id),
        folder: deps.store.folder(conversation.id),
        signal,
        depth,
      });
      for (const result of results) state.append<ToolResultDraft & ConversationMessage>(result);
      if (signal.aborted) return end('stopped', stopOf(signal), setup.problems);
      // A server may have changed its tools during the calls: the next round offers what it offers now.
      setup = await withToolsNow(deps, setup);
      if (round >= deps.policy.maxRounds) {
        return end(
          'stopped',
          {
            kind: 'round-limit',
            code: 'ROUND_LIMIT',
            message: `the model was still calling tools after ${round} rounds, the limit of one turn`,
            hint: 'resume to let it go on, or ask it to finish with what it has',
          },
          setup.problems,
        );
      }
    }
  }

  /**
   * The answer as it ended: complete, or what it had streamed kept and marked
   * stopped (nothing is written for a stop before any text or thinking). Its
   * thinking is kept apart, with how long it took; a refusal, a cut at the
   * token limit and what was noticed are recorded with it. Returns the calls
   * to run: none for a stopped answer; for a cut one, those that came whole
   * (the call the limit cut is recorded as a notice, not run).
   */
  private writeAnswer(state: TurnState, setup: TurnSetup, answer: AnswerResult): { message: AssistantMessage; calls: StreamedCall[] } {
    const streamed = answer.ok ? answer.streamed : answer.partial;
    const stats = answerStats({ ...streamed, toolsSent: setup.tools.length, attempts: answer.attempts }, setup.entry.prices);
    // A failure after the model's last token (OpenRouter's error event after `finish_reason: "length"`) leaves the cut known: Continue goes on from it.
    const finish = answer.ok ? streamed.finish : streamed.finishSeen === 'length' ? 'length' : undefined;
    const notices = [...streamed.notices];
    let calls = answer.ok ? streamed.calls : [];
    if (finish === 'length') {
      for (const call of calls.filter((c) => c.type === 'tool-call-malformed'))
        notices.push(`the call to ${call.name || 'a tool'} was cut at the token limit before its arguments were complete; it was not run`);
      calls = calls.filter((c) => c.type === 'tool-call');
    }
    const { reasoning } = streamed;
    const thought = reasoning.text || reasoning.replay.length || reasoning.source === 'reasoning_content';
    const refusal = streamed.refusal || (finish === 'refusal' ? 'the model declined to answer' : '');
    const draft = {
      id: streamed.messageId,
      role: 'assistant' as const,
      agentId: setup.agent.id,
      modelId: setup.entry.id,
      text: streamed.text,
      // A stopped answer's calls are never run (and the OpenAI wire gives none before the end).
      toolCalls: calls.map((c) => ({ id: c.id, name: c.name, argumentsText: c.argumentsText, ...(c.extraContent ? { extraContent: c.extraContent } : {}) })),
      status: answer.ok ? ('complete' as const) : ('stopped' as const),
      ...(answer.ok ? {} : { stop: answer.stop }),
      stats,
      ...(thought
        ? {
            reasoning: {
              text: reasoning.text,
              ...(reasoning.startedMs !== undefined && reasoning.endedMs !== undefined ? { durationMs: Math.round(reasoning.endedMs - reasoning.startedMs) } : {}),
              ...(reasoning.source ? { source: reasoning.source } : {}),
              ...(reasoning.truncated ? { truncated: true } : {}),
              ...(reasoning.replay.length ? { replay: reasoning.replay } : {}),
            },
          }
        : {}),
      ...(finish ? { finish } : {}),
      ...(refusal ? { refusal } : {}),
      ...(notices.length ? { notices } : {}),
      ...(streamed.otherParts.length ? { otherParts: streamed.otherParts } : {}),
    };
    if (!answer.ok && !streamed.text && !reasoning.text) return { message: { ...draft, parentId: state.leafId, at: this.deps.now() }, calls };
    state.totals = addToTotals(state.totals, stats);
    return { message: state.append<AssistantMessage>(draft), calls };
  }

  /**
   * Near the model's context window, older turns become a summary node on the branch (user and assistant text only).
   * `force`: the provider said the conversation is too long, so older turns are summarized whatever the estimate says.
   */
  private async compactIfNeeded(state: TurnState, setup: TurnSetup, signal: AbortSignal, force: boolean, documentText: (artifact: string) => string | undefined): Promise<void> {
    const window = setup.entry.contextWindow;
    if (!window && !force) return;
    const sent = [setup.system, JSON.stringify(setup.tools)];
    const rough = requestTokens(state.path, estimateTokens(sent.join('')), { count: estimateTokens, documentText });
    // A model's own tokenizer costs tens of megabytes once loaded: only where the estimate comes within a factor of two of the line does its precision decide.
    const count = force || !window || rough > (window * COMPACT_AT) / 2 ? await tokenCounterFor(setup.entry) : estimateTokens;
    const fixed = sent.reduce((sum, text) => sum + count(text), 0);
    const plan = planCompaction(state.path, fixed, window, { force, count, documentText });
    if (!plan) {
      if (force) this.deps.logger.warn(`conversation ${state.conversationId}: asked to summarize, but there are no older turns to summarize`);
      return;
    }
    const answer = await requestAnswer(
      setup.client,
      { system: SUMMARY_SYSTEM, messages: [userText(summaryRequestText(plan))] },
      { entry: setup.entry, signal, retry: this.deps.policy.retry, scheduler: this.deps.scheduler, idleTimeoutMs: this.deps.policy.idleTimeoutMs, maxAnswerChars: this.deps.policy.maxAnswerChars },
    );
    if (!answer.ok || !answer.streamed.text.trim()) {
      // The turn goes on unsummarized: the provider may still take it, and its own error says more than ours.
      this.deps.logger.warn(`conversation ${state.conversationId}: summarizing older turns failed: ${answer.ok ? 'the summary was empty' : answer.stop.message}`);
      return;
    }
    const stats = answerStats({ ...answer.streamed, toolsSent: 0, attempts: answer.attempts }, setup.entry.prices);
    state.totals = addToTotals(state.totals, stats, false);
    state.append<SummaryMessage>({ role: 'summary', text: answer.streamed.text.trim(), throughId: plan.throughId, summarized: plan.summarized, stats });
  }

  private toolCallDeps(): ToolCallDeps {
    return {
      gateway: this.deps.gateway,
      emit: this.deps.emit,
      now: () => this.deps.scheduler.now(),
      ...(this.deps.calls ? { calls: this.deps.calls } : {}),
    };
  }

  /** A sub-agent's run (the gateway's sub-agent source asks for it): a child conversation linked to the call, in the sub flow, its final answer as the result. */
  async runSubAgent(input: SubAgentRunInput): Promise<SubAgentRun> {
    const { deps } = this;
    const child = deps.store.create({
      agentId: input.agentId,
      title: input.task.split('\n')[0]!.slice(0, 80),
      parent: { conversationId: input.parentConversationId, callId: input.callId, depth: input.depth },
    });
    input.started(child.id);
    const controller = new AbortController();
    const forward = () => controller.abort(input.signal.reason);
    if (input.signal.aborted) forward();
    else input.signal.addEventListener('abort', forward, { once: true });
    try {
      const user = { id: randomUUID(), parentId: null, at: deps.now(), role: 'user' as const, text: input.task };
      deps.store.append(child.id, user);
      deps.emit({ type: 'message', conversationId: child.id, message: user });
      const outcome = await this.run(child, user.id, { controller, depth: input.depth });
      const last = [...outcome.messages].reverse().find((m): m is AssistantMessage => m.role === 'assistant');
      if (outcome.status === 'done') return { text: last?.text.trim() || '(the sub-agent finished without an answer)', isError: false, status: 'ok' as const };
      const partial = last?.text ? `\nWhat it had written: ${last.text}` : '';
      return {
        text: `The sub-agent "${input.agentId}" stopped: ${outcome.stop?.message ?? 'stopped'}${partial}`,
        isError: true,
        status: outcome.stop?.kind === 'user' ? ('cancelled' as const) : ('error' as const),
      };
    } finally {
      input.signal.removeEventListener('abort', forward);
      await deps.endConversation(child.id).catch((error: unknown) => deps.logger.warn(`releasing sub-agent run ${child.id}: ${(error as Error).message}`));
    }
  }

  /** A turn of an agent of kind `acp`: the latest user message goes to its program, and what it streams back is written as this turn's messages. */
  private async acpTurn(state: TurnState, agent: Agent, signal: AbortSignal, depth: number): Promise<{ status: 'done' | 'stopped'; stop?: StopInfo }> {
    const { deps } = this;
    if (!deps.acp) return { status: 'stopped', stop: { kind: 'error', code: 'ACP_UNAVAILABLE', message: 'this face of ChatOS runs no ACP agents' } };
    const lastUser = [...state.path].reverse().find((m) => m.role === 'user');
    const caller: Caller = { ...deps.resolve(agent).callerFor(depth === 0 ? 'main' : 'sub', state.conversationId), depth };
    return deps.acp.runTurn({
      agent,
      conversationId: state.conversationId,
      caller,
      fallbackCwd: deps.store.folder(state.conversationId),
      artifactsDir: deps.store.artifactsDir(state.conversationId),
      text: lastUser?.text ?? '',
      signal,
      sink: {
        append: (message) => void state.append<AssistantMessage>(message),
        appendTool: (message) => void state.append<ToolMessage>(message),
        emit: (event) => deps.emit(event),
        now: () => deps.now(),
      },
    });
  }

  /** An artifact of the conversation's folder: an image as base64, a document's text as UTF-8. */
  private readArtifact(conversationId: string, artifact: string, encoding: 'base64' | 'utf8' = 'base64'): string | undefined {
    return readConversationArtifact(this.deps.store.folder(conversationId), artifact)?.toString(encoding);
  }
}
