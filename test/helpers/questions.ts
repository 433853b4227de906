import type { Host } from '../../src/core/host.js';
import type { ApprovalScope } from '../../src/shared/confirmation.js';
import type { ElicitationAction } from '../../src/shared/elicitation.js';
import type { QuestionKind, QuestionOf, QuestionOutcome } from '../../src/shared/question.js';
import type { SamplingAnswer } from '../../src/shared/sampling.js';

type HostQuestions = Pick<Host, 'questions'>;
type RequestOf<K extends QuestionKind> = QuestionOf<K>['request'];

/** Hears each question of `kind` as it is asked (`asked`) or moves on (`updated`); returns the unsubscribe function. */
export function onAsked<K extends QuestionKind>(host: HostQuestions, kind: K, listener: (request: RequestOf<K>) => void, change: 'asked' | 'updated' = 'asked'): () => void {
  return host.questions.on((event) => {
    if (event.change === change && event.question.kind === kind) listener(event.question.request as RequestOf<K>);
  });
}

/** Hears each question of `kind` move on (a sampling request's next step). */
export const onUpdated = <K extends QuestionKind>(host: HostQuestions, kind: K, listener: (request: RequestOf<K>) => void) => onAsked(host, kind, listener, 'updated');

/** Hears each question of `kind` end, with its outcome. */
export function onResolved<K extends QuestionKind>(host: HostQuestions, kind: K, listener: (request: RequestOf<K>, outcome: QuestionOutcome) => void): () => void {
  return host.questions.on((event) => {
    if (event.change === 'resolved' && event.question.kind === kind) listener(event.question.request as RequestOf<K>, event.outcome);
  });
}

/** The requests of `kind` waiting now, oldest first. */
export function pendingOf<K extends QuestionKind>(host: HostQuestions, kind: K): RequestOf<K>[] {
  return host.questions
    .list()
    .filter((question) => question.kind === kind)
    .map((question) => question.request as RequestOf<K>);
}

/** A tool confirmation answered as a person would. */
export const confirm = (host: HostQuestions, id: string, approved: boolean, scope?: ApprovalScope) => host.questions.respond(id, { kind: 'toolConfirmation', approved, ...(scope ? { scope } : {}) });

/** A server's question answered as a person would. */
export const answerElicitation = (host: HostQuestions, id: string, action: ElicitationAction, content?: unknown) =>
  host.questions.respond(id, { kind: 'elicitation', action, ...(content !== undefined ? { content: content as never } : {}) });

/** A sampling request answered as a person would. */
export const answerSampling = (host: HostQuestions, id: string, answer: SamplingAnswer) => host.questions.respond(id, { kind: 'sampling', answer });
