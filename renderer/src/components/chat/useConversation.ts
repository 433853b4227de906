import { useCallback, useEffect, useRef, useState } from 'react';
import type { HostEventMessage } from '../../../../src/shared/hostApi';
import { api, onReconnect, toApiError, type ApiError } from '../../api/client';
import { applyEvent, concerns, initialState, type ConversationState } from './conversationState';

/**
 * Events of a streaming answer arrive a few hundred times a second; they are
 * applied together at most this often, so React renders (and Markdown
 * parses) a growing answer ~20 times a second, never once per token.
 */
const FLUSH_MS = 50;

export interface ConversationHandle {
  state?: ConversationState;
  error?: ApiError;
  loading: boolean;
  /** Loads the conversation again (after a branch switch, an edit, a reconnect). */
  reload(): Promise<void>;
}

/**
 * A conversation, loaded once and kept current by its chat.* events. Events
 * that arrive while it loads are applied on top of what the load returns, so
 * nothing streamed in between is lost.
 */
export function useConversation(conversationId: string | undefined): ConversationHandle {
  const [state, setState] = useState<ConversationState>();
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(false);
  const queue = useRef<HostEventMessage[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const loaded = useRef(false);
  const latestLoad = useRef(0);

  const flush = useCallback(() => {
    timer.current = undefined;
    if (!loaded.current) return;
    const events = queue.current.splice(0);
    if (events.length) setState((current) => (current ? events.reduce(applyEvent, current) : current));
  }, []);

  const load = useCallback(async () => {
    if (!conversationId) return;
    const call = ++latestLoad.current;
    // Events that come while loading wait for the answer, and are applied on top of it.
    loaded.current = false;
    setLoading(true);
    try {
      const view = await api.call('conversations.get', { id: conversationId });
      if (call !== latestLoad.current) return;
      loaded.current = true;
      // Events queued while loading may predate what the load saw; the reducer ignores what it already has.
      const events = queue.current.splice(0);
      setState(events.reduce(applyEvent, initialState(view)));
      setError(undefined);
    } catch (e) {
      if (call !== latestLoad.current) return;
      setError(toApiError(e));
      // The state shown before stays, and follows the events again.
      loaded.current = true;
      flush();
    } finally {
      if (call === latestLoad.current) setLoading(false);
    }
  }, [conversationId, flush]);

  useEffect(() => {
    loaded.current = false;
    queue.current = [];
    setState(undefined);
    setError(undefined);
    if (!conversationId) return;
    const off = api.onAny((event) => {
      if (!concerns(event, conversationId)) return;
      queue.current.push(event);
      timer.current ??= setTimeout(flush, FLUSH_MS);
    });
    const offReconnect = onReconnect(() => void load());
    void load();
    return () => {
      off();
      offReconnect();
      clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [conversationId, flush, load]);

  // An edit or a regeneration made new siblings: only the host lists them.
  const stale = state?.stale ?? false;
  const idle = state?.phase.kind !== 'running';
  useEffect(() => {
    if (stale && idle) void load();
  }, [stale, idle, load]);

  return { state, error, loading, reload: load };
}
