import * as fs from 'node:fs';
import * as path from 'node:path';
import { AuditRecordSchema, type AuditRecord } from '../../shared/audit.js';

export interface AuditQuery {
  limit?: number;
  tool?: string;
  appId?: string;
}

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
  ) {
    this.file = path.join(dir, 'audit.jsonl');
    this.previous = path.join(dir, 'audit.1.jsonl');
  }

  /** Bytes appended since the size was last read from disk; the disk is asked again only near the limit. */
  private knownSize: number | undefined;

  /** The record is built by the host itself, typed by AuditRecord; readers validate what they read back. */
  append(record: AuditRecord): void {
    const line = `${JSON.stringify(record)}\n`;
    if (this.knownSize === undefined || this.knownSize + line.length > this.maxBytes) {
      // Another process may append too: re-read the real size before deciding to rotate.
      fs.mkdirSync(this.dir, { recursive: true });
      const size = fs.statSync(this.file, { throwIfNoEntry: false })?.size ?? 0;
      if (size > this.maxBytes) {
        fs.renameSync(this.file, this.previous);
        this.knownSize = 0;
      } else {
        this.knownSize = size;
      }
    }
    fs.appendFileSync(this.file, line);
    this.knownSize += Buffer.byteLength(line);
  }

  /** Newest first. Lines that do not parse (a torn write, a hand edit) are skipped. */
  query(query: AuditQuery = {}): AuditRecord[] {
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
        records.push(record);
        if (query.limit !== undefined && records.length >= query.limit) return records;
      }
    }
    return records;
  }
}
