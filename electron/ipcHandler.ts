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
    try {
      return await options.api.handle(payload);
    } catch (error) {
      // handle() never throws by contract; if it does, the renderer still gets a reply, not a rejected invoke.
      return { ok: false, error: { code: 'FAILED', message: (error as Error).message } };
    }
  };
}
