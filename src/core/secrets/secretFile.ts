import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../ports.js';
import { writeFileAtomic } from '../store/dbFile.js';
import { withFileLock } from '../store/dbLock.js';
import { messageOf } from '../store/storeError.js';
import { SecretError } from './secretStore.js';

/**
 * A JSON file of named strings that only its owner may read:
 * `{ "version": 1, "secrets": { "model:gpt": "…" } }`.
 *
 * - Written atomically (temp file created 0600, fsync, rename) under an
 *   inter-process lock, read-modify-write, so the app and the CLI never lose
 *   each other's keys; its folder is made 0700.
 * - Read only when it is a regular file (never through a link), owned by
 *   this user and unreadable by anyone else; otherwise it is refused with
 *   the fix, since a key others could read must be treated as leaked.
 * - No error message ever quotes the file's content (a JSON parser's message
 *   may; it is not passed on).
 */

const FileSchema = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.string()) }).strict();

const MAX_BYTES = 1024 * 1024;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
/** Windows has no POSIX modes or owners; there the user profile's ACLs decide. */
const POSIX = process.platform !== 'win32';

export class SecretFile {
  constructor(
    readonly file: string,
    private readonly logger: Logger,
  ) {}

  /** Every entry, in a Map (names are data). Empty when the file does not exist. */
  read(): Map<string, string> {
    const text = this.readText();
    if (text === undefined) return new Map();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw this.unreadable('it is not valid JSON');
    }
    const checked = FileSchema.safeParse(parsed);
    if (!checked.success) throw this.unreadable('it is not {"version": 1, "secrets": {name: string}}');
    return new Map(Object.entries(checked.data.secrets));
  }

  /** Reads, lets `change` edit the entries, writes them back, all under the lock. Returns what `change` returned. */
  async update<T>(change: (entries: Map<string, string>) => T): Promise<T> {
    this.prepareFolder();
    let result!: T;
    try {
      await withFileLock(this.file, this.logger, () => {
        const entries = this.read();
        result = change(entries);
        const secrets = Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b)));
        writeFileAtomic(this.file, Buffer.from(`${JSON.stringify({ version: 1, secrets }, null, 2)}\n`));
      });
    } catch (error) {
      if (error instanceof SecretError) throw error;
      throw new SecretError('SECRETS_WRITE_FAILED', `could not write ${this.file}: ${messageOf(error)}; the key was not saved`, 'make the data home writable and free some disk space, then try again');
    }
    return result;
  }

  private readText(): string | undefined {
    let fd: number;
    try {
      fd = fs.openSync(this.file, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ELOOP') throw this.unsafe('it is a symbolic link', `remove the link (rm ${this.file}) and add your keys again`);
      throw this.unsafe(`it cannot be opened (${code ?? messageOf(error)})`, `check that ${this.file} is a regular file you own`);
    }
    try {
      // Checked on the open handle: a check by path could be raced by a swap.
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw this.unsafe('it is not a regular file', `remove it (it should be a file written by ChatOS) and add your keys again`);
      if (POSIX && process.getuid && stat.uid !== process.getuid()) throw this.unsafe('it belongs to another user', `remove it, or make it yours: chown ${process.getuid()} ${this.file}`);
      if (POSIX && (stat.mode & 0o077) !== 0) {
        throw this.unsafe(
          `other users may read it (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`,
          `make it private: chmod 600 ${this.file} (and replace any key that may have been read)`,
        );
      }
      if (stat.size > MAX_BYTES) throw this.unreadable(`it holds more than ${MAX_BYTES} bytes`);
      return fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The folder is created 0700, and tightened to 0700 when it is ours and looser. */
  private prepareFolder(): void {
    const dir = path.dirname(this.file);
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!POSIX) return;
      const stat = fs.statSync(dir);
      if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) fs.chmodSync(dir, 0o700);
    } catch (error) {
      throw new SecretError('SECRETS_WRITE_FAILED', `could not prepare ${dir}: ${messageOf(error)}; the key was not saved`, 'make the data home writable, then try again');
    }
  }

  private unsafe(why: string, hint: string): SecretError {
    return new SecretError('SECRETS_UNSAFE', `refusing to read the keys in ${this.file}: ${why}`, hint);
  }

  private unreadable(why: string): SecretError {
    return new SecretError('SECRETS_UNREADABLE', `cannot read the keys in ${this.file}: ${why}`, `move it aside (mv ${this.file} ${this.file}.broken) and add your keys again`);
  }
}
