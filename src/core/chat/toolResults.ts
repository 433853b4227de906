import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContentItem } from '../../shared/chat.js';
import { jsonShapeProblem, STRUCTURED_CONTENT_SHAPE } from '../jsonShape.js';

/**
 * A gateway result as a conversation keeps it: text as is, images as the
 * artifacts the gateway saved in the conversation's folder (by their path
 * in it), anything else as a short note. Pure.
 */
export function storedContent(result: CallToolResult, conversationFolder: string): ToolContentItem[] {
  const items: ToolContentItem[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        items.push({ type: 'text', text: item.text });
        break;
      case 'resource_link': {
        const saved = item._meta?.artifact === true && item.uri.startsWith('file:') ? path.relative(conversationFolder, fileURLToPath(item.uri)) : undefined;
        if (saved && !saved.startsWith('..') && !path.isAbsolute(saved)) {
          const byteLength = typeof item._meta?.byteLength === 'number' ? item._meta.byteLength : 0;
          items.push({ type: 'image', mimeType: item.mimeType ?? 'application/octet-stream', artifact: saved.split(path.sep).join('/'), byteLength });
        } else items.push({ type: 'note', text: `[a link to ${item.uri}${item.name ? ` (${item.name})` : ''}]`, link: { uri: item.uri, ...(item.name ? { name: item.name } : {}) } });
        break;
      }
      case 'resource':
        items.push(
          'text' in item.resource && typeof item.resource.text === 'string'
            ? { type: 'text', text: item.resource.text }
            : { type: 'note', text: `[a binary resource ${item.resource.uri} was returned]` },
        );
        break;
      default:
        items.push({ type: 'note', text: `[a ${item.type} item was returned; it is not shown to the model]` });
    }
  }
  // Structured output that came without a text rendering (MCP asks servers for both, not all do).
  if (result.structuredContent && !items.some((i) => i.type === 'text')) items.push(structuredText(result.structuredContent));
  return items;
}

/** Structured content as the model reads it: its JSON, unless it is too deep or too large to write out (JSON.stringify recurses per level). */
function structuredText(value: Record<string, unknown>): ToolContentItem {
  const problem = jsonShapeProblem(value, STRUCTURED_CONTENT_SHAPE);
  return problem ? { type: 'note', text: `[the result's structured content ${problem}; it is not shown to the model]` } : { type: 'text', text: JSON.stringify(value) };
}

/** The first lines of a result's text, for a tool card or a terminal line. */
export function resultSummary(content: readonly ToolContentItem[], max = 200): string {
  const shown = content.filter((item) => item.type !== 'reminder');
  const text = shown
    .map((item) => (item.type === 'image' ? `[image ${item.mimeType}]` : item.text))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export const textItem = (text: string): ToolContentItem[] => [{ type: 'text', text }];
