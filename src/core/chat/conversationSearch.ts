import type { Conversation, ConversationMessage, SearchHit } from '../../shared/chat.js';

/** A window of `text` around its first match of `needle` (already lower-case), on one line. */
export function snippetAround(text: string, needle: string, width = 120): string | undefined {
  const at = text.toLowerCase().indexOf(needle);
  if (at === -1) return undefined;
  const start = Math.max(0, at - Math.floor((width - needle.length) / 2));
  const piece = text
    .slice(start, start + width)
    .replace(/\s+/g, ' ')
    .trim();
  return `${start > 0 ? '…' : ''}${piece}${start + width < text.length ? '…' : ''}`;
}

/**
 * Hits of `query` (case-insensitive, as a plain substring) in a
 * conversation's title and its user and assistant text, every branch
 * included. Pure: the caller reads each conversation's messages.
 */
export function searchConversation(conversation: Conversation, messages: readonly ConversationMessage[], query: string, limit: number): SearchHit[] {
  const needle = query.toLowerCase();
  const hits: SearchHit[] = [];
  const title = conversation.title || '(untitled)';
  const inTitle = snippetAround(conversation.title, needle);
  if (inTitle) hits.push({ conversationId: conversation.id, title, role: 'title', snippet: inTitle });
  for (const message of messages) {
    if (hits.length >= limit) break;
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const snippet = snippetAround(message.text, needle);
    if (snippet) hits.push({ conversationId: conversation.id, title, messageId: message.id, role: message.role, snippet });
  }
  return hits;
}
