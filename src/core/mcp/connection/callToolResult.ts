import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { hasOnlyKeys, isPlainObject } from '../../plainObject.js';
import { isBase64, isDataUrl, parseDataUrl } from './dataUrl.js';

/** The note a media block becomes when its bytes cannot be read: the rest of the result still arrives. */
function unreadableMedia(kind: string, mimeType: unknown, why: string): { type: 'text'; text: string } {
  const type = typeof mimeType === 'string' && mimeType ? ` (${mimeType})` : '';
  return { type: 'text', text: `[an ${kind}${type} was returned ${why}, and was dropped]` };
}

/**
 * docs/rules/gateway.md#images-become-artifacts: image data is base64, possibly with a `data:<mime>;base64,`
 * prefix. The SDK's result schema rejects a data url, and with it the whole
 * result, so each image and audio block is read here first: a data url in
 * any form RFC 2397 allows becomes its base64 and `mimeType` (the bytes are
 * unchanged), and a block whose bytes still cannot be read becomes a text
 * note, so one bad image never fails the call. Returns `result` itself when
 * nothing needed reading.
 */
export function normalizeMediaData(result: unknown): unknown {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return result;
  let changed = false;
  const next = content.map((item: unknown) => {
    const block = item as { type?: unknown; data?: unknown; mimeType?: unknown } | null;
    if ((block?.type !== 'image' && block?.type !== 'audio') || typeof block.data !== 'string') return item;
    const kind = block.type;
    let data = block.data;
    let mimeType = block.mimeType;
    if (isDataUrl(data)) {
      const parsed = parseDataUrl(data);
      if (!parsed) return ((changed = true), unreadableMedia(kind, mimeType, 'as a data url without data'));
      data = parsed.base64;
      mimeType = parsed.mimeType ?? mimeType;
    }
    if (!isBase64(data)) return ((changed = true), unreadableMedia(kind, mimeType, 'with data that is not base64'));
    if (typeof mimeType !== 'string') return ((changed = true), unreadableMedia(kind, undefined, 'without a mimeType'));
    if (data === block.data && mimeType === block.mimeType) return item;
    changed = true;
    return { ...block, data, mimeType };
  });
  return changed ? { ...(result as object), content: next } : result;
}

const isTopKey = (key: string) => key === 'content' || key === 'isError';
const isTextKey = (key: string) => key === 'type' || key === 'text';

/**
 * The result itself when it is the plain shape most tools return: `content`
 * of text blocks with nothing but `type` and `text`, and at most `isError`.
 * For that shape the SDK's schema accepts it and returns an equal copy, so
 * it is taken as it is; anything else is undefined and goes to the schema.
 * Results arrive parsed from JSON (stdio, HTTP) or already checked by the
 * SDK's server (in-process); keys inherited from a tampered Object.prototype
 * are not looked at.
 */
export function plainTextResult(value: unknown): CallToolResult | undefined {
  if (!isPlainObject(value) || !hasOnlyKeys(value, isTopKey)) return undefined;
  const { content, isError } = value;
  if (!Array.isArray(content) || (isError !== undefined && typeof isError !== 'boolean')) return undefined;
  for (const block of content) {
    if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string' || !hasOnlyKeys(block, isTextKey)) return undefined;
  }
  return value as CallToolResult;
}

/**
 * The result schema the host's connections give the SDK: exactly
 * `CallToolResultSchema` after `normalizeMediaData` (the same data, the
 * same issues when it fails). The plain text shape is checked by hand first
 * (the SDK's schema builds a copy of every block, which made result
 * validation one of the larger costs of a call), and media is read only
 * when the schema refuses the result as it came: a result it accepts holds
 * no data url and no unreadable base64, so reading it first would change
 * nothing and cost an extra pass over every image.
 */
export const HostCallToolResultSchema = z.unknown().transform((value, ctx) => {
  const plain = plainTextResult(value);
  if (plain) return plain;
  let parsed = CallToolResultSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const normalized = normalizeMediaData(value);
  if (normalized !== value) parsed = CallToolResultSchema.safeParse(normalized);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.issues.push(issue as unknown as (typeof ctx.issues)[number]);
  return z.NEVER;
}) as unknown as typeof CallToolResultSchema;
