import type { HostApiReply, HostEventMessage } from '../../../src/shared/hostApi';
import { i18n } from '../i18n';

/**
 * Whether host events reach this page: `lost` while the event socket is down
 * (retrying), `ended` when the host refused this page's token (no retry can help).
 */
export type HostLinkState = 'connected' | 'lost' | 'ended';

/** How requests reach the host and events come back: Electron IPC or HTTP + WebSocket. */
export interface Transport {
  face: 'electron' | 'serve';
  invoke(request: { method: string; params: unknown }): Promise<HostApiReply>;
  /**
   * `onReconnect` fires after events were lost (a dropped WebSocket came back);
   * `onHostLink` when the event stream goes down or comes back (never in Electron: IPC does not drop).
   */
  subscribe(onEvent: (event: HostEventMessage) => void, onReconnect: () => void, onHostLink: (state: HostLinkState) => void): void;
}

/** What the Electron preload exposes as `window.chatos`. */
export interface PreloadBridge {
  face: 'electron';
  invoke(request: { method: string; params: unknown }): Promise<HostApiReply>;
  onEvent(listener: (event: HostEventMessage) => void): () => void;
}

declare global {
  interface Window {
    chatos?: PreloadBridge;
  }
}

/** Events cross a process boundary; the renderer has no zod, so it checks the envelope by hand. */
export function isHostEvent(value: unknown): value is HostEventMessage {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

export function electronTransport(bridge: PreloadBridge): Transport {
  return {
    face: 'electron',
    invoke: (request) => bridge.invoke(request),
    subscribe(onEvent) {
      bridge.onEvent((event) => {
        if (isHostEvent(event)) onEvent(event);
      });
    },
  };
}

const TOKEN_KEY = 'chatos.token';

/**
 * The page is first opened as `/?token=T`. Keep T for this tab and take it out
 * of the address bar, so it is not left in history or shown on screen.
 */
export function takeServeToken(): string | undefined {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

/**
 * This page load's id, sent with every request and on the event socket: the
 * host keeps the server instances of the conversations this tab uses while
 * its socket is there (a reconnect keeps them), and releases them a grace
 * time after the tab is closed. A reload is a new page, with a new id.
 */
const CLIENT_ID = crypto.randomUUID();

function failure(code: string, message: string, hint?: string): HostApiReply {
  return { ok: false, error: hint ? { code, message, hint } : { code, message } };
}

export function serveTransport(token: string | undefined): Transport {
  return {
    face: 'serve',
    async invoke(request) {
      let response: Response;
      try {
        response = await fetch('/api', {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', 'X-ChatOS-Client': CLIENT_ID, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(request),
        });
      } catch (error) {
        return failure('NETWORK', i18n.t('common.transport.network', { detail: (error as Error).message }), i18n.t('common.transport.networkHint'));
      }
      const body: unknown = await response.json().catch(() => undefined);
      if (typeof body === 'object' && body !== null && typeof (body as { ok?: unknown }).ok === 'boolean') return body as HostApiReply;
      if (response.status === 401 || response.status === 403) {
        return failure('UNAUTHORIZED', i18n.t('common.transport.unauthorized', { status: response.status }), i18n.t('common.transport.unauthorizedHint'));
      }
      return failure('HTTP', i18n.t('common.transport.unexpected', { status: response.status }));
    },
    subscribe(onEvent, onReconnect, onHostLink) {
      connectEvents(token, onEvent, onReconnect, onHostLink);
    },
  };
}

/**
 * A browser hides why a WebSocket handshake failed, so after a drop the same
 * url is asked over plain HTTP: 401 means the host no longer takes this
 * page's token (e.g. `chatos serve` restarted with a new one).
 */
async function tokenRefused(url: URL): Promise<boolean> {
  const http = new URL(url);
  http.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  try {
    const response = await fetch(http, { credentials: 'same-origin', cache: 'no-store' });
    return response.status === 401;
  } catch {
    return false; // the host is not reachable at all: keep retrying
  }
}

/**
 * Keeps one WebSocket open for the life of the page, reconnecting with backoff
 * (0.5 s doubling to 10 s), and stops for good once the host refuses the token.
 */
function connectEvents(token: string | undefined, onEvent: (event: HostEventMessage) => void, onReconnect: () => void, onHostLink: (state: HostLinkState) => void): void {
  const url = new URL('/events', window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (token) url.searchParams.set('token', token);
  url.searchParams.set('client', CLIENT_ID);
  let delay = 500;
  let attempts = 0;

  const open = () => {
    attempts += 1;
    const socket = new WebSocket(url);
    socket.onopen = () => {
      delay = 500;
      onHostLink('connected');
      // Events sent while no socket was open are lost: tell the views to reload.
      if (attempts > 1) onReconnect();
    };
    socket.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(message.data);
      } catch {
        return;
      }
      if (isHostEvent(parsed)) onEvent(parsed);
    };
    socket.onclose = () => {
      onHostLink('lost');
      void tokenRefused(url).then((refused) => {
        if (refused) return onHostLink('ended');
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 10_000);
      });
    };
  };
  open();
}
