import type { HostApiService } from '../src/api/types.js';
import type { HostApiReply } from '../src/shared/hostApi.js';
import { isAppUrl } from './appUrls.js';

/**
 * The one IPC channel (`chatos:api`). Only the renderer's top frame in our
 * window may call it: a plugin page (an iframe on a `chatos-app:` origin),
 * an MCP App view (an iframe at `chatos-view:`), another webContents, or a
 * frame that navigated away is refused before the payload is even read.
 * The payload itself is checked against the HostApi contract by
 * `api.handle`. No electron import: the shapes below are the parts of
 * Electron's `IpcMainInvokeEvent` this needs.
 */
export const API_CHANNEL = 'chatos:api';
export const EVENT_CHANNEL = 'chatos:event';

export interface SenderFrame {
  url: string;
  /** null for a top frame. */
  parent: unknown;
}

export interface Sender {
  id: number;
  /**
   * Electron's WebContents events (a test's plain sender may have none): the page that asked goes away when its
   * contents are destroyed (the window closed), its renderer process is gone, or its top frame starts loading another
   * document (a reload). A view's iframe navigating, or the page's own hash route changing, is no such thing.
   */
  on?(event: string, listener: (...args: never[]) => void): unknown;
}

export interface InvokeEvent {
  /** null when the frame was destroyed or navigated before the message was handled. */
  senderFrame: SenderFrame | null;
  sender: Sender;
}

export type IsOurFrame = (senderFrame: SenderFrame | null, sender: Sender) => boolean;

export interface IpcHandlerOptions {
  api: Pick<HostApiService, 'handle'>;
  isOurFrame: IsOurFrame;
}

/**
 * True for the top frame of the webContents `mainContentsId()` names, while
 * it shows the renderer (`chatos://app/…`). `mainContentsId` is read on every
 * call: the window may be closed (undefined) or recreated.
 */
export function mainFrameCheck(mainContentsId: () => number | undefined): IsOurFrame {
  return (senderFrame, sender) => {
    const ours = mainContentsId();
    if (ours === undefined || sender.id !== ours) return false;
    if (senderFrame === null || senderFrame.parent !== null) return false;
    return isAppUrl(senderFrame.url);
  };
}

export function createIpcHandler(options: IpcHandlerOptions): (event: InvokeEvent, payload: unknown) => Promise<HostApiReply> {
  return async (event, payload) => {
    if (!options.isOurFrame(event.senderFrame, event.sender)) {
      return { ok: false, error: { code: 'NOT_ALLOWED', message: `the HostApi answers only the ChatOS window; this message came from ${event.senderFrame?.url ?? 'a frame that is gone'}` } };
    }
    const gone = senderGone(event.sender);
    try {
      return await options.api.handle(payload, { signal: gone.signal });
    } catch (error) {
      // handle() never throws by contract; if it does, the renderer still gets a reply, not a rejected invoke.
      return { ok: false, error: { code: 'FAILED', message: (error as Error).message } };
    } finally {
      gone.stopWatching();
    }
  };
}

/** What a navigation event says about itself (Electron's `did-start-navigation` details). */
interface NavigationDetails {
  isMainFrame?: boolean;
  isSameDocument?: boolean;
}

/** The calls in flight of each window, by its contents: one set of listeners per window, whatever the number of calls. */
const inFlight = new WeakMap<Sender, Set<AbortController>>();

/**
 * Aborts once the page that made a call can no longer take its answer, as `chatos serve` does when a request's
 * connection closes (src/serve/apiRoute.ts): a view's long call made for it is cancelled, and its server is told.
 * A window's contents get their three listeners once, at its first call, and they abort every call in flight: a
 * listener per call would have many calls (a page's views polling) hold many listeners, and Node warns of a leak
 * past ten. A call leaves the set when answered.
 */
function senderGone(sender: Sender): { signal: AbortSignal; stopWatching(): void } {
  const calls = inFlight.get(sender) ?? watchWindow(sender);
  const gone = new AbortController();
  calls.add(gone);
  return { signal: gone.signal, stopWatching: () => calls.delete(gone) };
}

/** The set of a window's calls in flight, with the listeners that abort them all when the window goes. */
function watchWindow(sender: Sender): Set<AbortController> {
  const calls = new Set<AbortController>();
  inFlight.set(sender, calls);
  const abortAll = (why: string) => {
    for (const call of calls) call.abort(new Error(`the window that made this call ${why} before its answer`));
    calls.clear();
  };
  sender.on?.('destroyed', () => abortAll('was closed'));
  sender.on?.('render-process-gone', () => abortAll('lost its renderer process'));
  sender.on?.('did-start-navigation', (details: NavigationDetails) => {
    if (details?.isMainFrame === true && details.isSameDocument !== true) abortAll('loaded another page');
  });
  return calls;
}
