import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/core/store/canonicalJson.js';

describe('canonicalJson', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('gives equal text for payloads that differ only in key order', () => {
    expect(canonicalJson({ x: 1, y: [1, 2] })).toBe(canonicalJson({ y: [1, 2], x: 1 }));
  });

  it('drops undefined properties like JSON does, and keeps a "__proto__" key as data', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('throws on a value with no JSON form', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});
