import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { suggestClosest } from '../naming/suggest.js';

/**
 * Results of the settings tools: a sentence for the model first, then the
 * data as JSON text (what every model reads) and as `structuredContent`
 * (what the UI and tests read).
 */
export function dataResult(sentence: string, data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: `${sentence}\n${JSON.stringify(data, null, 2)}` }], structuredContent: data };
}

/** A failure the model should read and act on (an unknown id, a refused grant); the call itself succeeded. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** `; did you mean "a" or "b"?` when something close exists, else nothing. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const close = suggestClosest(word, candidates);
  return close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '';
}

/**
 * A model's string as a confirmation sentence shows it: JSON-quoted, so a
 * name like `x" from app "other` or one holding a line break cannot make the
 * sentence say something else than the call does.
 */
export const quoted = (text: string) => JSON.stringify(text);
