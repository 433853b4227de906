// The Electron main process: wiring only. Every decision (window options,
// CSP, which frame may call the HostApi, which file a url may read, where
// navigation may go) lives in a module that does not import electron and is
// tested without it; this file hands Electron's objects to them.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell } from 'electron';
import { bundleArgOf } from '../src/core/facades/plugins.js';
import { type Logger, adoptLoginShellPath } from '../src/core/facades/setup.js';
import { desktopLayout, desktopSessionRoot } from './appLayout.js';
import { APP_SCHEME, MAIN_WINDOW_URL, PRIVILEGED_SCHEMES, UI_APP_SCHEME, VIEW_SCHEME } from './appUrls.js';
import { guardContents } from './contentsGuards.js';
import { startDesktopHost, type DesktopHost } from './desktopHost.js';
import { desktopSecretStore } from './safeStorageSecrets.js';
import { API_CHANNEL, createIpcHandler, EVENT_CHANNEL, mainFrameCheck } from './ipcHandler.js';
import { mainWindowOptions } from './windowOptions.js';
import { isBrowserUrl } from './browserUrl.js';

const layout = desktopLayout(app.getAppPath(), path.dirname(fileURLToPath(import.meta.url)));
const logger: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message) => console.error(message),
};

/** Opens an http(s) page in the system browser; any other url is refused and logged. */
function openInBrowser(url: string): void {
  if (!isBrowserUrl(url)) return logger.warn(`refused to open ${JSON.stringify(url.slice(0, 200))} outside the app: only http(s) pages open in the browser`);
  void shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK
}

// The host's heap grows to 1.3x what a full collection kept before the next one, not up to 4x: `chatos serve` starts
// Node so (bin/chatos.js says why, with figures). Read at each collection, so it applies from here on.
setFlagsFromString('--heap-growing-percent=30');

// Both must happen before 'ready'.
protocol.registerSchemesAsPrivileged(PRIVILEGED_SCHEMES);
app.enableSandbox();

let starting: Promise<DesktopHost> | undefined;
let desktopHost: DesktopHost | undefined;
let mainWindow: BrowserWindow | undefined;
let started = false;
let exiting = false;

/** Launch arguments before a file: the program, and the app folder when run from a checkout (`electron .`). */
const ARGV_SKIP = process.defaultApp ? 2 : 1;
/** Bundles asked to be opened before the host was up (macOS sends open-file before 'ready'). */
const openLater: { file: string; cwd: string }[] = [];

/**
 * A .mcpb the system asks ChatOS to open (double-click, "Open with"): the host reads it (a regular .mcpb only) and the
 * window shows its install preview, as for a dropped file (docs/using/bundles.md#opening-a-bundle-file).
 */
function openBundle(file: string, cwd: string): void {
  if (!desktopHost) return void openLater.push({ file, cwd });
  desktopHost.api.openBundle(file, cwd);
  if (mainWindow) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  } else if (started && !exiting) mainWindow = openWindow();
}

/** Once: stop the host (servers and backends ended, DB flushed), then leave. A quit during start waits for the start. */
function shutdown(code = 0): void {
  if (exiting) return;
  exiting = true;
  (starting ?? Promise.resolve(undefined))
    .then(
      (desktop) => desktop?.stop(),
      () => undefined,
    )
    .catch((error: unknown) => logger.error(`ChatOS did not stop cleanly: ${(error as Error).message}`))
    .finally(() => app.exit(code));
}

function openWindow(): BrowserWindow {
  // electronegativity reads one file at a time, so it cannot see the options mainWindowOptions() returns and
  // reports them as unset; test/electron/windowOptions.test.ts asserts each one (and that every window is built
  // from them), and its electronegativity test allows this one line only.
  const window = new BrowserWindow(mainWindowOptions(layout.preloadPath)); // eng-disable CONTEXT_ISOLATION_JS_CHECK SANDBOX_JS_CHECK AUXCLICK_JS_CHECK
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = undefined;
  });
  void window.loadURL(MAIN_WINDOW_URL);
  return window;
}

async function start(): Promise<void> {
  // Nothing the page asks for (camera, notifications, clipboard read, …) is granted.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  // Launched from a dock or a menu, the app has the session's bare PATH: servers get the login shell's (diagnostics show it).
  const serverPath = await adoptLoginShellPath(process.env);
  if (serverPath.kind === 'login-shell-failed') logger.warn(`could not read the login shell's PATH from ${serverPath.shell} (${serverPath.error}); servers get the PATH ChatOS was started with`);

  starting = startDesktopHost({
    host: {
      appRoot: layout.unpackedRoot,
      builtinPluginsDir: layout.builtinPluginsDir,
      defaultsDir: layout.defaultsDir,
      sessionRoot: desktopSessionRoot(process.cwd(), app.getPath('home')),
      logger,
      secrets: (home) => desktopSecretStore(safeStorage, home, logger),
    },
    rendererDir: layout.rendererDir,
    version: app.getVersion(),
    locale: app.getLocale(),
    // A remote server's sign-in page opens in the system browser (RFC 8252), never in the app's own windows.
    openExternal: openInBrowser,
    // A plugin folder to install: only the path comes back, and the install checks it as a typed one.
    pickFolder: async () => {
      const options = { properties: ['openDirectory' as const] };
      const picked = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
      return picked.canceled ? undefined : picked.filePaths[0];
    },
  });
  const desktop = await starting;
  if (exiting) return;
  protocol.handle(APP_SCHEME, desktop.appProtocol);
  protocol.handle(UI_APP_SCHEME, desktop.uiAppProtocol);
  protocol.handle(VIEW_SCHEME, desktop.appViewProtocol);

  ipcMain.handle(API_CHANNEL, createIpcHandler({ api: desktop.api, isOurFrame: mainFrameCheck(() => mainWindow?.webContents.id) }));
  desktop.api.onEvent((event) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(EVENT_CHANNEL, event);
  });
  mainWindow = openWindow();
  started = true;
  desktopHost = desktop;
  const first = bundleArgOf(process.argv, ARGV_SKIP);
  if (first !== undefined) openLater.push({ file: first, cwd: process.cwd() });
  for (const { file, cwd } of openLater.splice(0)) openBundle(file, cwd);
}

if (!app.requestSingleInstanceLock()) {
  // ChatOS is already running: that instance gets 'second-instance' and shows its window.
  app.quit();
} else {
  // Windows and Linux: a bundle opened while ChatOS runs starts a second instance, which hands its argv here and quits.
  app.on('second-instance', (_event, argv, cwd) => {
    const file = bundleArgOf(argv, ARGV_SKIP);
    if (file !== undefined) return openBundle(file, cwd);
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  // macOS: a bundle opened from the Finder or the dock, before or after start.
  app.on('open-file', (event, file) => {
    event.preventDefault();
    openBundle(file, process.cwd());
  });
  app.on('web-contents-created', (_event, contents) => guardContents(contents));
  app.on('before-quit', (event) => {
    // Quitting waits for the host: prevent this quit, stop, then app.exit().
    event.preventDefault();
    shutdown();
  });
  app.on('window-all-closed', () => shutdown());
  app.on('activate', () => {
    // macOS: a click on the dock icon with no window open (once the host is up).
    if (started && !mainWindow && !exiting) mainWindow = openWindow();
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      dialog.showErrorBox('ChatOS could not start', (error as Error).message);
      shutdown(1);
    });
}
