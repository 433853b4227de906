import { UsageError } from './output.js';

/** `K=V` → [K, V]; the value may hold "=". */
export function pair(text: string, option: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${option} takes NAME=VALUE, not "${text}"`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** A repeatable option's values, in order. */
export const collect = (value: string, all: string[]) => [...all, value];

/** Repeated `K=V` options as a record (own keys only, each name once): a name given twice is bad usage. */
export function pairsOf(texts: readonly string[], option: string): Record<string, string> {
  const pairs = new Map<string, string>();
  for (const text of texts) {
    const [key, value] = pair(text, option);
    if (pairs.has(key)) throw new UsageError(`${option} ${key} is given twice`);
    pairs.set(key, value);
  }
  return Object.fromEntries(pairs);
}
