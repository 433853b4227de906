import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { ConversationMessage, ToolMessage } from '../shared/chat.js';

const text = (value: string) => ({ type: 'text' as const, text: value });

/** What a result says, as the editor's card shows it: its text and notes (a reminder is the model's alone; an image is named). */
function resultContent(result: ToolMessage): ToolCallContent[] {
  return result.content.flatMap((item): ToolCallContent[] => {
    if (item.type === 'text' || item.type === 'note') return [{ type: 'content', content: text(item.text) }];
    if (item.type === 'image') return [{ type: 'content', content: text(`(image ${item.artifact})`) }];
    return [];
  });
}

/**
 * A stored conversation as the `session/update`s an ACP agent sends while
 * `session/load` replays it (the spec: the whole conversation, in order,
 * before the load is answered): the person's messages as user chunks, the
 * agent's thinking and answers as its chunks, and each tool call as a call
 * with its final status and result. A summary is the agent's word on what
 * came before it.
 */
export function replayUpdates(messages: readonly ConversationMessage[]): SessionUpdate[] {
  const results = new Map<string, ToolMessage>();
  for (const message of messages) if (message.role === 'tool') results.set(message.callId, message);
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      if (message.text) updates.push({ sessionUpdate: 'user_message_chunk', content: text(message.text) });
    } else if (message.role === 'summary') {
      updates.push({ sessionUpdate: 'agent_message_chunk', content: text(`(summary of the earlier conversation) ${message.text}`) });
    } else if (message.role === 'assistant') {
      if (message.reasoning?.text) updates.push({ sessionUpdate: 'agent_thought_chunk', content: text(message.reasoning.text) });
      if (message.text) updates.push({ sessionUpdate: 'agent_message_chunk', content: text(message.text) });
      for (const call of message.toolCalls) {
        const result = results.get(call.id);
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: call.id,
          title: call.name,
          kind: 'other',
          status: !result ? 'pending' : result.status === 'ok' ? 'completed' : 'failed',
          rawInput: parsed(call.argumentsText),
          ...(result ? { content: resultContent(result) } : {}),
        });
      }
    }
  }
  return updates;
}

/** A call's arguments as JSON where they are (what the model wrote may not be). */
export function parsed(argumentsText: string): unknown {
  try {
    return JSON.parse(argumentsText);
  } catch {
    return argumentsText;
  }
}
