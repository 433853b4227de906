import type { HostApiMethod, HostApiParams, HostApiResult, HostEventMessage, HostApiReply } from '../../../src/shared/hostApi';
import { electronTransport, serveTransport, takeServeToken, type HostLinkState, type Transport } from './transport';

export type { HostLinkState } from './transport';

/** A HostApi reply with `ok: false`; branch on `code`, show `message` and `hint`, put `fields` next to form fields. */
export class ApiError extends Error {
  code: string;
  hint?: string;
  fields?: { path: string; message: string; hint?: string }[];

  constructor(error: { code: string; message: string; hint?: string; fields?: { path: string; message: string; hint?: string }[] }) {
    super(error.message);
    this.name = 'ApiError';
    this.code = error.code;
    if (error.hint !== undefined) this.hint = error.hint;
    if (error.fields !== undefined) this.fields = error.fields;
  }
}

/** Any thrown value as an ApiError, so views have one error shape to show. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError({ code: 'CLIENT', message: error instanceof Error ? error.message : String(error) });
}

/** One line for a toast: the message, then how to fix it. */
export function errorLine(error: unknown): string {
  const apiError = toApiError(error);
  return apiError.hint ? `${apiError.message} — ${apiError.hint}` : apiError.message;
}

type EventType = HostEventMessage['type'];

const transport: Transport = window.chatos ? electronTransport(window.chatos) : serveTransport(takeServeToken());
const eventListeners = new Set<(event: HostEventMessage) => void>();
const reconnectListeners = new Set<() => void>();
const hostLinkListeners = new Set<() => void>();
let hostLink: HostLinkState = 'connected';

transport.subscribe(
  (event) => {
    for (const listener of [...eventListeners]) listener(event);
  },
  () => {
    for (const listener of [...reconnectListeners]) listener();
  },
  (state) => {
    if (state === hostLink) return;
    hostLink = state;
    for (const listener of [...hostLinkListeners]) listener();
  },
);

function onAny(listener: (event: HostEventMessage) => void): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

export const api = {
  face: transport.face,

  async call<M extends HostApiMethod>(method: M, params?: HostApiParams<M>): Promise<HostApiResult<M>> {
    const reply = (await transport.invoke({ method, params: params ?? {} })) as HostApiReply<M>;
    if (!reply.ok) throw new ApiError(reply.error);
    return reply.result;
  },

  on<T extends EventType>(type: T, listener: (event: Extract<HostEventMessage, { type: T }>) => void): () => void {
    return onAny((event) => {
      if (event.type === type) listener(event as Extract<HostEventMessage, { type: T }>);
    });
  },

  onAny,

  /** Urls in replies are absolute for Electron (custom protocols) and may be root-relative for serve. */
  resolveUrl(url: string): string {
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
    return new URL(url, window.location.href).toString();
  },
};

/**
 * Called after the event stream was interrupted and came back: events may
 * have been missed, so every view that shows host data should reload
 * (`useApi` does this by itself).
 */
export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

/** Whether host events reach this page now (always `connected` in Electron). */
export function hostLinkState(): HostLinkState {
  return hostLink;
}

export function onHostLinkChange(listener: () => void): () => void {
  hostLinkListeners.add(listener);
  return () => hostLinkListeners.delete(listener);
}
