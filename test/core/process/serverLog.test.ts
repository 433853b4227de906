import { describe, expect, it } from 'vitest';
import { ServerLog, ServerLogEntrySchema } from '../../../src/core/process/serverLog.js';

describe('ServerLog', () => {
  it('keeps entries in order with increasing seq and valid shape', () => {
    const log = new ServerLog({ clock: () => 42 });
    log.append('lifecycle', 'started');
    log.append('stderr', 'hello');
    expect(log.entries()).toEqual([
      { seq: 0, at: 42, stream: 'lifecycle', text: 'started' },
      { seq: 1, at: 42, stream: 'stderr', text: 'hello' },
    ]);
    for (const entry of log.entries()) expect(ServerLogEntrySchema.parse(entry)).toEqual(entry);
  });

  it('drops the oldest entries beyond maxLines', () => {
    const log = new ServerLog({ maxLines: 3 });
    for (let i = 0; i < 5000; i++) log.append('stderr', `line ${i}`);
    expect(log.entries().map((entry) => entry.text)).toEqual(['line 4997', 'line 4998', 'line 4999']);
    expect(log.entries()[0]!.seq).toBe(4997); // a viewer can tell 4997 lines were dropped
  });

  it('drops the oldest entries beyond maxBytes, and cuts one entry longer than the whole budget', () => {
    const log = new ServerLog({ maxBytes: 10 });
    log.append('stderr', 'aaaa');
    log.append('stderr', 'bbbb');
    log.append('stderr', 'cccc');
    expect(log.entries().map((entry) => entry.text)).toEqual(['bbbb', 'cccc']);
    log.append('fault', 'é'.repeat(20)); // 40 bytes
    expect(log.entries().map((entry) => entry.text)).toEqual(['ééééé']); // 10 bytes, whole characters
  });

  it('tail(n) gives the newest n, optionally of one stream', () => {
    const log = new ServerLog();
    log.append('stderr', 'e1');
    log.append('fault', 'f1');
    log.append('stderr', 'e2');
    log.append('lifecycle', 'l1');
    expect(log.tail(2).map((entry) => entry.text)).toEqual(['e2', 'l1']);
    expect(log.tail(5, 'stderr').map((entry) => entry.text)).toEqual(['e1', 'e2']);
    expect(log.tail(0)).toEqual([]);
  });

  it('onAppend notifies until unsubscribed, and a throwing listener does not break appends', () => {
    const log = new ServerLog();
    const seen: string[] = [];
    log.onAppend(() => {
      throw new Error('broken viewer');
    });
    const unsubscribe = log.onAppend((entry) => seen.push(entry.text));
    log.append('stderr', 'one');
    unsubscribe();
    log.append('stderr', 'two');
    expect(seen).toEqual(['one']);
    expect(log.size).toBe(2);
  });

  it('a line said again right after itself is one entry with a count, its last time and its seq; anything between starts a new one', () => {
    let now = 1;
    const log = new ServerLog({ clock: () => now });
    const seen: unknown[] = [];
    log.onAppend((entry) => seen.push(entry));
    for (let i = 0; i < 6; i++) {
      now = 10 + i;
      log.append('fault', 'could not start: spawn nope ENOENT');
    }
    log.append('stderr', 'could not start: spawn nope ENOENT');
    log.append('fault', 'could not start: spawn nope ENOENT');
    expect(log.entries()).toEqual([
      { seq: 0, at: 15, stream: 'fault', text: 'could not start: spawn nope ENOENT', count: 6 },
      { seq: 1, at: 15, stream: 'stderr', text: 'could not start: spawn nope ENOENT' },
      { seq: 2, at: 15, stream: 'fault', text: 'could not start: spawn nope ENOENT' },
    ]);
    for (const entry of log.entries()) expect(ServerLogEntrySchema.parse(entry)).toEqual(entry);
    // A viewer is told of each repeat, as the same seq with its count.
    expect(seen.slice(0, 3)).toEqual([expect.objectContaining({ seq: 0 }), expect.objectContaining({ seq: 0, count: 2 }), expect.objectContaining({ seq: 0, count: 3 })]);
  });
});
