// The preload of the ChatOS window. CommonJS (.cts → .cjs): a sandboxed
// preload cannot be an ES module, and it may require only 'electron', so it
// imports nothing else (types are erased). It exposes exactly three things
// to the page as `window.chatos`: send one HostApi request, subscribe to
// host events, and which face this is. No ipcRenderer, no generic send: the
// page can reach one channel, and main checks every payload it gets there.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { HostApiReply, HostEventMessage } from '../src/shared/hostApi.js';

// Must match API_CHANNEL / EVENT_CHANNEL in ipcHandler.ts (a test checks it); importing them would be a second require.
const API_CHANNEL = 'chatos:api';
const EVENT_CHANNEL = 'chatos:event';

contextBridge.exposeInMainWorld('chatos', {
  invoke: (request: unknown): Promise<HostApiReply> => ipcRenderer.invoke(API_CHANNEL, request),
  onEvent: (callback: (event: HostEventMessage) => void): (() => void) => {
    const listener = (_event: IpcRendererEvent, message: HostEventMessage) => callback(message);
    ipcRenderer.on(EVENT_CHANNEL, listener);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, listener);
    };
  },
  face: 'electron',
});
