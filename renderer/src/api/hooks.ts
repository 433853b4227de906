import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { HostApiMethod, HostApiParams, HostApiResult, HostEventMessage } from '../../../src/shared/hostApi';
import { usePageLoads } from '../shell/pageReady';
import { api, hostLinkState, onHostLinkChange, onReconnect, toApiError, type ApiError, type HostLinkState } from './client';

type EventType = HostEventMessage['type'];

export interface ApiState<M extends HostApiMethod> {
  data?: HostApiResult<M>;
  error?: ApiError;
  loading: boolean;
  reload(): Promise<void>;
}

/** Events often come in bursts (a rescan sends plugins, registry and problems events): one reload for the burst. */
const EVENT_RELOAD_DELAY_MS = 60;

/**
 * Calls `method` and keeps the answer. Calls again when `params` change
 * (compared as JSON), when one of `refreshOn` arrives, and after the event
 * stream reconnected. The last data stays visible while a reload runs; an
 * answer to an older call never overwrites a newer one.
 */
export function useApi<M extends HostApiMethod>(method: M, params: HostApiParams<M> | undefined, options?: { refreshOn?: EventType[]; skip?: boolean }): ApiState<M> {
  const skip = options?.skip ?? false;
  const paramsKey = JSON.stringify(params ?? {});
  const refreshKey = (options?.refreshOn ?? []).join(',');
  const [state, setState] = useState<{ data?: HostApiResult<M>; error?: ApiError; loading: boolean }>({ loading: !skip });
  const latestCall = useRef(0);
  const mounted = useRef(true);
  const pageLoads = usePageLoads();
  /**
   * Ends the page's wait for this query's first answer (shell/pageReady.tsx).
   * Called once the answer shown is committed: that of the latest call (an
   * event during the first load asks again, and the first call's answer is
   * then dropped), after React rendered it, so a page marked ready shows it.
   */
  const firstAnswer = useRef<() => void>(undefined);
  // Before the effect that asks: on a commit that runs both, this one sees the previous answer and the old wait.
  useEffect(() => {
    if (state.loading) return;
    const answered = firstAnswer.current;
    firstAnswer.current = undefined;
    answered?.();
  }, [state]);

  const load = useCallback(async () => {
    if (skip) return;
    const callNumber = ++latestCall.current;
    setState((previous) => ({ ...previous, loading: true }));
    try {
      const data = await api.call(method, JSON.parse(paramsKey) as HostApiParams<M>);
      if (mounted.current && callNumber === latestCall.current) setState({ data, loading: false });
    } catch (error) {
      if (mounted.current && callNumber === latestCall.current) setState((previous) => ({ data: previous.data, error: toApiError(error), loading: false }));
    }
  }, [method, paramsKey, skip]);

  useEffect(() => {
    mounted.current = true;
    // The page is not ready before this answer (a first load, or one for new params).
    const answered = skip ? undefined : pageLoads?.begin();
    firstAnswer.current = answered;
    if (skip) {
      latestCall.current += 1;
      setState((previous) => (previous.loading ? { ...previous, loading: false } : previous));
    } else {
      void load();
    }
    return () => {
      mounted.current = false;
      if (firstAnswer.current === answered) firstAnswer.current = undefined;
      answered?.();
    };
  }, [load, skip, pageLoads]);

  useEffect(() => {
    if (skip) return;
    const types = new Set(refreshKey ? refreshKey.split(',') : []);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        void load();
      }, EVENT_RELOAD_DELAY_MS);
    };
    const offEvents = types.size > 0 ? api.onAny((event) => types.has(event.type) && schedule()) : () => undefined;
    const offReconnect = onReconnect(schedule);
    return () => {
      offEvents();
      offReconnect();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [load, refreshKey, skip]);

  return { ...state, reload: load };
}

/** Subscribes to one host event type for the life of the component; the latest `listener` is always the one called. */
export function useHostEvent<T extends EventType>(type: T, listener: (event: Extract<HostEventMessage, { type: T }>) => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => api.on(type, (event) => latest.current(event)), [type]);
}

/** The event stream's state, for the shell's "connection lost" banner. */
export function useHostLinkState(): HostLinkState {
  return useSyncExternalStore(onHostLinkChange, hostLinkState);
}
