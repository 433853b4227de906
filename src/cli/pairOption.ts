import { UsageError } from './output.js';

/** `K=V` → [K, V]; the value may hold "=". */
export function pair(text: string, option: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${option} takes NAME=VALUE, not "${text}"`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** A repeatable option's values, in order. */
export const collect = (value: string, all: string[]) => [...all, value];
