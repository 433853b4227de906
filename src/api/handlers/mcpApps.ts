import { viewCsp, type AppView } from '../../core/facades/tools.js';
import type { Host } from '../../core/host.js';
import { ApiFailure } from '../apiErrors.js';
import { toolOutcome } from '../toolOutcome.js';
import type { FaceUrls } from '../types.js';
import type { HandlerContext, Handlers } from './types.js';

/**
 * How this face serves a view to its frame: where the frame loads it (at the site of the view's app and the party
 * it acts for), and which declared origins were left out (said to the user).
 */
function viewServer(urls: FaceUrls) {
  return (view: AppView, actsFor: readonly string[]) => {
    // The policy itself is set where the view is served; this says what it leaves out.
    const { dropped } = viewCsp(view.csp, urls.viewPlace());
    return { ...urls.appView(view, JSON.stringify(actsFor)), prefersBorder: view.prefersBorder === true, dropped };
  };
}

/**
 * An app whose page is an MCP App, as the caller its page acts as: the app
 * itself, kept to its own server, and only while its plugin may run (the
 * page caller checks that), so no other app gets more than it had.
 */
function appPage(host: Host, pluginId: string, appId: string, conversationId: string) {
  const app = host.tools.callers.findApp(pluginId, appId);
  if (!app.mcpApp) throw new ApiFailure('NOT_FOUND', `app ${pluginId}/${appId} has no MCP App page`, 'its page is a module: open it with uiApps.open');
  const caller = host.tools.callers.page(pluginId, appId, conversationId);
  return { caller, serverId: caller.serverIds![0]!, resourceUri: app.mcpApp.resourceUri };
}

/**
 * MCP Apps for the faces (docs/rules/mcp-apps.md): a view read for the
 * caller and handed to the face to serve, and the calls a view makes. The
 * caller is the one the tool card's (or the Playground's) tools came from,
 * or the app itself for an app's page that is an MCP App.
 */
export function mcpAppHandlers({
  host,
  urls,
}: HandlerContext): Handlers<
  'mcpApps.view' | 'mcpApps.callTool' | 'mcpApps.readResource' | 'mcpApps.listResources' | 'uiApps.mcpAppView' | 'uiApps.mcpAppCall' | 'uiApps.mcpAppReadResource' | 'uiApps.mcpAppListResources'
> {
  return {
    'mcpApps.view': async ({ agentId, flow, conversationId, serverId, uri }) => {
      const serve = viewServer(urls);
      const { caller } = host.tools.callers.agent(agentId, flow, conversationId);
      return serve(await host.tools.apps.view(caller, serverId, uri), ['agent', agentId, flow, conversationId]);
    },
    // A view's call lives as long as the view's request: one whose page went away (a long poll) is cancelled.
    'mcpApps.callTool': async ({ agentId, flow, conversationId, serverId, tool, args }, { signal }) => {
      const { caller } = host.tools.callers.agent(agentId, flow, conversationId);
      return toolOutcome(await host.tools.apps.call(caller, serverId, tool, args, { signal }), urls);
    },
    'mcpApps.readResource': ({ agentId, flow, conversationId, serverId, uri }) => host.tools.apps.readResource(host.tools.callers.agent(agentId, flow, conversationId).caller, serverId, uri),
    'mcpApps.listResources': ({ agentId, flow, conversationId, serverId }) => host.tools.apps.listResources(host.tools.callers.agent(agentId, flow, conversationId).caller, serverId),
    'uiApps.mcpAppView': async ({ pluginId, appId, conversationId }) => {
      const serve = viewServer(urls);
      const { caller, serverId, resourceUri } = appPage(host, pluginId, appId, conversationId);
      return { ...serve(await host.tools.apps.view(caller, serverId, resourceUri), ['app', pluginId, appId, conversationId]), serverId, resourceUri };
    },
    'uiApps.mcpAppCall': async ({ pluginId, appId, conversationId, tool, args }, { signal }) => {
      const { caller, serverId } = appPage(host, pluginId, appId, conversationId);
      return toolOutcome(await host.tools.apps.call(caller, serverId, tool, args, { signal }), urls);
    },
    'uiApps.mcpAppReadResource': ({ pluginId, appId, conversationId, uri }) => {
      const { caller, serverId } = appPage(host, pluginId, appId, conversationId);
      return host.tools.apps.readResource(caller, serverId, uri);
    },
    'uiApps.mcpAppListResources': ({ pluginId, appId, conversationId }) => {
      const { caller, serverId } = appPage(host, pluginId, appId, conversationId);
      return host.tools.apps.listResources(caller, serverId);
    },
  };
}
