import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseDataUrl } from '../connection/dataUrl.js';

/** Only these are kept as images: the formats every model provider accepts (docs/rules/gateway.md#images-become-artifacts). */
export const IMAGE_TYPES: ReadonlyMap<string, string> = new Map([
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/gif', 'gif'],
  ['image/webp', 'webp'],
]);

export interface SavedArtifact {
  path: string;
  mimeType: string;
  byteLength: number;
}

const safeSegment = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_';

/** What a result without images saves: nothing. Shared and frozen, since every call without images gets it. */
export const NO_ARTIFACTS: readonly SavedArtifact[] = Object.freeze([]);

/**
 * Writes every image in a result to
 * `<artifactsDir>/mcp/<serverId>/<toolName>/<timestamp>-<uuid>.<ext>` and
 * replaces it with a `resource_link` to the file, so results stay small and
 * the UI fetches the bytes on demand. Base64 may be written as a data url.
 * Other image types become a text note.
 */
export function storeImageArtifacts(result: CallToolResult, artifactsDir: string, serverId: string, toolName: string, now: number): { result: CallToolResult; artifacts: readonly SavedArtifact[] } {
  // Most results hold no image: nothing is saved or copied.
  if (!Array.isArray(result.content) || !result.content.some((item) => item.type === 'image')) return { result, artifacts: NO_ARTIFACTS };
  const artifacts: SavedArtifact[] = [];
  const content = result.content.map((item) => {
    if (item.type !== 'image') return item;
    // Results arrive with data urls already read (callToolResult.ts); one that did not is read the same way.
    const dataUrl = parseDataUrl(item.data);
    const mimeType = (dataUrl?.mimeType ?? item.mimeType ?? '').toLowerCase();
    // The server names the type: a Map, so "constructor" is no type with an extension.
    const ext = IMAGE_TYPES.get(mimeType);
    if (!ext) {
      return { type: 'text' as const, text: `[an image of type ${mimeType || 'unknown'} was returned and dropped: only JPEG, PNG, GIF and WebP are kept]` };
    }
    const bytes = Buffer.from(dataUrl ? dataUrl.base64 : item.data, 'base64');
    const dir = path.join(artifactsDir, 'mcp', safeSegment(serverId), safeSegment(toolName));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${now}-${randomUUID()}.${ext}`);
    fs.writeFileSync(file, bytes);
    artifacts.push({ path: file, mimeType, byteLength: bytes.length });
    return { type: 'resource_link' as const, uri: pathToFileURL(file).href, name: path.basename(file), mimeType, _meta: { byteLength: bytes.length, artifact: true } };
  });
  return { result: { ...result, content }, artifacts };
}
