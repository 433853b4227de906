import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { auditLine, type AuditDraft } from '../../../src/core/audit/auditLine.js';
import { AUDIT_TEXT_MAX, AuditRecordSchema, type AuditRecord } from '../../../src/shared/audit.js';

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
      { ...base, decision: 'refused', outcome: 'refused', reason: 'NOT_GRANTED', error: 'aide may not use "x"' },
      { ...base, decision: 'refused', outcome: 'refused', reason: 'IDLE_SERVER', count: 15_999, error: 'server "fx" has no tool call in flight' },
      { ...base, tool: null, flow: null, permission: null, outcome: 'released', reason: 'idle' },
      { ...base, conversationId: null, serverId: null, tool: null, flow: null, permission: null, outcome: 'released', pluginId: 'com.example.x', reason: 'not-runnable' },
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

  it("keeps a draft's arguments as JSON text and its result's text, both cut at AUDIT_TEXT_MAX", () => {
    const { time: _time, ...rest } = base;
    const at = Date.UTC(2026, 4, 5, 6, 7, 8, 9);
    const line = auditLine({
      ...rest,
      at,
      callArgs: { q: 'hello "x"', n: 2 },
      callResult: {
        content: [
          { type: 'text', text: 'found 2' },
          { type: 'image', data: 'AAAA' },
        ],
      },
    });
    expect(AuditRecordSchema.parse(JSON.parse(line))).toEqual({ ...base, time: '2026-05-05T06:07:08.009Z', args: '{"q":"hello \\"x\\"","n":2}', result: 'found 2\n[image]' });
    const long = AuditRecordSchema.parse(JSON.parse(auditLine({ ...rest, at, callArgs: { text: 'x'.repeat(5000) }, callResult: { content: [{ type: 'text', text: 'y'.repeat(5000) }] } })));
    expect(long.args).toHaveLength(AUDIT_TEXT_MAX);
    expect(long.args!.endsWith('…')).toBe(true);
    expect(long.result).toHaveLength(AUDIT_TEXT_MAX);
    // A value JSON cannot hold is named, and the line is still written.
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(AuditRecordSchema.parse(JSON.parse(auditLine({ ...rest, at, callArgs: cyclic }))).args).toBe('(arguments that are not JSON)');
    // A stored record's texts go back out as they are.
    const stored = { ...base, args: '{"a":1}', result: 'ok' };
    expect(auditLine(stored)).toBe(expected(stored));
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

/** Any UTF-16 code unit, lone surrogates and control characters included. */
const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 40 });
/** What a defect upstream could leave in a field: Object.prototype's members come from a lookup by an outside name. */
const junk = fc.constantFrom<unknown>(undefined, null, Number.NaN, Infinity, -0, 1e21, true, {}, [], Object.prototype, Object.prototype.constructor, Object.prototype.toString, Symbol('s'), 10n);
const field = (...valid: string[]) => fc.oneof(valid.length ? fc.constantFrom(...valid) : anyText, anyText, junk);

const anyRecord = fc.record({
  at: fc.oneof(fc.integer({ min: -8.64e15, max: 8.64e15 }), junk),
  agentId: field(),
  conversationId: fc.oneof(fc.constantFrom('c-1', 'c-2'), field()),
  appId: field(),
  flow: field('main', 'sub'),
  serverId: field(),
  tool: field(),
  permission: field('read', 'write', 'confirm', 'navigate', 'constructor'),
  decision: field('auto', 'approved', 'declined', 'expired', 'refused'),
  durationMs: fc.oneof(fc.double(), junk),
  outcome: field('ok', 'tool-error', 'failed', 'declined', 'refused', 'released'),
  pluginId: fc.option(field('com.example.x'), { nil: undefined }),
  reason: fc.option(field('NOT_GRANTED', 'idle', 'mcp_release'), { nil: undefined }),
  count: fc.option(fc.oneof(fc.integer({ min: -3, max: 2 ** 53 }), fc.double(), junk), { nil: undefined }),
  error: fc.option(field(), { nil: undefined }),
});

/** What the reader must get back for one written field: the value itself where it fits the schema, else null (or nothing, for an optional field). */
function expectedField(schema: z.ZodType, value: unknown, optional: boolean): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return optional ? undefined : null;
  const fits = schema.safeParse(value);
  if (fits.success && value !== undefined && value !== null) return Object.is(value, -0) ? 0 : value;
  return optional ? undefined : null;
}

describe('auditLine, over arbitrary records', () => {
  it('always writes one line that parses and that AuditRecordSchema accepts, keeping every value that fits its field', () => {
    const shape = AuditRecordSchema.shape;
    fc.assert(
      fc.property(anyRecord, (raw) => {
        const record = raw as unknown as AuditDraft;
        const line = auditLine(record);
        expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true);
        const parsed = AuditRecordSchema.parse(JSON.parse(line));
        for (const key of Object.keys(shape) as (keyof typeof shape)[]) {
          // A draft's time, arguments and result come from its own fields (at, callArgs, callResult): checked above and below.
          if (key === 'time' || key === 'args' || key === 'result') continue;
          const optional = key === 'agentId' || key === 'pluginId' || key === 'reason' || key === 'count' || key === 'error';
          const want = expectedField(shape[key].unwrap(), (raw as Record<string, unknown>)[key], optional);
          expect(parsed[key], key).toEqual(want);
        }
        const at = raw.at;
        expect(parsed.time).toBe(typeof at === 'number' && Math.abs(at) <= 8.64e15 ? new Date(at).toISOString() : null);
      }),
      { numRuns: 3000, seed: 13 },
    );
  });
});
