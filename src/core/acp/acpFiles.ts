import * as fs from 'node:fs';
import * as path from 'node:path';

/** Largest file an ACP agent may read or write through the host (it travels in one JSON-RPC line). */
export const MAX_ACP_FILE_BYTES = 8 * 1024 * 1024;

/** A request the host refuses: the message the agent sees. */
export class AcpFileRefusal extends Error {}

/** The real folders of the roots (a root that is a link counts where it leads). */
function realRoots(roots: readonly string[]): string[] {
  return roots.flatMap((root) => {
    try {
      return [fs.realpathSync(root)];
    } catch {
      return [];
    }
  });
}

const inside = (folder: string, target: string) => target === folder || target.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);

/**
 * Where `requested` really is, if inside one of the conversation's workspace
 * roots (docs/using/acp.md#files-and-terminals). Links are followed before
 * the check, so a link inside a root that points out is refused; a file that
 * does not exist yet is judged by its real parent folder.
 */
function resolveInRoots(requested: string, roots: readonly string[]): string {
  if (!path.isAbsolute(requested)) throw new AcpFileRefusal(`the path must be absolute: ${requested}`);
  const folders = realRoots(roots);
  if (folders.length === 0)
    throw new AcpFileRefusal('this conversation has no workspace roots, so the host reads and writes no file for the agent; the user can set them on the conversation or the agent');
  let real: string;
  try {
    real = fs.realpathSync(requested);
  } catch {
    let parent: string;
    try {
      parent = fs.realpathSync(path.dirname(requested));
    } catch {
      throw new AcpFileRefusal(`no such file or folder: ${requested}`);
    }
    real = path.join(parent, path.basename(requested));
  }
  if (!folders.some((folder) => inside(folder, real)))
    throw new AcpFileRefusal(`${requested} is outside this conversation's workspace roots (${roots.join(', ')}); the host reads and writes only inside them`);
  return real;
}

/** `fs/read_text_file`: a regular file inside the roots, from `line` (1-based), at most `limit` lines. */
export function readTextInRoots(request: { path: string; line?: number | null; limit?: number | null }, roots: readonly string[]): string {
  const real = resolveInRoots(request.path, roots);
  const stat = fs.statSync(real, { throwIfNoEntry: false });
  if (!stat) throw new AcpFileRefusal(`no such file: ${request.path}`);
  if (!stat.isFile()) throw new AcpFileRefusal(`${request.path} is not a regular file`);
  if (stat.size > MAX_ACP_FILE_BYTES) throw new AcpFileRefusal(`${request.path} is larger than ${MAX_ACP_FILE_BYTES} bytes`);
  const text = fs.readFileSync(real, 'utf8');
  if (request.line == null && request.limit == null) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (request.line ?? 1) - 1);
  return lines.slice(start, request.limit == null ? undefined : start + request.limit).join('\n');
}

/** `fs/write_text_file`: a file inside the roots, created or replaced (never through a link that leads out: the check follows it). */
export function writeTextInRoots(request: { path: string; content: string }, roots: readonly string[]): void {
  if (Buffer.byteLength(request.content, 'utf8') > MAX_ACP_FILE_BYTES) throw new AcpFileRefusal(`the content is larger than ${MAX_ACP_FILE_BYTES} bytes`);
  const real = resolveInRoots(request.path, roots);
  const stat = fs.statSync(real, { throwIfNoEntry: false });
  if (stat && !stat.isFile()) throw new AcpFileRefusal(`${request.path} is not a regular file`);
  fs.writeFileSync(real, request.content, 'utf8');
}
