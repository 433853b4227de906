import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Question, QuestionKind, QuestionOf } from '../../../src/shared/question';
import { api } from '../api/client';
import { usePendingList } from './pendingList';

/** A question as the list keeps it: by its request's id. */
type Held = Question & { id: string };
const held = (question: Question): Held => ({ ...question, id: question.request.id });

const loadQuestions = async () => (await api.call('questions.list', {})).pending.map(held);
function subscribeQuestions(added: (question: Held) => void, ended: (id: string) => void, changed: (question: Held) => void): () => void {
  return api.on('question', ({ change, question }) => {
    if (change === 'asked') added(held(question));
    else if (change === 'updated') changed(held(question));
    else ended(question.request.id);
  });
}

interface PendingQuestions {
  /** Every question the host is waiting on the person for (docs/rules/questions.md), oldest first. */
  pending: Held[];
  /** Drops one at once after the user answered it (the `question` event that ends it follows). */
  dismiss(id: string): void;
  /** Conversations whose questions a mounted view shows inline (the Chat page): the global area leaves them to it. */
  shownInline: ReadonlySet<string>;
  /** Marks conversations as shown inline until the returned function is called. */
  showInline(conversationIds: readonly string[]): () => void;
  /** The questions the host tied to a tool call, by `callKey` (its conversation and the model's call id): shown on that call's card. */
  onCall: ReadonlyMap<string, Held>;
}

const QuestionsContext = createContext<PendingQuestions | null>(null);

/** One list of the host's questions for the whole window: loaded once (`questions.list`), then kept by the `question` event. */
export function QuestionsProvider({ children }: { children: ReactNode }) {
  const { pending, dismiss } = usePendingList(loadQuestions, subscribeQuestions);
  const [inline, setInline] = useState<ReadonlyMap<string, number>>(new Map());
  const showInline = useCallback((ids: readonly string[]) => {
    const change = (delta: number) =>
      setInline((current) => {
        const next = new Map(current);
        for (const id of ids) {
          const count = (next.get(id) ?? 0) + delta;
          if (count > 0) next.set(id, count);
          else next.delete(id);
        }
        return next;
      });
    change(1);
    return () => change(-1);
  }, []);
  const shownInline = useMemo(() => new Set(inline.keys()), [inline]);
  const onCall = useMemo(
    () => new Map(pending.flatMap((question) => (question.call === undefined ? [] : [[callKey(question.call.conversationId, question.call.callId), question] as const]))),
    [pending],
  );
  const value = useMemo(() => ({ pending, dismiss, shownInline, showInline, onCall }), [pending, dismiss, shownInline, showInline, onCall]);
  return <QuestionsContext.Provider value={value}>{children}</QuestionsContext.Provider>;
}

function usePendingQuestions(): PendingQuestions {
  const value = useContext(QuestionsContext);
  if (!value) throw new Error('usePendingQuestions must be used inside <QuestionsProvider>');
  return value;
}

/**
 * The key of one tool call in `onCall`: a model's call id is unique only within one answer (ids like `call_0` repeat
 * across turns and conversations), so a call is named by its conversation too, and no card shows another's question.
 */
export const callKey = (conversationId: string, callId: string) => `${conversationId}\u0000${callId}`;

/** The waiting requests of one kind, with the list's other parts: what a card of that kind shows. */
export function usePending<K extends QuestionKind>(kind: K): Omit<PendingQuestions, 'pending'> & { pending: QuestionOf<K>['request'][] } {
  const all = usePendingQuestions();
  const pending = useMemo(() => all.pending.filter((question) => question.kind === kind).map((question) => question.request as QuestionOf<K>['request']), [all.pending, kind]);
  return useMemo(() => ({ ...all, pending }), [all, pending]);
}

/**
 * The question a tool call waits on, whatever its kind, and how to drop it once answered: the one the host tied to
 * this call (a confirmation before it runs, a server's question or sampling request while it runs). Nothing outside
 * the window's provider.
 */
export function useQuestionOfCall(conversationId: string | undefined, callId: string): { question: Held; dismiss(id: string): void } | undefined {
  const value = useContext(QuestionsContext);
  const question = conversationId === undefined ? undefined : value?.onCall.get(callKey(conversationId, callId));
  if (!value || !question) return undefined;
  return { question, dismiss: value.dismiss };
}
