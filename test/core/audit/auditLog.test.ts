import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/core/audit/auditLog.js';
import type { AuditRecord } from '../../../src/shared/audit.js';
import { tempDir } from '../../helpers/tempDir.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

const record = (n: number, extra: Partial<AuditRecord> = {}): AuditRecord => ({
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  conversationId: 'c',
  appId: 'chatos',
  flow: 'main',
  serverId: 'chatos::fx',
  tool: `tool_${n}`,
  permission: 'write',
  decision: 'auto',
  durationMs: n,
  outcome: 'ok',
  ...extra,
});

describe('AuditLog', () => {
  it('returns records newest first, filtered, and skips lines that do not parse', () => {
    const dir = tempDir();
    const log = new AuditLog(dir);
    for (let n = 0; n < 5; n++) log.append(record(n, n === 3 ? { appId: 'aide' } : {}));
    fs.appendFileSync(path.join(dir, 'audit.jsonl'), '{"torn":\n');
    log.append(record(5));
    expect(log.query().map((r) => r.tool)).toEqual(['tool_5', 'tool_4', 'tool_3', 'tool_2', 'tool_1', 'tool_0']);
    expect(log.query({ limit: 2 }).map((r) => r.tool)).toEqual(['tool_5', 'tool_4']);
    expect(log.query({ appId: 'aide' }).map((r) => r.tool)).toEqual(['tool_3']);
    expect(log.query({ tool: 'tool_1' })).toHaveLength(1);
  });

  it('writes 100 ms after the call, not during it, and flush() writes what is queued', () => {
    const dir = tempDir();
    const scheduler = new TestScheduler();
    const log = new AuditLog(dir, undefined, scheduler);
    log.append(record(1));
    expect(fs.existsSync(path.join(dir, 'audit.jsonl'))).toBe(false);
    scheduler.advance(99);
    expect(fs.existsSync(path.join(dir, 'audit.jsonl'))).toBe(false);
    scheduler.advance(1);
    expect(fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    log.append(record(2));
    log.flush();
    expect(fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('writes a long burst in slices as it comes, not all at the timer, and a draft gets its time formatted in AuditRecord order', async () => {
    const dir = tempDir();
    const log = new AuditLog(dir, undefined, new TestScheduler());
    const at = Date.UTC(2026, 0, 1, 0, 0, 0);
    for (let n = 0; n < 300; n++) {
      const { time: _time, ...rest } = record(n);
      log.append({ at, ...rest });
    }
    // Past a slice's worth, the next turn of the event loop writes it: the 100 ms timer (on a scheduler that never moves) is not why.
    await new Promise((resolve) => setImmediate(resolve));
    const lines = fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(300);
    expect(Object.keys(JSON.parse(lines[0]!))).toEqual(Object.keys(record(0)));
    expect(JSON.parse(lines[299]!)).toEqual(record(299, { time: new Date(at).toISOString() }));
  });

  it('keeps retention bounded: past the size limit the file rotates and only two files exist', () => {
    const dir = tempDir();
    const log = new AuditLog(dir, 2_000);
    for (let n = 0; n < 60; n++) log.append(record(n));
    log.flush();
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(['audit.1.jsonl', 'audit.jsonl']);
    for (const file of files) expect(fs.statSync(path.join(dir, file)).size).toBeLessThan(2_000 + 400);
    const kept = log.query();
    expect(kept[0]!.tool).toBe('tool_59');
    expect(kept.length).toBeLessThan(60);
    // A second writer (another process) appending to the same file is not overwritten by the first's idea of the size.
    const other = new AuditLog(dir, 2_000);
    other.append(record(100));
    other.flush();
    log.append(record(101));
    expect(log.query({ limit: 2 }).map((r) => r.tool)).toEqual(['tool_101', 'tool_100']);
  });

  it("formats a draft's epoch time when it writes, in the same shape as a finished record", () => {
    const dir = tempDir();
    const log = new AuditLog(dir);
    const { time: _time, ...rest } = record(7);
    log.append({ ...rest, at: Date.UTC(2026, 4, 2, 3, 4, 5) });
    const [written] = log.query();
    expect(written).toEqual({ ...rest, time: '2026-05-02T03:04:05.000Z' });
    expect(Object.keys(JSON.parse(fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8')))[0]).toBe('time');
  });
});
