import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation';
import { api } from '../api/client';
import { usePendingList } from './pendingList';

const loadConfirmations = async () => (await api.call('confirmations.list', {})).pending;
function subscribeConfirmations(added: (request: ToolConfirmationRequest) => void, ended: (id: string) => void): () => void {
  const offRequired = api.on('confirmation.required', ({ request }) => added(request));
  const offResolved = api.on('confirmation.resolved', ({ id }) => ended(id));
  return () => {
    offRequired();
    offResolved();
  };
}

interface PendingConfirmations {
  /** Every confirmation the host is waiting for, oldest first. */
  pending: ToolConfirmationRequest[];
  /** Drops one at once after the user answered it (the `confirmation.resolved` event follows). */
  dismiss(id: string): void;
  /** Conversations whose confirmations and server questions a mounted view shows inline (the Chat page): the global area leaves them to it. */
  shownInline: ReadonlySet<string>;
  /** Marks conversations as shown inline until the returned function is called. */
  showInline(conversationIds: readonly string[]): () => void;
}

const ConfirmationsContext = createContext<PendingConfirmations | null>(null);

/** One list of pending confirmations for the whole window: loaded once, then kept by events. */
export function ConfirmationsProvider({ children }: { children: ReactNode }) {
  const { pending, dismiss } = usePendingList(loadConfirmations, subscribeConfirmations);
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
  const value = useMemo(() => ({ pending, dismiss, shownInline, showInline }), [pending, dismiss, shownInline, showInline]);
  return <ConfirmationsContext.Provider value={value}>{children}</ConfirmationsContext.Provider>;
}

export function usePendingConfirmations(): PendingConfirmations {
  const value = useContext(ConfirmationsContext);
  if (!value) throw new Error('usePendingConfirmations must be used inside <ConfirmationsProvider>');
  return value;
}
