import { useCallback, useEffect, useRef, useState } from 'react';
import type { HostEventMessage } from '../../../../src/shared/hostApi';
import { api, onReconnect, toApiError, type ApiError } from '../../api/client';
import { applyEvent, concerns, hasOlder, initialState, reachesEnd, withNewer, withOlder, type ConversationState } from './conversationState';
import { keepRunningTurns, runningTurnEvents } from './runningTurns';

keepRunningTurns();

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
  /** Loads the conversation again (after a branch switch, an edit, a reconnect): its newest window, or the window around `around`. */
  reload(around?: string): Promise<void>;
  /** The messages before the first shown (the user scrolled up); nothing when they are all shown or a page is on its way. */
  loadOlder(): Promise<void>;
  /** The messages after the last shown, when the newest are not (after a jump to an old message). */
  loadNewer(): Promise<void>;
  /** Which way a page is being loaded now. */
  paging?: 'older' | 'newer';
}

/**
 * A conversation, loaded once and kept current by its chat.* events. Events
 * that arrive while it loads, and those its running turn sent before it was
 * opened (runningTurns.ts), are applied on top of what the load returns, so
 * nothing streamed in between is lost. With `limit`, it is loaded by
 * windows of that many messages (the newest first, or those around
 * `around`), and pages of older or newer ones as the user scrolls; without,
 * whole (a sub-agent's short run).
 */
export function useConversation(conversationId: string | undefined, options: { limit?: number; around?: string } = {}): ConversationHandle {
  const { limit, around } = options;
  const [state, setState] = useState<ConversationState>();
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(false);
  const [paging, setPaging] = useState<'older' | 'newer'>();
  const queue = useRef<HostEventMessage[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const loaded = useRef(false);
  const latestLoad = useRef(0);
  const current = useRef<ConversationState>(undefined);
  current.current = state;
  const pagingNow = useRef(false);

  const flush = useCallback(() => {
    timer.current = undefined;
    if (!loaded.current) return;
    const events = queue.current.splice(0);
    if (events.length) setState((current) => (current ? events.reduce(applyEvent, current) : current));
  }, []);

  const load = useCallback(
    async (aroundId?: string) => {
      if (!conversationId) return;
      const call = ++latestLoad.current;
      // Events that come while loading wait for the answer, and are applied on top of it.
      loaded.current = false;
      setLoading(true);
      try {
        const view = await api.call('conversations.get', { id: conversationId, ...(limit !== undefined ? { limit, ...(aroundId !== undefined ? { around: aroundId } : {}) } : {}) });
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
    },
    [conversationId, limit, flush],
  );

  /** One page before or after what is shown, on the same branch; merged into the state as it is by then. */
  const page = useCallback(
    async (direction: 'older' | 'newer') => {
      const shown = current.current;
      if (!conversationId || limit === undefined || !shown || pagingNow.current) return;
      if (direction === 'older' ? !hasOlder(shown) : reachesEnd(shown)) return;
      const edge = direction === 'older' ? shown.view.messages[0] : shown.view.messages.at(-1);
      const leafId = shown.view.conversation.leafId;
      if (!edge || !leafId) return;
      const call = latestLoad.current;
      pagingNow.current = true;
      setPaging(direction);
      try {
        // Pages five times the first window: a reader going far back asks seldom, and each page costs the list a pass over all its rows.
        const view = await api.call('conversations.get', { id: conversationId, limit: Math.min(500, limit * 5), leafId, ...(direction === 'older' ? { before: edge.id } : { after: edge.id }) });
        // A reload since (a branch switch, a reconnect) made this page another branch's.
        if (call !== latestLoad.current) return;
        setState((now) => (now ? (direction === 'older' ? withOlder(now, view) : withNewer(now, view)) : now));
      } catch (e) {
        setError(toApiError(e));
      } finally {
        pagingNow.current = false;
        setPaging(undefined);
      }
    },
    [conversationId, limit],
  );
  const loadOlder = useCallback(() => page('older'), [page]);
  const loadNewer = useCallback(() => page('newer'), [page]);

  useEffect(() => {
    loaded.current = false;
    // What its running turn streamed before it was opened (a new chat's first pieces come before its id does) goes
    // first, on top of the load, with what comes from here on.
    queue.current = conversationId ? runningTurnEvents(conversationId) : [];
    setState(undefined);
    setError(undefined);
    if (!conversationId) return;
    const off = api.onAny((event) => {
      if (!concerns(event, conversationId)) return;
      queue.current.push(event);
      timer.current ??= setTimeout(flush, FLUSH_MS);
    });
    const offReconnect = onReconnect(() => void load());
    return () => {
      off();
      offReconnect();
      clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [conversationId, flush, load]);

  // The first load, and another when the message to show changes (a second search hit in the same conversation).
  useEffect(() => {
    // A jump: the rows shown are another window's, and the view must not place the message among them before its own window comes.
    if (around !== undefined) setState(undefined);
    void load(around);
  }, [load, around]);

  // An edit or a regeneration made new siblings: only the host lists them.
  const stale = state?.stale ?? false;
  const idle = state?.phase.kind !== 'running';
  useEffect(() => {
    if (stale && idle) void load();
  }, [stale, idle, load]);

  return { state, error, loading, reload: load, loadOlder, loadNewer, ...(paging ? { paging } : {}) };
}
