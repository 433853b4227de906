import { DRAFT_CONVERSATION_ID } from '../../shared/chat.js';
import type { HandlerContext, Handlers } from './types.js';

/** MCP prompts as slash commands: each request acts as the conversation's agent, through host.tools.prompts (its access rule, its audit). */
export function mcpPromptHandlers({ host }: HandlerContext): Handlers<'mcpPrompts.list' | 'mcpPrompts.get' | 'mcpPrompts.complete' | 'chat.sendPrompt'> {
  // No conversation: a chat not started yet (its first message may be a slash command).
  const agentCaller = (agentId: string, conversationId: string | undefined) => host.tools.callers.agent(agentId, 'main', conversationId ?? DRAFT_CONVERSATION_ID);
  return {
    'mcpPrompts.list': async ({ agentId, conversationId }) => {
      const { caller, problems } = agentCaller(agentId, conversationId);
      const listed = await host.tools.prompts.list(caller);
      return { prompts: listed.prompts, problems: [...problems, ...listed.problems] };
    },
    'mcpPrompts.get': async ({ agentId, conversationId, serverId, name, arguments: args }) => ({
      prompt: await host.tools.prompts.get(agentCaller(agentId, conversationId).caller, serverId, name, args),
    }),
    'chat.sendPrompt': async ({ agentId, conversationId, serverId, name, arguments: args }) => {
      const prompt = await host.tools.prompts.get(agentCaller(agentId, conversationId).caller, serverId, name, args);
      const started = await host.chat.sendPrompt({ ...(conversationId !== undefined ? { conversationId } : {}), agentId, prompt });
      return { conversationId: started.conversationId, userMessageId: started.userMessageId! };
    },
    'mcpPrompts.complete': ({ agentId, conversationId, serverId, name, argument, context }) =>
      host.tools.prompts.complete(agentCaller(agentId, conversationId).caller, serverId, name, argument, context),
  };
}
