import type { HostApiReply, HostEventMessage } from '../../../src/shared/hostApi';

/** How requests reach the host and events come back: Electron IPC or HTTP + WebSocket. */
export interface Transport {
  face: 'electron' | 'serve';
  invoke(request: { method: string; params: unknown }): Promise<HostApiReply>;
  /** `onReconnect` fires after events were lost (a dropped WebSocket came back). */
  subscribe(onEvent: (event: HostEventMessage) => void, onReconnect: () => void): void;
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
          headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(request),
        });
      } catch (error) {
        return failure('NETWORK', `the host did not answer: ${(error as Error).message}`, 'check that `chatos serve` is still running');
      }
      const body: unknown = await response.json().catch(() => undefined);
      if (typeof body === 'object' && body !== null && typeof (body as { ok?: unknown }).ok === 'boolean') return body as HostApiReply;
      if (response.status === 401 || response.status === 403) {
        return failure('UNAUTHORIZED', `the host refused this page (HTTP ${response.status})`, 'open the URL with the token that `chatos serve` printed');
      }
      return failure('HTTP', `unexpected reply from the host (HTTP ${response.status})`);
    },
    subscribe(onEvent, onReconnect) {
      connectEvents(token, onEvent, onReconnect);
    },
  };
}

/** Keeps one WebSocket open for the life of the page, reconnecting with backoff (0.5 s doubling to 10 s). */
function connectEvents(token: string | undefined, onEvent: (event: HostEventMessage) => void, onReconnect: () => void): void {
  const url = new URL('/events', window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (token) url.searchParams.set('token', token);
  let delay = 500;
  let attempts = 0;

  const open = () => {
    attempts += 1;
    const socket = new WebSocket(url);
    socket.onopen = () => {
      delay = 500;
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
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 10_000);
    };
  };
  open();
}
