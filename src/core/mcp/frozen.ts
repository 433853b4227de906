import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * A value no one changes once it is published: the gateway's memos (catalog,
 * offered tools, owners by name, `_meta`, resolutions) key on the identity of
 * server definitions and tool lists, so a change must be a new object. The
 * type says so to the checker; `deepFreeze` makes a slip throw in strict mode.
 */
export type Frozen<T> = T extends (infer U)[] ? readonly Frozen<U>[] : T extends (...args: never[]) => unknown ? T : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

/** Freezes `value` and everything reachable from it (plain data: definitions, tool lists). */
export function deepFreeze<T>(value: T): Frozen<T> {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value as Frozen<T>;
}

/** A server's tool list as the runtime keeps it: replaced when the server lists again, never mutated. */
export type ToolList = readonly Tool[];

/** The list and each tool in it frozen (the tools stay the SDK's `Tool` type for the catalog and the faces). */
export const frozenTools = (tools: readonly Tool[]): ToolList => (Object.isFrozen(tools) ? tools : Object.freeze(tools.map((tool) => deepFreeze(tool) as Tool)));
