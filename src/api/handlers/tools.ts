import { resolveAgent } from '../../core/agents/agentResolver.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../../core/mcp/gateway/toolGateway.js';
import { callProgress, RunningCalls } from '../../core/mcp/gateway/runningCalls.js';
import type { Host } from '../../core/host.js';
import { ApiFailure } from '../apiErrors.js';
import { toolOutcome, toolView } from '../toolOutcome.js';
import { findApp, requireRunnable } from './apps.js';
import type { HandlerContext, Handlers } from './types.js';

function agentCaller(host: Host, agentId: string, flow: 'main' | 'sub', conversationId: string) {
  const agent = host.agents.get(agentId);
  if (!agent) throw new ApiFailure('NOT_FOUND', `no agent "${agentId}"`, 'create it on the Agents page, or pick another');
  const resolved = resolveAgent(agent, host);
  return { caller: resolved.callerFor(flow, conversationId), problems: resolved.problems };
}

/**
 * A page calls its own server's tools as its provider app, restricted to that
 * one server: it cannot reach another app's tools even when its provider may
 * see them. The flow flags still apply (main where the app allows it, else
 * sub), so a page gets no more than an agent using the app would.
 */
function pageCaller(host: Host, pluginId: string, appId: string, conversationId: string): Caller {
  const app = findApp(host, pluginId, appId);
  requireRunnable(host, app);
  if (!app.mcp) throw new ApiFailure('NOT_FOUND', `app ${pluginId}/${appId} has no MCP server of its own`, 'add "ai.mcp" to the app in plugin.json');
  if (!app.allowMain && !app.allowSub) throw new ApiFailure('NOT_ALLOWED', `app ${pluginId}/${appId} allows neither main nor sub flows, so its tools cannot be called`, 'set "allowSub": true (or "allowMain") in ai.mcp');
  return { appId: app.providerAppId, conversationId, flow: app.allowMain ? 'main' : 'sub', serverIds: [`${app.providerAppId}::${app.serverName}`], fromPage: true };
}

export function toolHandlers({ host, urls, emit }: HandlerContext): Handlers<'tools.list' | 'tools.call' | 'tools.cancel' | 'uiApps.callTool' | 'conversations.end' | 'confirmations.list' | 'confirmations.respond'> {
  // Playground calls made with a callId, while they run.
  const running = new RunningCalls();
  return {
    'tools.list': async ({ agentId, flow, conversationId }) => {
      const { caller, problems } = agentCaller(host, agentId, flow, conversationId);
      const listed = await host.gateway.listTools(caller);
      return { tools: listed.tools.map(toolView), problems: [...problems, ...listed.problems], reminders: listed.reminders };
    },
    'tools.call': async ({ agentId, flow, conversationId, tool, args, callId }) => {
      const { caller } = agentCaller(host, agentId, flow, conversationId);
      if (callId === undefined) return toolOutcome(await host.gateway.callTool(caller, tool, args), urls);
      const call = running.begin(callId);
      try {
        const onProgress = (progress: Progress) => emit({ type: 'tool.progress', callId, ...callProgress(progress) });
        return toolOutcome(await host.gateway.callTool(caller, tool, args, { signal: call.signal, onProgress }), urls);
      } finally {
        call.end();
      }
    },
    'tools.cancel': ({ callId }) => ({ cancelled: running.cancel(callId) }),
    'uiApps.callTool': async ({ pluginId, appId, tool, args, conversationId }) => {
      const caller = pageCaller(host, pluginId, appId, conversationId);
      // The page names the tool as its server knows it; the gateway needs the name the catalog gave it.
      const { tools } = await host.gateway.listTools(caller);
      const offered = tools.find((t) => t.rawName === tool && t.serverId === caller.serverIds![0]);
      if (!offered) throw new ApiFailure('NOT_FOUND', `the server of ${pluginId}/${appId} offers no tool "${tool}"`, `its tools: ${tools.map((t) => t.rawName).join(', ') || '(none)'}`);
      return toolOutcome(await host.gateway.callTool(caller, offered.name, args), urls);
    },
    'conversations.end': async ({ conversationId }) => ({ released: await host.endConversation(conversationId) }),
    'confirmations.list': () => ({ pending: host.confirmations.listPending() }),
    'confirmations.respond': ({ id, approved, scope }) => ({ answered: host.confirmations.respond(id, approved, scope) }),
  };
}
