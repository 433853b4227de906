/**
 * The entry a record from the host holds under `key` itself. Keys such as
 * app ids and tool names come from plugins and servers: `record[key]` would
 * answer `constructor` or `toString` with Object.prototype's members.
 */
export function ownValue<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
