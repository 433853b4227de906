import { describe, expect, it } from 'vitest';
import { auditLine } from '../../../src/core/audit/auditLine.js';
import { AuditRecordSchema, type AuditRecord } from '../../../src/shared/audit.js';

const base: AuditRecord = {
  time: '2026-01-01T00:00:00.000Z',
  conversationId: 'c-1',
  appId: 'chatos',
  flow: 'main',
  serverId: 'chatos::fx',
  tool: 'mcp_fx_echo',
  permission: 'write',
  decision: 'auto',
  durationMs: 12,
  outcome: 'ok',
};

/** What the line must be: JSON.stringify of the record, keys in AuditRecord's order. */
const expected = (record: AuditRecord) => `${JSON.stringify(AuditRecordSchema.parse(record))}\n`;

describe('auditLine', () => {
  it('is exactly JSON.stringify of the record, optional keys included only when set', () => {
    const records: AuditRecord[] = [
      base,
      { ...base, agentId: 'agent-1', durationMs: 0.25 },
      { ...base, outcome: 'failed', error: 'server "fx" said: "no"\n\tline two \u0001 \u2028 ü 🙂 \\ end' },
      { ...base, conversationId: 'quote " and backslash \\', appId: 'ünïcödé', tool: 'tab\tname', flow: 'sub', decision: 'declined', outcome: 'declined', permission: 'confirm' },
    ];
    for (const record of records) {
      // Twice: the second time the quoted strings come from the cache.
      expect(auditLine(record)).toBe(expected(record));
      expect(auditLine(record)).toBe(expected(record));
      expect(AuditRecordSchema.parse(JSON.parse(auditLine(record)))).toEqual(record);
    }
  });

  it('formats a draft’s epoch milliseconds as the ISO time, and a new millisecond as a new time', () => {
    const { time: _time, ...rest } = base;
    const at = Date.UTC(2026, 4, 5, 6, 7, 8, 9);
    expect(auditLine({ ...rest, at })).toBe(expected({ ...base, time: '2026-05-05T06:07:08.009Z' }));
    expect(auditLine({ ...rest, at: at + 1 })).toBe(expected({ ...base, time: '2026-05-05T06:07:08.010Z' }));
  });

  it("a conversation's next record differing in any one field of the line's middle gets its own, never the last one's", () => {
    const variants: AuditRecord[] = [
      base,
      { ...base, agentId: 'agent-1' },
      base,
      { ...base, appId: 'other-app' },
      { ...base, flow: 'sub' },
      { ...base, serverId: 'chatos::other' },
      { ...base, tool: 'mcp_fx_count' },
      { ...base, permission: 'read' },
      { ...base, decision: 'approved' },
      { ...base, outcome: 'tool-error', durationMs: 7 },
      { ...base, conversationId: 'c-2' },
      base,
    ];
    for (const record of variants) expect(auditLine(record)).toBe(expected(record));
  });
});

