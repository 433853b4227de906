import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { hasOnlyKeys, isPlainObject } from '../../plainObject.js';

/**
 * Seed 002: image data is base64, possibly with a `data:<mime>;base64,`
 * prefix. The SDK's result schema rejects the prefixed form, and with it the
 * whole result, so the prefix is moved into `mimeType` before validation;
 * the bytes are unchanged.
 */
export function moveDataUrlPrefixes(result: unknown): unknown {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return result;
  // Most results hold no data: url at all; leave those untouched (this runs on every call).
  if (!content.some((item: { data?: unknown }) => typeof item?.data === 'string' && item.data.startsWith('data:'))) return result;
  return {
    ...(result as object),
    content: content.map((item: unknown) => {
      const block = item as { type?: unknown; data?: unknown; mimeType?: unknown };
      if ((block?.type !== 'image' && block?.type !== 'audio') || typeof block.data !== 'string') return item;
      const match = /^data:([^;,]+)?;base64,/.exec(block.data);
      return match ? { ...block, data: block.data.slice(match[0].length), mimeType: match[1] ?? block.mimeType } : item;
    }),
  };
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
 * `CallToolResultSchema` after `moveDataUrlPrefixes` (the same data, the
 * same issues when it fails), with the plain text shape checked by hand
 * first. The SDK's schema builds a copy of every block, which made result
 * validation one of the larger costs of a call.
 */
export const HostCallToolResultSchema = z.unknown().transform((value, ctx) => {
  const plain = plainTextResult(value);
  if (plain) return plain;
  const parsed = CallToolResultSchema.safeParse(moveDataUrlPrefixes(value));
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.issues.push(issue as unknown as (typeof ctx.issues)[number]);
  return z.NEVER;
}) as unknown as typeof CallToolResultSchema;
