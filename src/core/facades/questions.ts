import type { QuestionBroker } from '../questions/questionBroker.js';

/**
 * Everything the host asks the person (docs/rules/questions.md): a tool's
 * confirmation, a server's question, a server's sampling request. Faces list
 * them, hear of each change, and answer with `respond()`; each kind checks
 * its own answer.
 */
export type QuestionsFacade = Pick<QuestionBroker, 'on' | 'list' | 'respond'>;
