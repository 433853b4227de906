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

const outsideRefusal = (requested: string, roots: readonly string[]) =>
  new AcpFileRefusal(`${requested} is outside this conversation's workspace roots (${roots.join(', ')}); the host reads and writes only inside them`);

/**
 * Where `requested` really is, if inside one of the conversation's workspace
 * roots (docs/using/acp.md#files-and-terminals). Links are followed before
 * the check, so a link inside a root that points out is refused; a file that
 * does not exist yet is judged by its real parent folder.
 */
function resolveInRoots(requested: string, roots: readonly string[]): { real: string; folders: string[] } {
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
  if (!folders.some((folder) => inside(folder, real))) throw outsideRefusal(requested, roots);
  return { real, folders };
}

/**
 * The real folder a terminal runs in (docs/using/acp.md#terminals): the
 * requested one, else the first root, resolved through its links and then
 * judged, so a link inside a root that leads out is refused.
 */
export function folderInRoots(requested: string | null | undefined, roots: readonly string[]): string {
  const folders = realRoots(roots);
  if (folders.length === 0) throw new AcpFileRefusal('this conversation has no workspace roots, so the host runs no command for the agent; the user can set them on the conversation or the agent');
  if (requested == null) return folders[0]!;
  if (!path.isAbsolute(requested)) throw new AcpFileRefusal(`the cwd must be absolute: ${requested}`);
  let real: string;
  try {
    real = fs.realpathSync(requested);
  } catch {
    throw new AcpFileRefusal(`no such folder: ${requested}`);
  }
  if (!folders.some((folder) => inside(folder, real)))
    throw new AcpFileRefusal(`the cwd ${requested} is outside this conversation's workspace roots (${roots.join(', ')}); the host runs commands only inside them`);
  if (!fs.statSync(real).isDirectory()) throw new AcpFileRefusal(`the cwd ${requested} is not a folder`);
  return real;
}

/** What a path that is not a regular file is, for the refusal the agent reads. */
function kindOf(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/**
 * Where the open file really is. On Linux the kernel says it
 * (`/proc/self/fd`), whatever was swapped along the path since the check;
 * elsewhere the path is resolved again and must still be the very file
 * opened (device and inode).
 */
function openedPath(fd: number, real: string, stat: fs.Stats): string | undefined {
  if (process.platform === 'linux') {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // No /proc (a sandbox): judged as elsewhere.
    }
  }
  try {
    const again = fs.realpathSync(real);
    const now = fs.statSync(again);
    return now.dev === stat.dev && now.ino === stat.ino ? again : undefined;
  } catch {
    return undefined;
  }
}

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/**
 * Opens the checked path without trusting that it is still what was
 * checked: a link swapped in for the last part is not followed
 * (`O_NOFOLLOW`), a FIFO does not block the host (`O_NONBLOCK`), and what
 * was opened is judged again: a regular file, inside the roots. Returns the
 * open file, or throws the refusal (the file closed).
 */
function openChecked(requested: string, roots: readonly string[], flags: number): { fd: number; stat: fs.Stats; created: boolean } {
  const { real, folders } = resolveInRoots(requested, roots);
  let fd: number;
  let created = false;
  try {
    fd = fs.openSync(real, flags | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && flags & O_WRONLY) {
      // A new file: created here and only here (O_EXCL follows no link, not even one pointing nowhere).
      fd = openNew(real, requested);
      created = true;
    } else if (code === 'ELOOP' || code === 'EMLINK') throw new AcpFileRefusal(`${requested} is a link the host does not follow (it points nowhere, or was swapped in after the check)`);
    else if (code === 'ENXIO') throw new AcpFileRefusal(`${requested} is a FIFO (named pipe) or a device, not a regular file`);
    else if (code === 'ENOENT') throw new AcpFileRefusal(`no such file: ${requested}`);
    else throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new AcpFileRefusal(`${requested} is ${kindOf(stat)}, not a regular file`);
    const where = openedPath(fd, real, stat);
    if (where === undefined || !folders.some((folder) => inside(folder, where))) {
      if (created) fs.rmSync(real, { force: true });
      throw outsideRefusal(requested, roots);
    }
    return { fd, stat, created };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

function openNew(real: string, requested: string): number {
  try {
    return fs.openSync(real, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new AcpFileRefusal(`${requested} is a link (or appeared while being written); the host writes no file through a link it did not check`);
    if (code === 'ENOENT') throw new AcpFileRefusal(`no such folder: ${path.dirname(requested)}`);
    throw error;
  }
}

/** Reads at most `max` + 1 bytes: a file that grew past the bound since its size was read is still cut there. */
function readBounded(fd: number, max: number): Buffer {
  const buffer = Buffer.alloc(Math.min(max + 1, 64 * 1024));
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const n = fs.readSync(fd, buffer, 0, Math.min(buffer.length, max + 1 - total), null);
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
    total += n;
    if (total > max) break;
  }
  return Buffer.concat(chunks);
}

/** `fs/read_text_file`: a regular file inside the roots, from `line` (1-based), at most `limit` lines. */
export function readTextInRoots(request: { path: string; line?: number | null; limit?: number | null }, roots: readonly string[]): string {
  const { fd, stat } = openChecked(request.path, roots, O_RDONLY);
  let bytes: Buffer;
  try {
    if (stat.size > MAX_ACP_FILE_BYTES) throw new AcpFileRefusal(`${request.path} is larger than ${MAX_ACP_FILE_BYTES} bytes (${stat.size}); read it in parts with a tool of its own`);
    bytes = readBounded(fd, MAX_ACP_FILE_BYTES);
  } finally {
    fs.closeSync(fd);
  }
  if (bytes.length > MAX_ACP_FILE_BYTES) throw new AcpFileRefusal(`${request.path} grew past ${MAX_ACP_FILE_BYTES} bytes while it was read`);
  const text = bytes.toString('utf8');
  if (request.line == null && request.limit == null) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (request.line ?? 1) - 1);
  return lines.slice(start, request.limit == null ? undefined : start + request.limit).join('\n');
}

/** `fs/write_text_file`: a regular file inside the roots, created or replaced (never through a link, nor into a FIFO or a device). */
export function writeTextInRoots(request: { path: string; content: string }, roots: readonly string[]): void {
  const content = Buffer.from(request.content, 'utf8');
  if (content.length > MAX_ACP_FILE_BYTES) throw new AcpFileRefusal(`the content is larger than ${MAX_ACP_FILE_BYTES} bytes`);
  const { fd } = openChecked(request.path, roots, O_WRONLY);
  try {
    // Emptied only now, once the file opened is known to be the one checked.
    fs.ftruncateSync(fd, 0);
    let written = 0;
    while (written < content.length) written += fs.writeSync(fd, content, written, content.length - written, written);
  } finally {
    fs.closeSync(fd);
  }
}
