import { useCallback, useEffect, useState } from 'react';
import { onReconnect } from '../api/client';

/**
 * A list of questions the host is waiting on the user for (confirmations,
 * a server's questions): loaded once, then kept by the host's events —
 * `subscribe` gets one function for an item asked, one for an item ended
 * and one for an item that changed (a sampling request moving to its next
 * step) — and loaded again after the event stream came back. Never polled.
 */
export function usePendingList<T extends { id: string }>(
  load: () => Promise<T[]>,
  subscribe: (added: (item: T) => void, ended: (id: string) => void, changed: (item: T) => void) => () => void,
): { pending: T[]; dismiss(id: string): void } {
  const [pending, setPending] = useState<T[]>([]);
  useEffect(() => {
    let active = true;
    const reload = () => {
      load().then(
        (items) => active && setPending(items),
        () => undefined, // the header and pages show connection errors; an empty list is the honest fallback
      );
    };
    reload();
    const off = subscribe(
      (item) => setPending((list) => (list.some((known) => known.id === item.id) ? list : [...list, item])),
      (id) => setPending((list) => list.filter((known) => known.id !== id)),
      (item) => setPending((list) => (list.some((known) => known.id === item.id) ? list.map((known) => (known.id === item.id ? item : known)) : [...list, item])),
    );
    const offReconnect = onReconnect(reload);
    return () => {
      active = false;
      off();
      offReconnect();
    };
    // Loaded once per mount: the callers pass functions of the module, not of a render.
  }, []);
  /** Drops one at once after the user answered it (the ended event follows). */
  const dismiss = useCallback((id: string) => setPending((list) => list.filter((known) => known.id !== id)), []);
  return { pending, dismiss };
}
