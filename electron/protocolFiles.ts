import * as path from 'node:path';
import { conversationArtifactFile } from '../src/pageHost/conversationArtifacts.js';
import { contentTypeOf, fileInside, urlPathSegments } from '../src/pageHost/safePath.js';

/**
 * Which file a `chatos://` request may read. The path rules are the faces'
 * shared ones (src/pageHost/safePath.ts): after percent-decoding and after
 * following symlinks the file must be a regular file under its folder, and
 * `..`, `%2e%2e`, an encoded `/` or `\`, NUL and dotfiles are refused.
 */
export type FileResolution = { ok: true; file: string; contentType: string } | { ok: false; status: 400 | 404; message: string };

function found(file: string): FileResolution {
  return { ok: true, file, contentType: contentTypeOf(file) };
}

/** The built renderer: `chatos://app/` and any extension-less path (a route) are index.html. */
export function resolveAppRequest(rendererDir: string, url: URL): FileResolution {
  const segments = urlPathSegments(url.pathname);
  if (!segments) return { ok: false, status: 400, message: `${url.pathname} is not a path inside the app` };
  const file = fileInside(rendererDir, segments);
  if (file) return found(file);
  const last = segments.at(-1);
  if (last === undefined || path.extname(last) === '') {
    const index = fileInside(rendererDir, ['index.html']);
    if (index) return found(index);
    return { ok: false, status: 404, message: `the renderer is not built: no index.html in ${rendererDir}; run npm run build` };
  }
  return { ok: false, status: 404, message: `no file ${url.pathname} in the app` };
}

/** `chatos://artifacts/<path>`: a file of the artifacts folder, nothing else. */
export function resolveArtifactRequest(artifactsDir: string, url: URL): FileResolution {
  const segments = urlPathSegments(url.pathname);
  const file = segments && fileInside(artifactsDir, segments);
  return file ? found(file) : { ok: false, status: 404, message: `no artifact ${url.pathname}` };
}

/** `chatos://conversation-artifacts/<id>/<path>`: an image in that conversation's artifacts folder, nothing else of it. */
export function resolveConversationArtifactRequest(conversationsDir: string, url: URL): FileResolution {
  const segments = urlPathSegments(url.pathname);
  const file = segments && conversationArtifactFile(conversationsDir, segments);
  return file ? found(file) : { ok: false, status: 404, message: `no artifact ${url.pathname}` };
}
