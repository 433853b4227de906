import { z } from 'zod';
import { LogLevelSchema } from '../../shared/mcp.js';

/** `message`: a log message the server sent over MCP (`notifications/message`), with its level and logger. */
export const ServerLogStreamSchema = z.enum(['stderr', 'fault', 'lifecycle', 'message']);
export type ServerLogStream = z.infer<typeof ServerLogStreamSchema>;

/** One line of a server's log, as a UI receives it. */
export const ServerLogEntrySchema = z.object({
  /** Increases by one per append, so a viewer can tell how many lines were dropped. */
  seq: z.number().int().nonnegative(),
  /** Epoch milliseconds. */
  at: z.number(),
  stream: ServerLogStreamSchema,
  text: z.string(),
  /** A `message` entry's level and logger, as the server gave them. */
  level: LogLevelSchema.optional(),
  logger: z.string().optional(),
  /** The same line said this many times in a row (a server failing each start the same way); absent for once. `at` is the last time. */
  count: z.number().int().min(2).optional(),
});
export type ServerLogEntry = z.infer<typeof ServerLogEntrySchema>;

export interface ServerLogOptions {
  /** Default 2000. */
  maxLines?: number;
  /** UTF-8 bytes of text kept in all; default 1 MiB. A longer single entry is cut to fit. */
  maxBytes?: number;
  clock?: () => number;
}

/**
 * The bounded log of one server: its stderr, the faults the host saw, and
 * lifecycle events. A server may write megabytes; the host keeps only the
 * newest lines so memory stays flat however long it runs.
 */
export class ServerLog {
  private readonly maxLines: number;
  private readonly maxBytes: number;
  private readonly clock: () => number;
  // A queue as array + head index: dropping the oldest is O(1), compaction is amortised.
  private items: { entry: ServerLogEntry; bytes: number }[] = [];
  private head = 0;
  private bytes = 0;
  private nextSeq = 0;
  private readonly listeners = new Set<(entry: ServerLogEntry) => void>();

  constructor(options: ServerLogOptions = {}) {
    this.maxLines = Math.max(1, options.maxLines ?? 2000);
    this.maxBytes = Math.max(1, options.maxBytes ?? 1024 * 1024);
    this.clock = options.clock ?? Date.now;
  }

  append(stream: ServerLogStream, text: string, about: Pick<ServerLogEntry, 'level' | 'logger'> = {}): ServerLogEntry {
    const repeated = this.repeatOfNewest(stream, text, about);
    if (repeated) return this.tell(repeated);
    let bytes = Buffer.byteLength(text);
    if (bytes > this.maxBytes) {
      // Cut on a character boundary: decoding a byte-cut buffer would end in U+FFFD.
      text = Buffer.from(text)
        .subarray(0, this.maxBytes)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
      bytes = Buffer.byteLength(text);
    }
    const entry: ServerLogEntry = { seq: this.nextSeq++, at: this.clock(), stream, text, ...about };
    this.items.push({ entry, bytes });
    this.bytes += bytes;
    while (this.size > this.maxLines || this.bytes > this.maxBytes) this.dropOldest();
    return this.tell(entry);
  }

  /**
   * The newest entry counted once more, when it says exactly this: one line
   * with "(×N)" instead of N (a server that fails every start the same way).
   * A new object, so a viewer holding the old one sees no change under it.
   */
  private repeatOfNewest(stream: ServerLogStream, text: string, about: Pick<ServerLogEntry, 'level' | 'logger'>): ServerLogEntry | undefined {
    const newest = this.items.length > this.head ? this.items[this.items.length - 1]! : undefined;
    if (!newest || newest.entry.stream !== stream || newest.entry.text !== text || newest.entry.level !== about.level || newest.entry.logger !== about.logger) return undefined;
    newest.entry = { ...newest.entry, at: this.clock(), count: (newest.entry.count ?? 1) + 1 };
    return newest.entry;
  }

  private tell(entry: ServerLogEntry): ServerLogEntry {
    for (const listener of [...this.listeners]) {
      try {
        listener(entry);
      } catch {
        // A broken viewer must not break the transport that is logging.
      }
    }
    return entry;
  }

  /** The newest `n` entries, oldest first; of one stream if given. */
  tail(n: number, stream?: ServerLogStream): ServerLogEntry[] {
    const out: ServerLogEntry[] = [];
    for (let i = this.items.length - 1; i >= this.head && out.length < n; i--) {
      const entry = this.items[i]!.entry;
      if (!stream || entry.stream === stream) out.push(entry);
    }
    return out.reverse();
  }

  /** How many entries were dropped to keep the log within its bounds (the oldest first). */
  get dropped(): number {
    const oldest = this.items[this.head];
    return oldest ? oldest.entry.seq : this.nextSeq;
  }

  entries(): ServerLogEntry[] {
    return this.items.slice(this.head).map((item) => item.entry);
  }

  /** Calls `listener` for every later append (a repeat comes again with its seq and a higher count); returns the unsubscribe function. */
  onAppend(listener: (entry: ServerLogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  get size(): number {
    return this.items.length - this.head;
  }

  private dropOldest(): void {
    const item = this.items[this.head];
    if (!item) return;
    this.bytes -= item.bytes;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}
