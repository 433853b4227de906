import type { ClientFeature } from './clientFeatures.js';

/** The MIME type of an MCP App view (SEP-1865): the one kind of `ui://` document the host renders. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The MCP Apps extension's id under `capabilities.extensions` (ext-apps' EXTENSION_ID). */
const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/**
 * MCP Apps (docs/rules/mcp-apps.md#the-extension): the client declares at
 * initialize that it renders views, as the spec and ext-apps 2.x ask
 * (`extensions["io.modelcontextprotocol/ui"].mimeTypes`, what a server's
 * `getUiCapability()` reads), so a server that offers a view only to a host
 * that shows one offers it here. Nothing to answer: the views are read and
 * their calls made by the host (mcpApps.ts), not asked of by the server.
 */
export const mcpAppsFeature: ClientFeature = {
  name: 'mcp-apps',
  capabilities: { extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } },
  attach() {},
};
