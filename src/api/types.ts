import type { HostApiReply, HostEventMessage } from '../shared/hostApi.js';

/** What differs per face: how a page frame and an artifact are addressed (http urls for serve, custom protocols for Electron). */
export interface FaceUrls {
  /** The url of the shell that mounts an app's page (`surface` full or compact) in a sandboxed frame. */
  uiAppUrl(pluginId: string, appId: string, surface: 'full' | 'compact'): string;
  /** The url an `<img>` loads a saved artifact from; `file` is an absolute path inside the artifacts folder. */
  artifactUrl(file: string): string;
}

/**
 * The HostApi bound to one started host: the faces (Electron IPC, `chatos
 * serve`) hand it raw payloads and forward its events; it validates every
 * request against the contract before the core sees it.
 */
export interface HostApiService {
  /** Never throws: bad input and core errors come back as `{ ok: false, error }`. */
  handle(raw: unknown): Promise<HostApiReply>;
  /** Live events for the UI; returns the unsubscribe function. */
  onEvent(listener: (event: HostEventMessage) => void): () => void;
  dispose(): void;
}
