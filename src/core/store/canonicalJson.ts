import { isPlainObject } from '../plainObject.js';

/**
 * JSON with object keys sorted at every level, so two payloads that differ
 * only in key order are the same text. The store compares this text to decide
 * that a put changes nothing (no write, no new `updated_at`).
 */
export function canonicalJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (isPlainObject(v) ? sortKeys(v) : v));
  if (text === undefined) throw new TypeError('payload cannot be written as JSON (undefined, a function or a symbol)');
  return text;
}

function sortKeys(value: Record<string, unknown>): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    // defineProperty, not assignment: a "__proto__" key must stay a plain key.
    Object.defineProperty(sorted, key, { value: value[key], enumerable: true, writable: true, configurable: true });
  }
  return sorted;
}
