import type { ConversationDetail, ConversationMessage, ExportFormat } from '../../shared/chat.js';

/**
 * A conversation's active branch as a file a person keeps: Markdown to read,
 * JSON to process. Made only of what the conversation holds (never a key:
 * none is ever stored in it). Pure.
 */
export function exportConversation(detail: ConversationDetail, format: ExportFormat): { filename: string; mimeType: string; text: string } {
  const base =
    (detail.conversation.title || detail.conversation.id)
      .replace(/[^\p{L}\p{N}_-]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'conversation';
  if (format === 'json') {
    const { conversation, messages, siblings, children } = detail;
    return { filename: `${base}.json`, mimeType: 'application/json', text: `${JSON.stringify({ format: 'chatos-conversation', version: 1, conversation, messages, siblings, children }, null, 2)}\n` };
  }
  return { filename: `${base}.md`, mimeType: 'text/markdown', text: markdownOf(detail) };
}

const fence = (text: string) => {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
};

function markdownOf(detail: ConversationDetail): string {
  const { conversation } = detail;
  const lines = [`# ${conversation.title || 'Conversation'}`, '', `- id: ${conversation.id}`, `- agent: ${conversation.agentId}`, `- started: ${new Date(conversation.createdAt).toISOString()}`];
  const { totals } = conversation;
  lines.push(`- answers: ${totals.answers}, tokens in/out: ${totals.inputTokens}/${totals.outputTokens}${totals.cost ? `, cost: $${totals.cost.toFixed(4)}` : ''}`, '');
  for (const message of detail.messages) lines.push(...section(message), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function section(message: ConversationMessage): string[] {
  switch (message.role) {
    case 'user':
      return ['## User', '', message.text];
    case 'assistant': {
      const out = [`## Assistant (${message.agentId}, ${message.modelId})`, ''];
      if (message.reasoning?.text) {
        const seconds = message.reasoning.durationMs !== undefined ? ` (${Math.max(1, Math.round(message.reasoning.durationMs / 1000))} s)` : '';
        out.push(`<details><summary>Thinking${seconds}</summary>`, '', fence(message.reasoning.text), '', '</details>', '');
      }
      if (message.text) out.push(message.text);
      if (message.refusal) out.push('', `_Refused: ${message.refusal}_`);
      if (message.finish === 'length') out.push('', "_Cut at the model's token limit._");
      for (const notice of message.notices ?? []) out.push('', `_Note: ${notice}_`);
      for (const call of message.toolCalls) out.push('', `**Tool call** \`${call.name}\``, '', fence(call.argumentsText));
      if (message.status === 'stopped') out.push('', `_Stopped: ${message.stop?.message ?? 'stopped'}_`);
      const s = message.stats;
      const numbers = [
        s.ttftMs !== undefined ? `first token ${Math.round(s.ttftMs)} ms` : '',
        s.tokensPerSecond !== undefined ? `${s.tokensPerSecond} tokens/s` : '',
        s.inputTokens !== undefined ? `${s.inputTokens} in / ${s.outputTokens} out` : '',
        s.cost !== undefined ? `$${s.cost.toFixed(4)}` : '',
      ].filter(Boolean);
      if (numbers.length) out.push('', `<sub>${numbers.join(' · ')}</sub>`);
      return out;
    }
    case 'tool': {
      // The lease reminder was for the model; an export is for people.
      const body = message.content.flatMap((item) => (item.type === 'reminder' ? [] : [item.type === 'image' ? `![${item.mimeType}](${item.artifact})` : item.text])).join('\n');
      return [`### Result of \`${message.name}\` (${message.status}, ${message.durationMs} ms)`, '', message.content.some((i) => i.type === 'image') ? body : fence(body)];
    }
    case 'summary':
      return ['---', '', `_Older turns (${message.summarized} messages) were summarized here to fit the context window:_`, '', message.text, '', '---'];
  }
}
