import type { ToolCallRecord, ToolMessage } from '../../../../src/shared/chat';
import { McpAppFrame } from './McpAppFrame';
import { rememberView } from './openedViews';
import { storedResultForView } from './viewToolResult';

function argsOf(argumentsText: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The MCP App view of a tool call in a conversation (docs/using/mcp-apps.md), once the call ran: it acts for the conversation's agent. */
export function CallView(props: { call: ToolCallRecord; result: ToolMessage; agentId: string; conversationId: string; onOpenBeside?: () => void }) {
  const { call, result } = props;
  if (!result.view || !result.serverId || result.status !== 'ok') return null;
  const serverName = result.serverId.includes('::') ? result.serverId.slice(result.serverId.indexOf('::') + 2) : result.serverId;
  // The whole result as stored with the conversation, so a reopened conversation shows the view as it was.
  const { result: toolResult, cut } = storedResultForView(result);
  const frame = {
    caller: { agentId: props.agentId, flow: 'main' as const, conversationId: props.conversationId },
    serverId: result.serverId,
    serverName,
    toolName: call.name,
    resourceUri: result.view,
    toolInput: argsOf(call.argumentsText),
    toolResult,
    ...(cut.length ? { resultCut: cut } : {}),
    postToConversation: props.conversationId,
  };
  // The side panel shows the same view from these props when the user opens it beside the chat.
  rememberView(call.id, frame);
  return <McpAppFrame {...frame} {...(props.onOpenBeside ? { onOpenBeside: props.onOpenBeside } : {})} />;
}
