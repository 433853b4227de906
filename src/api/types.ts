import type { AppView, ViewPlace } from '../core/facades/tools.js';
import type { HostApiReply, HostEventMessage } from '../shared/hostApi.js';

/** What differs per face: how a page frame and an artifact are addressed (http urls for serve, custom protocols for Electron). */
export interface FaceUrls {
  /** The url of the shell that mounts an app's page (`surface` full or compact) in a sandboxed frame. */
  uiAppUrl(pluginId: string, appId: string, surface: 'full' | 'compact'): string;
  /** The url an `<img>` loads a saved artifact from; `file` is an absolute path inside the artifacts folder. */
  artifactUrl(file: string): string;
  /**
   * Where a frame loads an MCP App view (docs/rules/mcp-apps.md#the-frame): the url of its sandbox proxy, at the
   * origin of the view's site, one per app and the party it acts for (`actsFor`); every face serves views.
   */
  appView(view: AppView, actsFor: string): { url: string; origin: string };
  /** Who frames views, and the host's own origins a view's CSP never lists (docs/rules/mcp-apps.md#the-frames-csp). */
  viewPlace(): ViewPlace;
}

/**
 * The HostApi bound to one started host: the faces (Electron IPC, `chatos
 * serve`) hand it raw payloads and forward its events; it validates every
 * request against the contract before the core sees it.
 */
/** Who sent a request, as the face knows it: a browser tab's client id ties the conversations it uses to that tab. */
export interface RequestOrigin {
  client?: string;
  /**
   * Aborts once the sender can no longer take the answer (a browser's request whose connection closed: the tab went
   * away or reloaded). A view's call made for it is cancelled then, so its server is told, as when the user cancels.
   */
  signal?: AbortSignal;
}

export interface HostApiService {
  /** Never throws: bad input and core errors come back as `{ ok: false, error }`. */
  handle(raw: unknown, origin?: RequestOrigin): Promise<HostApiReply>;
  /**
   * A client's connection (a tab's event socket) opened or closed. When all
   * of a client's connections are gone for the grace time, the instances of
   * the conversations it used are released. An id that is not a plain token
   * is ignored.
   */
  clientConnected(client: string): void;
  clientDisconnected(client: string): void;
  /**
   * The desktop was asked to open `file` (a launch's argument, relative to `cwd`; macOS's open-file): read now, held
   * until the window takes it with plugins.takeOpenedBundle, and a `bundle.opened` event tells the window.
   */
  openBundle(file: string, cwd: string): void;
  /** Live events for the UI; returns the unsubscribe function. */
  onEvent(listener: (event: HostEventMessage) => void): () => void;
  dispose(): void;
}
