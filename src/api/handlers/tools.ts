import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { callProgress, RunningCalls } from '../../core/facades/tools.js';
import { ApiFailure } from '../apiErrors.js';
import { toolOutcome, toolView } from '../toolOutcome.js';
import type { HandlerContext, Handlers } from './types.js';

export function toolHandlers({
  host,
  urls,
  emit,
}: HandlerContext): Handlers<'tools.list' | 'tools.call' | 'tools.cancel' | 'uiApps.callTool' | 'conversations.end' | 'conversations.roots' | 'conversations.setRoots'> {
  // Playground calls made with a callId, while they run.
  const running = new RunningCalls();
  return {
    'tools.list': async ({ agentId, flow, conversationId }) => {
      const { caller, problems } = host.tools.callers.agent(agentId, flow, conversationId);
      const listed = await host.tools.list(caller);
      return { tools: listed.tools.map(toolView), problems: [...problems, ...listed.problems], reminders: listed.reminders };
    },
    'tools.call': async ({ agentId, flow, conversationId, tool, args, callId }) => {
      const { caller } = host.tools.callers.agent(agentId, flow, conversationId);
      if (callId === undefined) return toolOutcome(await host.tools.call(caller, tool, args), urls);
      const call = running.begin(callId);
      try {
        const onProgress = (progress: Progress) => emit({ type: 'tool.progress', callId, ...callProgress(progress) });
        return toolOutcome(await host.tools.call(caller, tool, args, { signal: call.signal, onProgress }), urls);
      } finally {
        call.end();
      }
    },
    'tools.cancel': ({ callId }) => ({ cancelled: running.cancel(callId) }),
    'uiApps.callTool': async ({ pluginId, appId, tool, args, conversationId }) => {
      const caller = host.tools.callers.page(pluginId, appId, conversationId);
      // The page names the tool as its server knows it; the gateway needs the name the catalog gave it.
      const { tools } = await host.tools.list(caller);
      const offered = tools.find((t) => t.rawName === tool && t.serverId === caller.serverIds![0]);
      if (!offered) throw new ApiFailure('NOT_FOUND', `the server of ${pluginId}/${appId} offers no tool "${tool}"`, `its tools: ${tools.map((t) => t.rawName).join(', ') || '(none)'}`);
      return toolOutcome(await host.tools.call(caller, offered.name, args), urls);
    },
    'conversations.end': async ({ conversationId }) => ({ released: await host.tools.leases.end(conversationId) }),
    'conversations.roots': ({ conversationId, agentId }) => host.mcp.roots.view(conversationId, agentId),
    'conversations.setRoots': ({ conversationId, roots }) => {
      host.mcp.roots.set(conversationId, roots);
      return host.mcp.roots.view(conversationId);
    },
  };
}
