import * as path from 'node:path';
import { fileInside, urlPathInside } from './safePath.js';

/**
 * Images a conversation's tool calls returned live in
 * `<conversations>/<id>/artifacts/…`; a face serves those folders and
 * nothing else of a conversation (never its messages). Url paths here are
 * `<id>/<path inside its artifacts folder>`, each segment percent-encoded.
 */

/** The url path of a saved artifact, or undefined when `file` is not in a conversation's artifacts folder. */
export function conversationArtifactPath(conversationsDir: string, file: string): string | undefined {
  const relative = urlPathInside(conversationsDir, file);
  const parts = relative?.split('/');
  if (!parts || parts.length < 3 || parts[1] !== 'artifacts') return undefined;
  return [parts[0], ...parts.slice(2)].join('/');
}

/** The file an artifact url names (already split by urlPathSegments): inside that conversation's artifacts folder, links resolved, or undefined. */
export function conversationArtifactFile(conversationsDir: string, segments: readonly string[]): string | undefined {
  const [id, ...rest] = segments;
  if (!id || !rest.length) return undefined;
  return fileInside(path.join(conversationsDir, id, 'artifacts'), rest);
}
