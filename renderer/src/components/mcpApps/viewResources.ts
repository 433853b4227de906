import type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { ResourceListing, ResourceRead } from '../../../../src/shared/resources';
import { api } from '../../api/client';
import type { ViewCaller } from './viewCaller';

/**
 * A view's `resources/read`, `resources/list` and `resources/templates/list`
 * (docs/rules/mcp-apps.md#what-the-view-may-ask): answered by the core
 * through the host's one resource path as the view's caller (an agent's, or
 * the app itself for an app's page), only from the view's own server; the
 * caller's access is checked there and every read is audited. A failure
 * reaches the view as the request's error, in the core's words.
 */

/** The resource as the view asked for it: MCP's read result (a blob stays base64). */
export async function readForView(caller: ViewCaller, serverId: string, uri: string): Promise<ReadResourceResult> {
  const read: ResourceRead = 'pluginId' in caller ? await api.call('uiApps.mcpAppReadResource', { ...caller, uri }) : await api.call('mcpApps.readResource', { ...caller, serverId, uri });
  return { contents: read.contents.map((item) => ({ ...item })) };
}

const listingFor = (caller: ViewCaller, serverId: string): Promise<ResourceListing> =>
  'pluginId' in caller ? api.call('uiApps.mcpAppListResources', caller) : api.call('mcpApps.listResources', { ...caller, serverId });

/** What the server lists (the host keeps a bounded number of them). */
export async function listForView(caller: ViewCaller, serverId: string): Promise<ListResourcesResult> {
  const listing = await listingFor(caller, serverId);
  return { resources: listing.resources.map((entry) => ({ ...entry })) };
}

/** The server's templates. */
export async function templatesForView(caller: ViewCaller, serverId: string): Promise<ListResourceTemplatesResult> {
  const listing = await listingFor(caller, serverId);
  return { resourceTemplates: listing.templates.map(({ arguments: _arguments, ...template }) => template) };
}
