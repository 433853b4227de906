import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The one window: the renderer at `chatos://app/`, with the preload that
 * exposes `window.chatos` (docs/rules/security.md#the-window). Every
 * `new BrowserWindow(` in electron/ takes its options from here (a test
 * checks it), so no window can open with weaker settings. The preferences are
 * a literal, not a spread, so electronegativity can read them.
 */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 560,
    title: 'ChatOS',
    // Shown on 'ready-to-show', so the user never sees an empty white frame.
    show: false,
    webPreferences: {
      // The page and the preload live in separate JS worlds; only contextBridge crosses.
      contextIsolation: true,
      // The renderer process is sandboxed by the OS; the preload gets no Node.
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      // Plugin pages are iframes: they get neither Node nor the preload.
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      // Dropping a file on the window must not navigate away from the app.
      navigateOnDragDrop: false,
      spellcheck: false,
      // A middle-click on a link would ask for a new window (denied anyway); the event is not needed at all.
      disableBlinkFeatures: 'Auxclick',
      preload: preloadPath,
    },
  };
}
