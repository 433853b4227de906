/**
 * An object as JSON.parse (or a literal) makes it: its prototype is
 * Object.prototype or null. A Date, an array or a class instance is not one,
 * and neither is an object that inherits keys from a prototype of its own.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether every own enumerable key of `value` passes `allowed`. */
export function hasOnlyKeys(value: Record<string, unknown>, allowed: (key: string) => boolean): boolean {
  for (const key in value) if (Object.hasOwn(value, key) && !allowed(key)) return false;
  return true;
}
