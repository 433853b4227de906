import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Turns a url path (still percent-encoded, as the request line carried it)
 * into path segments, or undefined when any segment could step out of a
 * folder or reach a hidden file: `..` and `.` (also as `%2e%2e`), a dotfile
 * (`.git`, `.env`), an encoded `/` or `\`, a NUL, or bad percent-encoding.
 * It never normalizes: a request that needs normalizing is refused.
 */
export function urlPathSegments(encodedPath: string): string[] | undefined {
  const segments: string[] = [];
  for (const raw of encodedPath.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment.startsWith('.') || /[/\\\0]/.test(segment)) return undefined;
    segments.push(segment);
  }
  return segments;
}

/**
 * The real path of the regular file `segments` names under `root`, when it
 * stays inside `root` after every symlink is resolved and no part of the
 * resolved path below `root` is hidden; else undefined. Checked on the real
 * path, so a symlink inside the folder that points elsewhere is refused.
 */
export function fileInside(root: string, segments: readonly string[]): string | undefined {
  if (!segments.length) return undefined;
  let realRoot: string;
  let realFile: string;
  try {
    realRoot = fs.realpathSync(root);
    realFile = fs.realpathSync(path.join(root, ...segments));
  } catch {
    return undefined;
  }
  const relative = path.relative(realRoot, realFile);
  if (!isBelow(relative)) return undefined;
  if (relative.split(path.sep).some((part) => part.startsWith('.'))) return undefined;
  try {
    return fs.statSync(realFile).isFile() ? realFile : undefined;
  } catch {
    return undefined;
  }
}

/** `file` relative to `root` as a url path, each segment percent-encoded; undefined when `file` is not inside `root`. */
export function urlPathInside(root: string, file: string): string | undefined {
  const relative = path.relative(path.resolve(root), path.resolve(file));
  if (!isBelow(relative)) return undefined;
  return relative.split(path.sep).map(encodeURIComponent).join('/');
}

/** True when a `path.relative` result names something strictly below its root. */
function isBelow(relative: string): boolean {
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** A Map: an extension from a url (`.__proto__`, `.constructor`) is data, never a key of an object with a prototype. */
const CONTENT_TYPES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    '.mjs': 'text/javascript; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
    '.json': 'application/json; charset=utf-8',
    '.map': 'application/json; charset=utf-8',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.jpg': 'image/jpeg',
    '.jpeg': 'image/jpeg',
    '.gif': 'image/gif',
    '.webp': 'image/webp',
    '.ico': 'image/x-icon',
    '.html': 'text/html; charset=utf-8',
    '.woff2': 'font/woff2',
    '.txt': 'text/plain; charset=utf-8',
    '.md': 'text/markdown; charset=utf-8',
    '.pdf': 'application/pdf',
  }),
);

/** The content type a file is served with; unknown kinds are `application/octet-stream` (never sniffed: the server sends nosniff). */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES.get(path.extname(file).toLowerCase()) ?? 'application/octet-stream';
}
