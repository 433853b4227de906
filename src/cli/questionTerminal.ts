import type { Question, QuestionAnswer, QuestionChange, QuestionKind, QuestionOf } from '../shared/question.js';
import type { Ask } from './confirmationQuestion.js';
import type { CliIo } from './output.js';

/** What a kind's terminal face needs: the output, and the person's answer to the host. */
export interface QuestionTerminal {
  io: CliIo;
  respond(id: string, answer: QuestionAnswer): boolean;
  /** The question as it waits now: undefined once it was answered, expired or taken back. */
  waiting(id: string): Question | undefined;
}

/** One kind on the terminal: which changes it answers, its answer without a terminal, and its question on one. */
export interface KindOnTerminal<K extends QuestionKind> {
  /** Whether this change asks the person (a question asked; a sampling request's completion shown). */
  asks(change: QuestionChange & { question: QuestionOf<K> }): boolean;
  /** The answer given at once (no terminal, or --yes), or undefined to ask on the terminal. */
  atOnce(question: QuestionOf<K>): QuestionAnswer | undefined;
  /** Asks on the terminal and answers. */
  ask(question: QuestionOf<K>, terminal: Ask): Promise<void>;
  /** The answer when asking failed (the terminal closed). */
  fallback: QuestionAnswer;
}
