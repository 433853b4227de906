import * as path from 'node:path';
import { conversationArtifactPath } from '../src/pageHost/conversationArtifacts.js';
import type { FaceUrls } from '../src/api/types.js';
import { viewSite, type McpAppViews } from '../src/pageHost/mcpAppViews.js';

/**
 * The desktop face's addresses. The renderer and artifacts are served by the
 * privileged `chatos:` scheme, each UI app's page by `chatos-app://<host>/`
 * where the host encodes (pluginId, appId), so every app is its own origin;
 * an MCP App view by `chatos-view://<site>/<unguessable id>`, each app (for
 * the party it acts for) at a site, so an origin, of its own.
 * Nothing here imports electron: main.ts registers these, tests read them.
 */
export const APP_SCHEME = 'chatos';
export const UI_APP_SCHEME = 'chatos-app';
/**
 * MCP App views (docs/rules/mcp-apps.md#the-frame): a scheme of their own,
 * not a host of `chatos:`, so the handler that serves the renderer never
 * sees a view, the scheme has only the privileges a framed page needs (no
 * fetch, no CORS), and the renderer's frame-src and the navigation guards
 * name views by scheme alone. `chatos-view://<site>/<id>` is a view's
 * sandbox proxy, `…/<id>/view` the view it frames.
 */
export const VIEW_SCHEME = 'chatos-view';
/** The origin of a view's site. */
export const viewSiteOrigin = (site: string) => `${VIEW_SCHEME}://${site}`;
/** The renderer's origin; only frames at this url may call the HostApi. */
export const APP_ORIGIN = `${APP_SCHEME}://app`;
export const MAIN_WINDOW_URL = `${APP_ORIGIN}/index.html`;
/** Views are framed by the renderer alone; `chatos://app` is no web origin, so no declared origin reaches it (viewCsp.ts). */
export const VIEW_PLACE = { framers: [APP_ORIGIN], hostOrigins: [APP_ORIGIN] };
export const ARTIFACTS_ORIGIN = `${APP_SCHEME}://artifacts`;

/** For `protocol.registerSchemesAsPrivileged`, before the app is ready. */
export const PRIVILEGED_SCHEMES = [
  // standard: relative urls and origins work; secure: treated like https (no mixed-content downgrade).
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  // A page frame has an opaque origin (sandbox without allow-same-origin), so its module imports are CORS requests.
  { scheme: UI_APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
  // A view's proxy and html are documents with inline script: framed (standard: a host, so an origin, per site; secure), fetching nothing of the scheme.
  { scheme: VIEW_SCHEME, privileges: { standard: true, secure: true } },
];

/** Sent with every `chatos://app` response: the renderer runs only its own code and frames only app pages and MCP App views. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // antd writes its styles at run time (CSS-in-JS).
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: chatos:",
  `frame-src ${UI_APP_SCHEME}: ${VIEW_SCHEME}:`,
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Artifacts are shown in `<img>`; opened any other way they run nothing. */
export const ARTIFACT_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

/** A url of the renderer itself (any path, query or hash under `chatos://app/`). */
export function isAppUrl(url: string): boolean {
  return url.startsWith(`${APP_ORIGIN}/`);
}

// Hostnames of standard schemes are lower-cased by Chromium and ids may hold
// capitals and dots, so the pair is hex-encoded, in DNS-sized labels.
const LABEL = 62;

/** The origin host of one app's page frame: `hex(pluginId + '/' + appId)`, split into labels. */
export function uiAppHost(pluginId: string, appId: string): string {
  const hex = Buffer.from(`${pluginId}/${appId}`, 'utf8').toString('hex');
  const labels: string[] = [];
  for (let i = 0; i < hex.length; i += LABEL) labels.push(hex.slice(i, i + LABEL));
  return labels.join('.');
}

/** The inverse of `uiAppHost`; undefined for a host no app could have. */
export function parseUiAppHost(host: string): { pluginId: string; appId: string } | undefined {
  const hex = host.toLowerCase().split('.').join('');
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/.test(hex)) return undefined;
  const text = Buffer.from(hex, 'hex').toString('utf8');
  const slash = text.indexOf('/');
  // Plugin and app ids never contain '/', so exactly one slash splits them.
  if (slash <= 0 || slash === text.length - 1 || text.indexOf('/', slash + 1) !== -1) return undefined;
  return { pluginId: text.slice(0, slash), appId: text.slice(slash + 1) };
}

/** `chatos://artifacts/<path inside the artifacts folder>`; a file outside it has no url. */
export function artifactUrl(artifactsDir: string, file: string): string {
  const relative = path.relative(path.resolve(artifactsDir), path.resolve(file));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new Error(`${file} is not inside the artifacts folder ${artifactsDir}; only saved artifacts have a url`);
  }
  return `${ARTIFACTS_ORIGIN}/${relative.split(path.sep).map(encodeURIComponent).join('/')}`;
}

/**
 * The FaceUrls the HostApi service builds responses with. `shellPath` is the
 * path of an app's shell page for a surface (from the UI-app files module);
 * `views` keeps the MCP App views the `chatos-view:` handler serves.
 */
export function electronFaceUrls(artifactsDir: string, shellPath: (surface: 'full' | 'compact') => string, views: McpAppViews, conversationsDir?: string): FaceUrls {
  return {
    appView(view, actsFor) {
      const site = viewSite(view.serverId, actsFor);
      return { url: `${viewSiteOrigin(site)}/${views.put(view, site)}`, origin: viewSiteOrigin(site) };
    },
    viewPlace: () => VIEW_PLACE,
    uiAppUrl: (pluginId, appId, surface) => `${UI_APP_SCHEME}://${uiAppHost(pluginId, appId)}${shellPath(surface)}`,
    artifactUrl: (file) => {
      // A conversation's own images: `chatos://conversation-artifacts/<id>/<path in its artifacts folder>`.
      const inConversation = conversationsDir === undefined ? undefined : conversationArtifactPath(conversationsDir, file);
      return inConversation ? `${APP_SCHEME}://conversation-artifacts/${inConversation}` : artifactUrl(artifactsDir, file);
    },
  };
}
