import { z } from 'zod';
import { formatJsonPath, type Problem } from '../../shared/problems.js';

/**
 * Edit distance counting an adjacent transposition as one edit (optimal
 * string alignment), so the commonest typo, "entyr" for "entry", is one edit
 * away, not two. Small strings only (manifest keys).
 */
export function editDistance(a: string, b: string): number {
  let before = Array.from({ length: b.length + 1 }, () => 0); // row i-2
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j); // row i-1
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      row.push(best);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}

export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = candidate.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, candidate);
    if (!best || distance < best.distance) best = { key: candidate, distance };
  }
  const limit = Math.max(1, Math.floor(key.length / 3));
  return best && best.distance <= limit ? best.key : undefined;
}

/** Peel wrappers (optional, default, refinements) down to the shape that holds keys. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Walks a value alongside its schema and reports keys the schema does not
 * know. These are warnings, not errors: a manifest written for a newer host
 * must still load here.
 */
export function findUnknownKeys(schema: z.ZodType, value: unknown, file: string, path: PropertyKey[] = []): Problem[] {
  const shape = unwrap(schema);
  if (shape instanceof z.ZodObject && isPlainObject(value)) {
    const known = Object.keys(shape.shape);
    const problems: Problem[] = [];
    for (const [key, child] of Object.entries(value)) {
      const childSchema = shape.shape[key] as z.ZodType | undefined;
      if (childSchema) {
        problems.push(...findUnknownKeys(childSchema, child, file, [...path, key]));
        continue;
      }
      if (key === '$schema' || key.startsWith('//')) continue; // editor hints and comments
      const suggestion = closestKey(key, known);
      problems.push({
        severity: 'warning',
        code: 'UNKNOWN_KEY',
        file,
        path: formatJsonPath([...path, key]),
        message: `unknown key "${key}" is ignored${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        hint: suggestion ? `rename "${key}" to "${suggestion}"` : `remove "${key}" or check the manifest reference; known keys here: ${known.join(', ')}`,
      });
    }
    return problems;
  }
  if (shape instanceof z.ZodArray && Array.isArray(value)) {
    return value.flatMap((item, index) => findUnknownKeys(shape.element as z.ZodType, item, file, [...path, index]));
  }
  if (shape instanceof z.ZodUnion) {
    // Follow the object branch for objects; scalars carry no keys.
    const branch = (shape.options as z.ZodType[]).find((option) => unwrap(option) instanceof z.ZodObject);
    if (branch && isPlainObject(value)) {
      const objectBranches = (shape.options as z.ZodType[]).filter((o) => unwrap(o) instanceof z.ZodObject);
      // Several object branches (a prompt side is {path} or {content}): pick the one sharing most keys.
      const best = objectBranches
        .map((o) => ({ o, score: Object.keys((unwrap(o) as z.ZodObject).shape).filter((k) => k in value).length }))
        .sort((a, b) => b.score - a.score)[0]!.o;
      return findUnknownKeys(best, value, file, path);
    }
  }
  return [];
}
