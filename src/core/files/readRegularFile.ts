import * as fs from 'node:fs';
import type { Problem } from '../../shared/problems.js';

/**
 * Reading a file that someone else controls (a plugin folder, mcp.yaml, a
 * defaults folder, a page file a browser asks for). Opening a FIFO for
 * reading waits for a writer, forever, and a device may never end: one such
 * file named `plugin.json` would hang a scan, and with it the whole host. So
 * the file is opened without blocking, the *open handle* is checked to be a
 * regular file (a check by path first could be raced by a swap), and the
 * caller's byte cap is enforced on what is read from that handle.
 */

export type FileReadCode = 'FILE_NOT_FOUND' | 'FILE_NOT_REGULAR' | 'FILE_TOO_LARGE' | 'FILE_UNREADABLE';

export interface FileReadFailure {
  ok: false;
  code: FileReadCode;
  /** What it is instead, for FILE_NOT_REGULAR (`a FIFO`, `a folder`, `a socket`, `a device`, `a link`). */
  kind?: string;
  /** For FILE_TOO_LARGE: at least this many bytes. */
  size?: number;
  message: string;
  hint: string;
}

export interface ReadOptions {
  /** Read at most this many bytes; a file holding more is FILE_TOO_LARGE. */
  maxBytes: number;
  /** Refuse a symbolic link in the last component (O_NOFOLLOW), for callers that pin files by what they are, not what they point at. */
  noFollow?: boolean;
}

/** What a stat (or a directory entry) says a non-regular file is, in words for a problem. */
export function describeFileKind(stat: fs.Stats | fs.Dirent): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSymbolicLink()) return 'a link';
  return 'not a regular file';
}

/** Absent on Windows, where neither a FIFO nor O_NOFOLLOW exists in this form. */
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

const notRegular = (file: string, kind: string): FileReadFailure => ({
  ok: false,
  code: 'FILE_NOT_REGULAR',
  kind,
  message: `${file} is ${kind}, not a regular file`,
  hint: 'replace it with a regular file',
});

function openFailure(file: string, error: unknown, noFollow: boolean): FileReadFailure {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, code: 'FILE_NOT_FOUND', message: `${file} does not exist`, hint: 'create the file or correct the path' };
  // O_NOFOLLOW on a link fails with ELOOP; a socket cannot be opened at all (ENXIO).
  if (code === 'ELOOP' && noFollow) return notRegular(file, 'a link');
  if (code === 'ENXIO') return notRegular(file, 'a socket');
  return { ok: false, code: 'FILE_UNREADABLE', message: `cannot read ${file}: ${(error as Error).message}`, hint: 'make it a readable file (check its permissions)' };
}

const tooLarge = (file: string, size: number, maxBytes: number): FileReadFailure => ({
  ok: false,
  code: 'FILE_TOO_LARGE',
  size,
  message: `${file} holds more than ${maxBytes} bytes`,
  hint: 'make the file smaller',
});

type OpenedFile = { ok: true; fd: number; size: number } | FileReadFailure;

/**
 * Opens `file` for reading when it is a regular file, without ever waiting
 * on it. The caller owns the descriptor (close it, or hand it to a stream
 * with autoClose). `size` is what the handle's fstat said: read no more.
 */
function openRegularFile(file: string, options: { noFollow?: boolean } = {}): OpenedFile {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | O_NONBLOCK | (options.noFollow ? O_NOFOLLOW : 0));
  } catch (error) {
    return openFailure(file, error, options.noFollow === true);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      fs.closeSync(fd);
      return notRegular(file, describeFileKind(stat));
    }
    return { ok: true, fd, size: stat.size };
  } catch (error) {
    fs.closeSync(fd);
    return openFailure(file, error, false);
  }
}

/** The bytes of a regular file, at most `maxBytes` of them (counted as read, so a file growing after the open is caught too). */
export function readRegularFile(file: string, options: ReadOptions): { ok: true; bytes: Buffer } | FileReadFailure {
  const opened = openRegularFile(file, options);
  if (!opened.ok) return opened;
  const { fd } = opened;
  try {
    if (opened.size > options.maxBytes) return tooLarge(file, opened.size, options.maxBytes);
    // One byte past the cap tells "exactly at the cap" from "over it".
    const buffer = Buffer.allocUnsafe(Math.min(options.maxBytes, opened.size) + 1);
    let total = 0;
    while (total < buffer.length) {
      const read = fs.readSync(fd, buffer, total, buffer.length - total, null);
      if (read === 0) return { ok: true, bytes: buffer.subarray(0, total) };
      total += read;
    }
    // Filled: the file holds more now than fstat said.
    if (total > options.maxBytes) return tooLarge(file, total, options.maxBytes);
    return readRest(fd, file, buffer, total, options.maxBytes);
  } catch (error) {
    return openFailure(file, error, false);
  } finally {
    fs.closeSync(fd);
  }
}

function readRest(fd: number, file: string, first: Buffer, length: number, maxBytes: number): { ok: true; bytes: Buffer } | FileReadFailure {
  const chunks = [first.subarray(0, length)];
  let total = length;
  const chunk = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    const read = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) return { ok: true, bytes: Buffer.concat(chunks, total) };
    total += read;
    if (total > maxBytes) return tooLarge(file, total, maxBytes);
    chunks.push(Buffer.from(chunk.subarray(0, read)));
  }
}

/** `readRegularFile` as UTF-8 text. */
export function readRegularText(file: string, options: ReadOptions): { ok: true; text: string } | FileReadFailure {
  const read = readRegularFile(file, options);
  return read.ok ? { ok: true, text: read.bytes.toString('utf8') } : read;
}

/** A failed read as a problem of `file` (at `jsonPath`, '' for the whole file), its code the read's. */
export function readProblem(failure: FileReadFailure, file: string, jsonPath = ''): Problem {
  return { severity: 'error', code: failure.code, file, path: jsonPath, message: failure.message, hint: failure.hint };
}

/**
 * A regular file's bytes as a stream, for serving: no more than the open
 * handle's fstat size (a file growing meanwhile is cut there, so the
 * Content-Length holds). `stream` is undefined for an empty file, whose
 * handle is already closed; otherwise the stream closes it.
 */
export function streamRegularFile(file: string, options: { noFollow?: boolean } = {}): { ok: true; size: number; stream: fs.ReadStream | undefined } | FileReadFailure {
  const opened = openRegularFile(file, options);
  if (!opened.ok) return opened;
  if (opened.size === 0) {
    fs.closeSync(opened.fd);
    return { ok: true, size: 0, stream: undefined };
  }
  return { ok: true, size: opened.size, stream: fs.createReadStream(file, { fd: opened.fd, start: 0, end: opened.size - 1 }) };
}
