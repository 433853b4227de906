import { viewCsp } from '../../core/facades/tools.js';
import { toolOutcome } from '../toolOutcome.js';
import type { HandlerContext, Handlers } from './types.js';

/**
 * MCP Apps for the faces (docs/rules/mcp-apps.md): a view read for the
 * caller and handed to the face to serve, and the calls a view makes. The
 * caller is the one the tool card's (or the Playground's) tools came from.
 */
export function mcpAppHandlers({ host, urls }: HandlerContext): Handlers<'mcpApps.view' | 'mcpApps.callTool'> {
  return {
    'mcpApps.view': async ({ agentId, flow, conversationId, serverId, uri }) => {
      const { caller } = host.tools.callers.agent(agentId, flow, conversationId);
      const view = await host.tools.apps.view(caller, serverId, uri);
      // Which declared origins were left out is said to the user; the policy itself is set where the view is served.
      const { dropped } = viewCsp(view.csp, 'http://127.0.0.1');
      return { url: urls.appViewUrl(view), prefersBorder: view.prefersBorder === true, dropped };
    },
    'mcpApps.callTool': async ({ agentId, flow, conversationId, serverId, tool, args }) => {
      const { caller } = host.tools.callers.agent(agentId, flow, conversationId);
      return toolOutcome(await host.tools.apps.call(caller, serverId, tool, args), urls);
    },
  };
}
