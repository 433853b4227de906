import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ViewResult } from '../../shared/chat.js';
import { jsonShapeProblem, STRUCTURED_CONTENT_SHAPE } from '../jsonShape.js';
import { isPlainObject } from '../plainObject.js';

/**
 * What a conversation keeps of a tool result for its MCP App view
 * (docs/rules/mcp-apps.md#the-result-a-view-gets), beside the content it
 * keeps for the model and the card: the `structuredContent` and `_meta` the
 * server sent. Every later open of the conversation reads them again, so
 * each is bounded; a part past its bound is left out whole (a view cannot
 * use half of an object) and the reason is kept, so the view's place says
 * so. Pure.
 */

/** JSON bytes of `structuredContent` kept: a canvas instance (256 KB) fits twice; a megabyte does not. */
export const MAX_VIEW_STRUCTURED_BYTES = 512 * 1024;
/** JSON bytes of the result's `_meta` kept: it is metadata, not the data. */
export const MAX_VIEW_META_BYTES = 64 * 1024;

type Part = 'structuredContent' | '_meta';

const kilobytes = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`;

/** One part as kept, or why it is not. */
function keep(part: Part, value: unknown, maxBytes: number): { value: Record<string, unknown> } | { reason: string } {
  if (!isPlainObject(value)) return { reason: `the result's ${part} is not a JSON object` };
  const problem = jsonShapeProblem(value, STRUCTURED_CONTENT_SHAPE);
  if (problem) return { reason: `the result's ${part} ${problem}; at most ${STRUCTURED_CONTENT_SHAPE.maxDepth} levels and ${STRUCTURED_CONTENT_SHAPE.maxValues} values are kept` };
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    return { reason: `the result's ${part} is not JSON: ${(error as Error).message.slice(0, 200)}` };
  }
  const bytes = Buffer.byteLength(json);
  if (bytes > maxBytes) return { reason: `the result's ${part} is ${kilobytes(bytes)}; at most ${kilobytes(maxBytes)} is kept for the view` };
  // A copy through JSON: what is kept is what a reopened conversation reads back, nothing else (no shared objects, no undefined).
  return { value: JSON.parse(json) as Record<string, unknown> };
}

/** What `result` holds for a view beside its content; undefined when it holds neither part. */
export function viewResultOf(result: CallToolResult): ViewResult | undefined {
  const kept: ViewResult = {};
  const cut: NonNullable<ViewResult['cut']> = [];
  for (const [part, value, maxBytes] of [
    ['structuredContent', result.structuredContent, MAX_VIEW_STRUCTURED_BYTES],
    ['_meta', result._meta, MAX_VIEW_META_BYTES],
  ] as const) {
    if (value === undefined) continue;
    const outcome = keep(part, value, maxBytes);
    if ('value' in outcome) kept[part] = outcome.value;
    else cut.push({ part, reason: outcome.reason });
  }
  if (cut.length) kept.cut = cut;
  return Object.keys(kept).length ? kept : undefined;
}
