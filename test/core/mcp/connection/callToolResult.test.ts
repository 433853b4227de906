import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { HostCallToolResultSchema, normalizeMediaData, plainTextResult } from '../../../../src/core/mcp/connection/callToolResult.js';

/** What the SDK's schema makes of a result once data: url prefixes are moved: the reference, sample by sample. */
const reference = (value: unknown) => safeParse(CallToolResultSchema, normalizeMediaData(value));

const PNG = 'iVBORw0KGgo=';
const samples: unknown[] = [
  // The plain shape the hand check takes.
  { content: [{ type: 'text', text: 'Echo: hi' }] },
  {
    content: [
      { type: 'text', text: 'a' },
      { type: 'text', text: '' },
    ],
    isError: true,
  },
  { content: [], isError: false },
  { isError: false, content: [{ text: 'order', type: 'text' }] },
  // Near misses: the schema decides (and copies, strips or rejects).
  { content: [{ type: 'text', text: 'x', annotations: { priority: 0.5 } }] },
  { content: [{ type: 'text', text: 'x', extra: 'stripped' }] },
  { content: [{ type: 'text', text: 'x', annotations: { priority: 2 } }] },
  { content: [{ type: 'text', text: 42 }] },
  { content: [{ type: 'text' }] },
  { content: [null] },
  { content: ['text'] },
  { content: 'not a list' },
  {},
  { isError: 'yes', content: [] },
  { content: [{ type: 'text', text: 'x' }], structuredContent: { answer: 42 } },
  { content: [{ type: 'text', text: 'x' }], structuredContent: [1] },
  { content: [{ type: 'text', text: 'x' }], _meta: { progressToken: 'p' } },
  { content: [{ type: 'text', text: 'x' }], unknownKey: { kept: true } },
  JSON.parse('{"content":[{"type":"text","text":"x"}],"__proto__":{"polluted":true}}'),
  JSON.parse('{"content":[{"type":"text","text":"x","__proto__":{"polluted":true}}]}'),
  { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] },
  { content: [{ type: 'image', data: `data:image/png;base64,${PNG}`, mimeType: 'image/x' }] },
  { content: [{ type: 'image', data: `data:image/png;name=a.png;base64,${PNG}` }] },
  { content: [{ type: 'image', data: `DATA:IMAGE/PNG;BASE64,${PNG}`, mimeType: 'image/png' }] },
  { content: [{ type: 'image', data: 'data:image/svg+xml,%3Csvg%2F%3E', mimeType: 'image/svg+xml' }] },
  {
    content: [
      { type: 'image', data: 'not base64!', mimeType: 'image/png' },
      { type: 'text', text: 'kept' },
    ],
  },
  { content: [{ type: 'image', data: 'data:image/png;base64' }] },
  { content: [{ type: 'audio', data: `data:audio/wav;base64,${PNG}` }], isError: 'no' },
  { content: [{ type: 'image', data: PNG }] },
  { content: [{ type: 'resource_link', uri: 'file:///a', name: 'a' }] },
  { content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'a' } }] },
  { content: [{ type: 'audio', data: PNG, mimeType: 'audio/wav' }] },
  { content: [{ type: 'video', data: PNG }] },
  Object.assign(Object.create(null), { content: [Object.assign(Object.create(null), { type: 'text', text: 'no prototype' })] }),
  // Not as JSON.parse makes them: the schema decides.
  new (class Result {
    content = [{ type: 'text', text: 'instance' }];
  })(),
  Object.assign(Object.create({ _meta: 'inherited' }), { content: [] }),
  { content: [Object.assign(Object.create({ annotations: { priority: 5 } }), { type: 'text', text: 'x' })] },
];

describe('the host’s tool result schema', () => {
  it('accepts, copies, strips and rejects every result exactly as the SDK’s CallToolResultSchema after moving data: urls', () => {
    for (const sample of samples) {
      const ours = safeParse(HostCallToolResultSchema, sample);
      const theirs = reference(sample);
      const label = JSON.stringify(sample);
      expect(ours.success, label).toBe(theirs.success);
      if (theirs.success) expect(ours.data, label).toEqual(theirs.data);
      else expect(ours.error?.issues, label).toEqual(theirs.error?.issues);
    }
    // The samples cover both outcomes, and both ways through.
    expect(samples.filter((s) => !reference(s).success).length).toBeGreaterThan(5);
    expect(samples.filter((s) => plainTextResult(s) !== undefined).length).toBe(5);
  });

  it('takes the plain text shape as it is, without a copy', () => {
    const result = { content: [{ type: 'text', text: 'Echo: hi' }] };
    expect(safeParse(HostCallToolResultSchema, result).data).toBe(result);
  });
});
