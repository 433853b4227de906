import type { IncomingMessage, ServerResponse } from 'node:http';
import { urlPathInside } from '../pageHost/safePath.js';
import { uiAppBridgeScript } from '../pageHost/uiAppBridge.js';
import { findRunnableApp, resolveUiAppFile, uiAppEntry, type UiAppSource } from '../pageHost/uiAppFiles.js';
import { uiAppShellCsp, uiAppShellHtml } from '../pageHost/uiAppShell.js';
import { appCapability, secretMatches } from './auth.js';
import { sendBody, sendFile, sendText } from './responses.js';
import { uiAppBasePath } from './serveUrls.js';

export interface UiRouteContext {
  source: UiAppSource;
  token: string;
}

const BRIDGE = uiAppBridgeScript();

/**
 * `/ui/<cap>/<pluginId>/<appId>/…`: an app's shell, the bridge, and the
 * files of its plugin folder. Requested by sandboxed frames (opaque origin:
 * no cookie, `Origin: null` for module scripts), so these routes are
 * guarded by the capability in the path instead of the token and Origin,
 * and are the only ones that allow any origin to read them.
 */
export function handleUiRoute(req: IncomingMessage, res: ServerResponse, rawPath: string, query: URLSearchParams, hostHeader: string, ctx: UiRouteContext): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendText(res, 405, 'page files are read with GET', { Allow: 'GET, HEAD' });
    return;
  }
  // ['', 'ui', cap, pluginId, appId, ...rest], all still percent-encoded.
  const [, , cap, rawPluginId, rawAppId, ...rest] = rawPath.split('/');
  const pluginId = decodeSegment(rawPluginId);
  const appId = decodeSegment(rawAppId);
  if (!cap || pluginId === undefined || appId === undefined) {
    sendText(res, 404, 'not found');
    return;
  }
  if (!secretMatches(cap, appCapability(ctx.token, pluginId, appId))) {
    sendText(res, 403, 'this page url is not valid for this session (the server restarted?); open the app again from the ChatOS window');
    return;
  }
  const baseUrl = `http://${hostHeader}${uiAppBasePath(ctx.token, pluginId, appId)}`;
  res.setHeader('Content-Security-Policy', uiAppShellCsp({ baseUrl, hostOrigin: `http://${hostHeader}` }));
  const relative = rest.join('/');
  if (relative === '__shell') return sendShell(req, res, ctx.source, pluginId, appId, query, baseUrl);
  if (relative === '__bridge.js') return sendBody(req, res, 200, BRIDGE, 'text/javascript; charset=utf-8');
  const found = resolveUiAppFile(ctx.source, pluginId, appId, relative);
  if (!found.ok) return sendText(res, found.status, found.message);
  sendFile(req, res, found.file, found.contentType);
}

function sendShell(req: IncomingMessage, res: ServerResponse, source: UiAppSource, pluginId: string, appId: string, query: URLSearchParams, baseUrl: string): void {
  const surface = query.get('surface') ?? 'full';
  if (surface !== 'full' && surface !== 'compact') return sendText(res, 400, `surface must be "full" or "compact", not "${surface}"`);
  const found = findRunnableApp(source, pluginId, appId);
  if (!found.ok) return sendText(res, found.status, found.message);
  const entry = uiAppEntry(found.app, surface);
  const modulePath = entry && urlPathInside(found.app.pluginDir, entry);
  if (!modulePath) return sendText(res, 404, `app ${pluginId}/${appId} has no ${surface} page${surface === 'compact' ? ' (its plugin.json names no compact entry)' : ''}`);
  sendBody(req, res, 200, uiAppShellHtml({ moduleUrl: `${baseUrl}${modulePath}`, surface }), 'text/html; charset=utf-8');
}

function decodeSegment(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
