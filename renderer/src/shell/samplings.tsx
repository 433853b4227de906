import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { SamplingRequest } from '../../../src/shared/sampling';
import { api } from '../api/client';
import { usePendingList } from './pendingList';

const loadRequests = async () => (await api.call('sampling.list', {})).pending;
function subscribeRequests(added: (request: SamplingRequest) => void, ended: (id: string) => void, changed: (request: SamplingRequest) => void): () => void {
  const offs = [api.on('sampling.required', ({ request }) => added(request)), api.on('sampling.updated', ({ request }) => changed(request)), api.on('sampling.resolved', ({ id }) => ended(id))];
  return () => offs.forEach((off) => off());
}

interface PendingSamplings {
  /** Every sampling request of a server waiting for the user (or its model), oldest first. */
  pending: SamplingRequest[];
  /** Drops one at once after the user declined or sent it (the `sampling.resolved` event follows). */
  dismiss(id: string): void;
}

const SamplingsContext = createContext<PendingSamplings | null>(null);

/** One list of servers' pending sampling requests for the whole window (docs/using/sampling.md). */
export function SamplingsProvider({ children }: { children: ReactNode }) {
  const { pending, dismiss } = usePendingList(loadRequests, subscribeRequests);
  const value = useMemo(() => ({ pending, dismiss }), [pending, dismiss]);
  return <SamplingsContext.Provider value={value}>{children}</SamplingsContext.Provider>;
}

export function usePendingSamplings(): PendingSamplings {
  const value = useContext(SamplingsContext);
  if (!value) throw new Error('usePendingSamplings must be used inside <SamplingsProvider>');
  return value;
}
