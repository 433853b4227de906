import type { FaceUrls } from '../api/types.js';
import { conversationArtifactPath } from '../pageHost/conversationArtifacts.js';
import type { ViewPlace } from '../core/facades/tools.js';
import { viewSite, type McpAppViews } from '../pageHost/mcpAppViews.js';
import { urlPathInside } from '../pageHost/safePath.js';
import { appCapability } from './auth.js';
import { viewSiteOrigin } from './viewServer.js';

/** Where views run: the views' port, and who frames them (viewServer.ts). */
export interface ViewSites {
  port: number;
  place: ViewPlace;
}

/**
 * How `chatos serve` addresses pages and artifacts. Relative urls: the
 * renderer is served from the same origin, whichever loopback name the
 * browser used. MCP App views are the exception: each runs at a site of its
 * own, on the views' port (viewServer.ts), so their urls are absolute.
 */
export function serveFaceUrls(token: string, artifactsDir: string, conversationsDir: string, views: McpAppViews, sites: () => ViewSites): FaceUrls {
  return {
    appView(view, actsFor) {
      const site = viewSite(view.serverId, actsFor);
      const origin = viewSiteOrigin(site, sites().port);
      return { url: `${origin}/${views.put(view, site)}`, origin };
    },
    viewPlace: () => sites().place,
    uiAppUrl(pluginId, appId, surface) {
      return `${uiAppBasePath(token, pluginId, appId)}__shell?surface=${surface}`;
    },
    artifactUrl(file) {
      const relative = urlPathInside(artifactsDir, file);
      if (relative) return `/artifacts/${relative}`;
      const inConversation = conversationArtifactPath(conversationsDir, file);
      if (inConversation) return `/conversation-artifacts/${inConversation}`;
      throw new Error(`${file} is not inside the artifacts folder ${artifactsDir} or a conversation's, so it is not served`);
    },
  };
}

/** `/ui/<cap>/<pluginId>/<appId>/`: everything of one app's pages lives below it. */
export function uiAppBasePath(token: string, pluginId: string, appId: string): string {
  return `/ui/${appCapability(token, pluginId, appId)}/${encodeURIComponent(pluginId)}/${encodeURIComponent(appId)}/`;
}
