import * as fs from 'node:fs';
import * as path from 'node:path';
import { AuditRecordSchema, type AuditDecision, type AuditOutcome, type AuditRecord } from '../../shared/audit.js';
import { systemScheduler, type Scheduler } from '../ports.js';
import { auditLine, type AuditDraft } from './auditLine.js';

export type { AuditDraft } from './auditLine.js';

export interface AuditQuery {
  limit?: number;
  tool?: string;
  appId?: string;
  agentId?: string;
  decision?: AuditDecision;
  outcome?: AuditOutcome;
}

/** How long a record waits to be written with the others of its burst. */
const WRITE_DELAY_MS = 100;

/** Queued records that are written at once, not after the timer. */
const FLUSH_BATCH = 256;

/**
 * The gateway's audit trail: one JSON line per call in
 * `<dir>/audit.jsonl`. Retention is bounded by size: past `maxBytes` the
 * file becomes `audit.1.jsonl` (the one before is dropped), so at most two
 * files exist. Appends are single small writes, so the app and a CLI call
 * can append at once without tearing lines.
 */
export class AuditLog {
  readonly file: string;
  private readonly previous: string;

  constructor(
    readonly dir: string,
    private readonly maxBytes = 4 * 1024 * 1024,
    /** The timer of the batched write: the host's, so a test moves its time instead of waiting for it. */
    private readonly scheduler: Scheduler = systemScheduler,
  ) {
    this.file = path.join(dir, 'audit.jsonl');
    this.previous = path.join(dir, 'audit.1.jsonl');
  }

  /** Bytes appended since the size was last read from disk; the disk is asked again only near the limit. */
  private knownSize: number | undefined;
  private buffered: (AuditRecord | AuditDraft)[] = [];
  private scheduled = false;
  private sliceDue = false;

  /**
   * Queues the record; queued records are serialized and written together
   * within 100 ms, so neither JSON nor file I/O sits on a tool call's path
   * (a crash loses at most those). A draft carries its time as epoch ms and
   * is formatted then too. `flush()` (called on dispose and before every
   * query) writes what is queued now. Readers validate what they read back.
   */
  append(record: AuditRecord | AuditDraft): void {
    this.buffered.push(record);
    // A long burst is written in slices: serializing thousands of records at once would stall the calls behind it.
    if (this.buffered.length >= FLUSH_BATCH && !this.sliceDue) {
      this.sliceDue = true;
      setImmediate(() => this.flush());
    }
    if (this.scheduled) return;
    this.scheduled = true;
    // One write per burst of calls, never one per call: file I/O stays off the calls' path.
    this.scheduler.setTimeout(() => this.flush(), WRITE_DELAY_MS);
  }

  flush(): void {
    this.scheduled = false;
    this.sliceDue = false;
    if (this.buffered.length === 0) return;
    const records = this.buffered;
    this.buffered = [];
    const lines = records.map(auditLine);
    const chunk = lines.join('');
    const bytes = Buffer.byteLength(chunk);
    if (this.knownSize !== undefined && this.knownSize + bytes <= this.maxBytes) {
      fs.appendFileSync(this.file, chunk);
      this.knownSize += bytes;
      return;
    }
    // Near the limit: line by line, so the file is rotated exactly where it fills.
    let pending = '';
    for (const line of lines) {
      const lineBytes = Buffer.byteLength(line);
      if (this.knownSize === undefined || this.knownSize + lineBytes > this.maxBytes) {
        if (pending) fs.appendFileSync(this.file, pending);
        pending = '';
        this.rotateIfFull();
      }
      pending += line;
      this.knownSize! += lineBytes;
    }
    if (pending) fs.appendFileSync(this.file, pending);
  }

  /** Another process may append too: the real size is read before deciding to rotate. */
  private rotateIfFull(): void {
    fs.mkdirSync(this.dir, { recursive: true });
    const size = fs.statSync(this.file, { throwIfNoEntry: false })?.size ?? 0;
    if (size > 0 && size >= this.maxBytes - 512) {
      fs.renameSync(this.file, this.previous);
      this.knownSize = 0;
    } else {
      this.knownSize = size;
    }
  }

  /** Newest first. Lines that do not parse (a torn write, a hand edit) are skipped. */
  query(query: AuditQuery = {}): AuditRecord[] {
    this.flush();
    const records: AuditRecord[] = [];
    for (const file of [this.file, this.previous]) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      const lines = text.split('\n').filter(Boolean).reverse();
      for (const line of lines) {
        let parsed;
        try {
          parsed = AuditRecordSchema.safeParse(JSON.parse(line));
        } catch {
          continue;
        }
        if (!parsed.success) continue;
        const record = parsed.data;
        if (query.tool && record.tool !== query.tool) continue;
        if (query.appId && record.appId !== query.appId) continue;
        if (query.agentId && record.agentId !== query.agentId) continue;
        if (query.decision && record.decision !== query.decision) continue;
        if (query.outcome && record.outcome !== query.outcome) continue;
        records.push(record);
        if (query.limit !== undefined && records.length >= query.limit) return records;
      }
    }
    return records;
  }
}
