import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolMessage } from '../../../../src/shared/chat';
import type { ToolOutcome } from '../../../../src/shared/hostApi';

/**
 * The tool result a view is sent (`ui/notifications/tool-result`, and the
 * answer to its own `tools/call`): the CallToolResult its server sent
 * (docs/rules/mcp-apps.md#the-result-a-view-gets). Its content, its
 * structuredContent and _meta, whether it failed. Images the host saved as
 * files go as a note (the card shows them; a file path is the host's, not
 * the view's); the host's reminders to the model do not go.
 */

type Content = CallToolResult['content'][number];

/** A stored tool message as its view gets it; `cut` names what the conversation did not keep of it. */
export function storedResultForView(message: ToolMessage): { result: CallToolResult; cut: string[] } {
  const content = message.content.flatMap((item): Content[] => {
    if (item.type === 'text') return [{ type: 'text', text: item.text }];
    if (item.type === 'image') return [{ type: 'text', text: `[${item.mimeType} saved]` }];
    if (item.type === 'note') return [item.link ? { type: 'resource_link', uri: item.link.uri, name: item.link.name ?? item.link.uri } : { type: 'text', text: item.text }];
    return [];
  });
  const kept = message.viewResult;
  const result: CallToolResult = {
    content,
    isError: message.isError,
    ...(kept?.structuredContent ? { structuredContent: kept.structuredContent } : {}),
    ...(kept?._meta ? { _meta: kept._meta } : {}),
  };
  return { result, cut: (kept?.cut ?? []).map((part) => part.reason) };
}

/** A gateway outcome (the Playground's call, a view's own `tools/call`) as the result an app expects. */
export function outcomeForView(outcome: ToolOutcome): CallToolResult {
  const content = outcome.content.map((item): Content => {
    if (item.type === 'text') return { type: 'text', text: item.text };
    if (item.type === 'artifact') return { type: 'text', text: `[${item.mimeType} saved]` };
    return item.json as Content;
  });
  const declined = outcome.decision === 'declined' || outcome.decision === 'expired' || outcome.decision === 'withdrawn';
  return {
    content,
    isError: outcome.isError || declined,
    ...(outcome.structuredContent ? { structuredContent: outcome.structuredContent } : {}),
    ...(outcome._meta ? { _meta: outcome._meta } : {}),
  };
}
