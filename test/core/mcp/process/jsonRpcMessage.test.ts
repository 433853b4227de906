import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { asJsonRpcMessage } from '../../../../src/core/mcp/process/jsonRpcMessage.js';

/** What the SDK's union makes of it: the reference the fast check must match, message by message. */
const viaUnion = (json: unknown) => {
  const parsed = JSONRPCMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
};

const samples: unknown[] = [
  { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } },
  { jsonrpc: '2.0', id: 'a', result: {}, extra: 'stripped' },
  { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' }, _meta: { workdir: '/w' } } },
  { jsonrpc: '2.0', id: 4, method: 'roots/list' },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
  { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
  // Results the hand check takes, and the near misses it must leave to the schemas.
  { jsonrpc: '2.0', id: 19, result: new Date(0) },
  Object.assign(Object.create(null), { jsonrpc: '2.0', id: 21, result: Object.assign(Object.create(null), { a: 1 }) }),
  new (class Reply {
    jsonrpc = '2.0';
    id = 22;
    result = {};
  })(),
  { jsonrpc: '2.0', id: 20, result: Object.create({ _meta: 'inherited' }) },
  { jsonrpc: '2.0', id: 0, result: { content: [], isError: false, anything: { nested: [1, 2] } } },
  { jsonrpc: '2.0', id: -0, result: {} },
  { jsonrpc: '2.0', id: '', result: {} },
  { result: { z: 1 }, id: 10, jsonrpc: '2.0' },
  { jsonrpc: '2.0', id: 11, result: { _meta: { progressToken: 1 }, content: [] } },
  { jsonrpc: '2.0', id: 12, result: { _meta: 'not an object' } },
  JSON.parse('{"jsonrpc":"2.0","id":13,"result":{"__proto__":{"polluted":true},"kept":1}}'),
  { jsonrpc: '2.0', id: 1.5, result: {} },
  { jsonrpc: '2.0', id: 2 ** 53, result: {} },
  { jsonrpc: '2.0', id: Number.MAX_SAFE_INTEGER, result: {} },
  { jsonrpc: '2.0', id: null, result: {} },
  { jsonrpc: '2.0', id: 14, result: [] },
  { jsonrpc: '2.0', id: 15, result: null },
  { jsonrpc: '2.0', id: 16, result: 'text' },
  { jsonrpc: '2.0', id: 17, result: {}, error: { code: 1, message: 'both' } },
  { jsonrpc: 2, id: 18, result: {} },
  // Malformed: each must be rejected (or read) exactly as the union does.
  { jsonrpc: '2.0', id: 5, method: 'odd', result: {} },
  { jsonrpc: '1.0', id: 6, result: {} },
  { id: 7, result: {} },
  { jsonrpc: '2.0', result: {} },
  { jsonrpc: '2.0', id: 8, error: { message: 'no code' } },
  { jsonrpc: '2.0', id: 9 },
  { jsonrpc: '2.0', method: 42 },
  [],
  'text',
  42,
  null,
];

describe('asJsonRpcMessage', () => {
  it('accepts, rejects and strips every message exactly as the SDK’s JSONRPCMessageSchema union', () => {
    for (const sample of samples) expect(asJsonRpcMessage(sample), JSON.stringify(sample)).toEqual(viaUnion(sample));
    // The samples cover both outcomes.
    expect(samples.filter((s) => viaUnion(s) === undefined).length).toBeGreaterThan(5);
    expect(samples.filter((s) => viaUnion(s) !== undefined).length).toBeGreaterThan(5);
    // The hand check took the plain results as they are (the schemas return copies), and only those.
    expect(samples.filter((s) => asJsonRpcMessage(s) === s).length).toBe(7);
  });
});
