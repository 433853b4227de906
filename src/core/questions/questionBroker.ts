import type { Question, QuestionAnswer, QuestionChange, QuestionKind, QuestionOutcome } from '../../shared/question.js';
import type { QuestionAuditEvent } from '../audit/questionAudit.js';
import type { Scheduler } from '../ports.js';

/** How a kind's module hears of its question: the person's answer, and the end (whoever ended it). */
export interface QuestionHandler<K extends QuestionKind = QuestionKind> {
  /**
   * The person's answer, already of this kind. The kind checks it (a
   * SamplingError or ElicitationError says what is wrong and the question
   * stays), then ends the question or moves it on; false for an answer this
   * step does not take.
   */
  answer(answer: Extract<QuestionAnswer, { kind: K }>): boolean;
  /** The question ended (answered, expired, withdrawn): the kind settles whoever waits on it. Called once. */
  ended(outcome: QuestionOutcome): void;
  /** What the audit records of it, when the kind's questions are audited here (a server's request; a tool's confirmation is on its call's record). */
  audit?(): Omit<QuestionAuditEvent, 'at' | 'step' | 'durationMs'>;
}

export interface AskOptions<K extends QuestionKind> {
  handler: QuestionHandler<K>;
  /** The caller stopped waiting (Stop, the call's Cancel, its server's cancel): the question is withdrawn. */
  signal?: AbortSignal;
  /** Whether the question waits for the person yet (its clock runs to `expiresAt`): false while the host works on it (a sampling run). Default true. */
  timed?: boolean;
  /** No face hears of it (a request answered without asking, such as sampling always allowed): still held, ended and audited here. */
  silent?: boolean;
}

interface Entry {
  question: Question;
  handler: QuestionHandler;
  timer: unknown;
  silent: boolean;
  unwatch(): void;
}

/**
 * Every question the host puts to the person, in one place
 * (docs/rules/questions.md): a kind's module asks, the broker holds the
 * question, runs its clock on the host's scheduler (nobody answering by
 * `expiresAt` ends it `expired`), takes it back when the asker's signal
 * aborts (`withdrawn`), routes the person's answer to the kind, refuses a
 * second answer (the first one ended it), tells faces of each change, and
 * records each step through one audit draft. Questions list oldest first.
 */
export class QuestionBroker {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(change: QuestionChange) => void>();

  constructor(
    private readonly deps: {
      scheduler: Scheduler;
      /** Where asked, ended and refused questions are recorded (refusals folded per minute by the caller). */
      audit(event: QuestionAuditEvent): void;
    },
  ) {}

  /** Hears every question asked, moved on and ended; returns the unsubscribe function. */
  on(listener: (change: QuestionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The questions waiting for the person (and the host's work on them), oldest first; a silent one is not shown. */
  list(): Question[] {
    return [...this.entries.values()].filter((entry) => !entry.silent).map((entry) => entry.question);
  }

  /** One waiting question, by id. */
  get(id: string): Question | undefined {
    return this.entries.get(id)?.question;
  }

  /** Puts a question (its kind already checked it); the handler hears the answer and the end. An aborted signal ends it at once. */
  ask<K extends QuestionKind>(question: Extract<Question, { kind: K }>, options: AskOptions<K>): void {
    const { id } = question.request;
    const { signal } = options;
    const withdraw = () => this.end(id, 'withdrawn');
    signal?.addEventListener('abort', withdraw, { once: true });
    const entry: Entry = {
      question,
      handler: options.handler as unknown as QuestionHandler,
      timer: undefined,
      silent: options.silent ?? false,
      unwatch: () => signal?.removeEventListener('abort', withdraw),
    };
    this.entries.set(id, entry);
    this.record(entry, { kind: 'asked' }, 0);
    if (options.timed !== false) this.arm(entry);
    if (!entry.silent) this.emit({ change: 'asked', question });
    if (signal?.aborted) withdraw();
  }

  /** The question moved on (a sampling request's next step): faces hear of it; `timed` restarts or stops its clock. */
  update<K extends QuestionKind>(question: Extract<Question, { kind: K }>, timed: boolean): void {
    const entry = this.entries.get(question.request.id);
    if (!entry) return;
    entry.question = question;
    this.deps.scheduler.clearTimeout(entry.timer);
    entry.timer = undefined;
    if (timed) this.arm(entry);
    if (!entry.silent) this.emit({ change: 'updated', question });
  }

  /**
   * The person's answer: to the question's kind, which checks it. False for
   * an id not waiting (already answered, expired, withdrawn) or an answer of
   * another kind: a question is answered once.
   */
  respond(id: string, answer: QuestionAnswer): boolean {
    const entry = this.entries.get(id);
    if (!entry || entry.question.kind !== answer.kind) return false;
    return entry.handler.answer(answer);
  }

  /** Takes a question back, answered by no one (a face or the host gave up on it). */
  withdraw(id: string): boolean {
    return this.end(id, 'withdrawn');
  }

  /** Takes back every waiting question (the host is closing), or those of one kind. */
  withdrawAll(kind?: QuestionKind): void {
    for (const entry of [...this.entries.values()]) if (kind === undefined || entry.question.kind === kind) this.end(entry.question.request.id, 'withdrawn');
  }

  /** Ends a question with its outcome (a kind's module after an answer, or the broker's clock or signal); false when it already ended. */
  end(id: string, outcome: QuestionOutcome, error?: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    this.deps.scheduler.clearTimeout(entry.timer);
    entry.unwatch();
    this.record(entry, { kind: 'ended', outcome }, this.deps.scheduler.now() - entry.question.request.createdAt, error);
    if (!entry.silent) this.emit({ change: 'resolved', question: entry.question, outcome });
    entry.handler.ended(outcome);
    return true;
  }

  /** A step of a question already ended (a url question the server says is done) or a request refused before it was asked. */
  note(event: Omit<QuestionAuditEvent, 'at'>): void {
    this.deps.audit({ at: this.deps.scheduler.now(), ...event });
  }

  private arm(entry: Entry): void {
    const { id, expiresAt } = entry.question.request;
    entry.timer = this.deps.scheduler.setTimeout(() => this.end(id, 'expired'), Math.max(0, expiresAt - this.deps.scheduler.now()));
  }

  private record(entry: Entry, step: QuestionAuditEvent['step'], durationMs: number, error?: string): void {
    const what = entry.handler.audit?.();
    if (what) this.deps.audit({ ...what, at: this.deps.scheduler.now(), step, durationMs, ...(error ? { error } : {}) });
  }

  private emit(change: QuestionChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}
