import { questionDraft } from '../audit/questionAudit.js';
import { RefusalTally } from '../audit/refusalTally.js';
import type { QuestionsFacade } from '../facades/questions.js';
import { QuestionBroker } from '../questions/questionBroker.js';
import type { HostBase } from './hostBase.js';
import { narrow } from './narrow.js';

export interface QuestionsModule {
  readonly broker: QuestionBroker;
  /** The refusals of what servers ask the host, folded per server, method and code a minute. */
  readonly refusals: RefusalTally;
  readonly facade: QuestionsFacade;
}

/**
 * The one question broker, with its audit: what servers ask is recorded, and
 * its refusals once per server, method and code a minute, with a count (a
 * server can ask endlessly).
 */
export function questionsModule(base: HostBase): QuestionsModule {
  const refusals = new RefusalTally({ scheduler: base.scheduler, append: (draft) => base.audit.append(draft) });
  const broker = new QuestionBroker({
    scheduler: base.scheduler,
    audit: (event) => {
      const draft = questionDraft(event);
      if (draft.decision === 'refused') refusals.record(draft);
      else base.audit.append(draft);
    },
  });
  return { broker, refusals, facade: narrow(broker, ['on', 'list', 'respond']) };
}
