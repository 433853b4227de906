import { urlPathInside } from '../src/pageHost/safePath.js';
import { findRunnableApp, resolveUiAppFile, uiAppEntry, uiAppShellCsp, uiAppShellHtml, type UiAppSource } from '../src/pageHost/uiAppFiles.js';
import { uiAppBridgeScript } from '../src/pageHost/uiAppBridge.js';
import { fileResponse, textResponse } from './appProtocol.js';
import { APP_ORIGIN, parseUiAppHost, UI_APP_SCHEME } from './appUrls.js';

/**
 * The `chatos-app:` scheme: one origin per UI app
 * (`chatos-app://<uiAppHost(pluginId, appId)>/`). Under it:
 *   /__chatos/full.html, /__chatos/compact.html  the shell page of a surface
 *   /__chatos/bridge.js                          the frame side of the bridge
 *   /<path>                                      a file of the app's plugin folder
 * The plugin must be loaded and runnable on every request (src/pageHost/uiAppFiles.ts),
 * and every response carries the shell's CSP (scripts from this origin
 * only, no network, `sandbox allow-scripts`).
 */
const RESERVED = '/__chatos/';
export const BRIDGE_PATH = `${RESERVED}bridge.js`;

export function uiAppShellPath(surface: 'full' | 'compact'): string {
  return `${RESERVED}${surface}.html`;
}

/**
 * The frame is an opaque origin (iframe sandbox without allow-same-origin),
 * so `import()` of the page module is a CORS request with `Origin: null`.
 * Only scripts of the app's own origin may run there (the CSP), so opening
 * CORS exposes nothing another origin could not already load as a script.
 */
const CORS_HEADERS = { 'Access-Control-Allow-Origin': '*' };

export function createUiAppProtocolHandler(source: UiAppSource): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const ids = parseUiAppHost(url.host);
    const baseUrl = `${UI_APP_SCHEME}://${url.host}/`;
    const csp = uiAppShellCsp({ baseUrl, hostOrigin: APP_ORIGIN });
    if (request.method !== 'GET' && request.method !== 'HEAD') return textResponse(405, `${request.method} is not served here; only GET and HEAD`, csp);
    if (!ids) return textResponse(404, `${url.host} names no app`, csp);
    const found = findRunnableApp(source, ids.pluginId, ids.appId);
    if (!found.ok) return textResponse(found.status, found.message, csp);

    const headers = { 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache', ...CORS_HEADERS };
    const reply = (body: string, contentType: string) => new Response(request.method === 'HEAD' ? null : body, { status: 200, headers: { ...headers, 'Content-Type': contentType } });

    if (url.pathname === BRIDGE_PATH) return reply(uiAppBridgeScript(), 'text/javascript; charset=utf-8');
    for (const surface of ['full', 'compact'] as const) {
      if (url.pathname !== uiAppShellPath(surface)) continue;
      const entry = uiAppEntry(found.app, surface);
      const entryPath = entry && urlPathInside(found.app.pluginDir, entry);
      if (!entryPath) return textResponse(404, `app ${ids.pluginId}/${ids.appId} has no ${surface} page`, csp);
      return reply(uiAppShellHtml({ moduleUrl: `${baseUrl}${entryPath}`, surface, bridgeUrl: BRIDGE_PATH }), 'text/html; charset=utf-8');
    }
    if (url.pathname.startsWith(RESERVED)) return textResponse(404, `nothing is served at ${url.pathname}`, csp);

    const file = resolveUiAppFile(source, ids.pluginId, ids.appId, url.pathname);
    if (!file.ok) return textResponse(file.status, file.message, csp);
    return fileResponse(file, request.method, csp, CORS_HEADERS);
  };
}
