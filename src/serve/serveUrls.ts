import type { FaceUrls } from '../api/types.js';
import { conversationArtifactPath } from '../pageHost/conversationArtifacts.js';
import type { McpAppViews } from '../pageHost/mcpAppViews.js';
import { urlPathInside } from '../pageHost/safePath.js';
import { appCapability } from './auth.js';

/**
 * How `chatos serve` addresses pages and artifacts. Relative urls: the
 * renderer is served from the same origin, whichever loopback name the
 * browser used.
 */
export function serveFaceUrls(token: string, artifactsDir: string, conversationsDir: string, views: McpAppViews, origin: () => string): FaceUrls {
  return {
    appViewUrl: (view) => `/mcp-app/${views.put(view)}`,
    viewFramer: origin,
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
