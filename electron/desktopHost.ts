import { createHostApiService } from '../src/api/hostApiService.js';
import type { HostApiService } from '../src/api/types.js';
import { createHost, type Host, type HostOptions } from '../src/core/host.js';
import { ensureDataHome } from '../src/core/facades/setup.js';
import { McpAppViews } from '../src/pageHost/mcpAppViews.js';
import { createAppProtocolHandler } from './appProtocol.js';
import { electronFaceUrls } from './appUrls.js';
import { createAppViewProtocolHandler } from './appViewProtocol.js';
import { createUiAppProtocolHandler, uiAppShellPath } from './uiAppProtocol.js';

/**
 * The desktop face's host, without Electron: the core, its HostApi with the
 * desktop's urls, and the three protocol handlers. main.ts starts one when the
 * app is ready and stops it before the process exits; tests start one on a
 * temp home. `stop()` may be called any number of times (before-quit and
 * window-all-closed both ask): it runs once and every caller awaits it.
 */
export interface DesktopHostOptions {
  host: HostOptions;
  rendererDir: string;
  version: string;
  locale?: string;
  /** Opens a url in the system browser (a remote server's sign-in page). */
  openExternal?: (url: string) => void;
  /** The system's folder picker (a plugin folder to install): the folder chosen, or undefined when cancelled. */
  pickFolder?: () => Promise<string | undefined>;
  /** Hot reload of mcp.yaml and plugin folders; default on. */
  watch?: boolean;
}

export interface DesktopHost {
  host: Host;
  api: HostApiService;
  /** For `protocol.handle('chatos', …)`. */
  appProtocol: (request: Request) => Promise<Response>;
  /** For `protocol.handle('chatos-app', …)`. */
  uiAppProtocol: (request: Request) => Promise<Response>;
  /** For `protocol.handle('chatos-view', …)`: the MCP App views this window's HostApi handed out. */
  appViewProtocol: (request: Request) => Promise<Response>;
  /** Stops watching, detaches the api, ends every server and backend, flushes the DB. */
  stop(): Promise<void>;
}

export async function startDesktopHost(options: DesktopHostOptions): Promise<DesktopHost> {
  const host = createHost(options.host);
  try {
    ensureDataHome(host.setup.home);
    await host.start();
  } catch (error) {
    await host.dispose();
    throw error;
  }
  const unwatch = options.watch === false ? () => {} : host.watcher.watch();
  const artifactsDir = host.setup.home.artifactsDir;
  const views = new McpAppViews();
  const api = createHostApiService(host, {
    face: 'electron',
    urls: electronFaceUrls(artifactsDir, uiAppShellPath, views, host.setup.home.conversationsDir),
    version: options.version,
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.openExternal ? { openExternal: options.openExternal } : {}),
    ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
  });
  let stopping: Promise<void> | undefined;
  return {
    host,
    api,
    appProtocol: createAppProtocolHandler({ rendererDir: options.rendererDir, artifactsDir, conversationsDir: host.setup.home.conversationsDir }),
    uiAppProtocol: createUiAppProtocolHandler(host.plugins),
    appViewProtocol: createAppViewProtocolHandler(views),
    stop() {
      stopping ??= (async () => {
        unwatch();
        api.dispose();
        await host.dispose();
      })();
      return stopping;
    },
  };
}
