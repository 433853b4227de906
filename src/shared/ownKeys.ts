import { z } from 'zod';

/**
 * Records keyed by names that come from outside (tool names, env keys,
 * patterns, app ids). Such a name is data: `record[name]` on an object with
 * a prototype answers `constructor`, `toString` or `__proto__` with
 * Object.prototype's members as if they were entries, and assigning
 * `record['__proto__']` replaces the prototype instead of adding a key.
 */

/** The entry a record holds under `key` itself, never one it inherits. */
export function ownValue<V>(record: Readonly<Record<string, V>> | undefined, key: string): V | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The value at a JSON path (keys and array indexes) of a parsed document, through own entries only. */
export function valueAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** A record with no prototype: every key, `__proto__` too, is a plain entry. */
export function emptyRecord<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** A copy of `record` with no prototype, so assigning any key to it adds an entry. */
export function copyRecord<V>(record: Readonly<Record<string, V>>): Record<string, V> {
  return Object.assign(emptyRecord<V>(), record);
}

const isObjectRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `z.record(z.string(), value)` for records whose keys come from outside,
 * where losing a key fails open (a `"__proto__": confirm` permission): zod's
 * record drops a `__proto__` key, this keeps every own key, in a record with
 * no prototype. Issues carry the key in their path, like z.record's.
 */
export function ownRecord<V extends z.ZodType>(value: V) {
  return z.unknown().transform((input, ctx): Record<string, z.output<V>> => {
    if (!isObjectRecord(input)) {
      ctx.issues.push({ code: 'invalid_type', expected: 'record', input, message: 'Invalid input: expected record', path: [] });
      return z.NEVER;
    }
    const output = emptyRecord<z.output<V>>();
    for (const key of Object.keys(input)) {
      const parsed = value.safeParse(input[key]);
      if (parsed.success) output[key] = parsed.data;
      else for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, path: [key, ...issue.path] } as (typeof ctx.issues)[number]);
    }
    return output;
  });
}
