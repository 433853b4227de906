import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { ElicitationRequest } from '../../../src/shared/elicitation';
import { api } from '../api/client';
import { usePendingList } from './pendingList';

const loadQuestions = async () => (await api.call('elicitations.list', {})).pending;
function subscribeQuestions(added: (request: ElicitationRequest) => void, ended: (id: string) => void): () => void {
  const offRequired = api.on('elicitation.required', ({ request }) => added(request));
  const offResolved = api.on('elicitation.resolved', ({ id }) => ended(id));
  return () => {
    offRequired();
    offResolved();
  };
}

interface PendingElicitations {
  /** Every question of a server the host is waiting for the user to answer, oldest first. */
  pending: ElicitationRequest[];
  /** Drops one at once after the user answered it (the `elicitation.resolved` event follows). */
  dismiss(id: string): void;
}

const ElicitationsContext = createContext<PendingElicitations | null>(null);

/** One list of servers' pending questions for the whole window (docs/using/elicitation.md). */
export function ElicitationsProvider({ children }: { children: ReactNode }) {
  const { pending, dismiss } = usePendingList(loadQuestions, subscribeQuestions);
  const value = useMemo(() => ({ pending, dismiss }), [pending, dismiss]);
  return <ElicitationsContext.Provider value={value}>{children}</ElicitationsContext.Provider>;
}

export function usePendingElicitations(): PendingElicitations {
  const value = useContext(ElicitationsContext);
  if (!value) throw new Error('usePendingElicitations must be used inside <ElicitationsProvider>');
  return value;
}
