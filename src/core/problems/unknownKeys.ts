import { z } from 'zod';
import type { Problem } from '../../shared/problems.js';
import { formatJsonPath } from '../../shared/problemText.js';

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

/** What the walk needs to know of a schema, worked out once per schema: scans walk the same schema thousands of times. */
type Shape =
  { kind: 'object'; fields: Map<string, z.ZodType>; keys: string[] } | { kind: 'array'; element: z.ZodType } | { kind: 'union'; objects: { schema: z.ZodType; keys: string[] }[] } | { kind: 'leaf' };

const shapes = new WeakMap<z.ZodType, Shape>();

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

function shapeOf(schema: z.ZodType): Shape {
  let shape = shapes.get(schema);
  if (shape) return shape;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    const fields = new Map(Object.entries(inner.shape as Record<string, z.ZodType>));
    shape = { kind: 'object', fields, keys: [...fields.keys()] };
  } else if (inner instanceof z.ZodArray) {
    shape = { kind: 'array', element: inner.element as z.ZodType };
  } else if (inner instanceof z.ZodUnion) {
    const objects = (inner.options as z.ZodType[]).flatMap((option) => {
      const branch = shapeOf(option);
      return branch.kind === 'object' ? [{ schema: option, keys: branch.keys }] : [];
    });
    shape = { kind: 'union', objects };
  } else {
    shape = { kind: 'leaf' };
  }
  shapes.set(schema, shape);
  return shape;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface UnknownKeyOptions {
  /** Where in the file the value sits (a server's entry in mcp.yaml). */
  at?: PropertyKey[];
  /** Where a reader looks the keys up, named in the hint ("the manifest reference"). */
  reference?: string;
}

/**
 * Walks a value alongside its schema and reports keys the schema does not
 * know. These are warnings, not errors: a manifest written for a newer host
 * must still load here.
 */
export function findUnknownKeys(schema: z.ZodType, value: unknown, file: string, options: UnknownKeyOptions = {}): Problem[] {
  return walk(schema, value, file, options.at ?? [], options.reference);
}

function walk(schema: z.ZodType, value: unknown, file: string, path: PropertyKey[], reference: string | undefined): Problem[] {
  const shape = shapeOf(schema);
  if (shape.kind === 'object' && isPlainObject(value)) {
    const problems: Problem[] = [];
    for (const key of Object.keys(value)) {
      const childSchema = shape.fields.get(key);
      if (childSchema) {
        problems.push(...walk(childSchema, value[key], file, [...path, key], reference));
        continue;
      }
      if (key === '$schema' || key.startsWith('//')) continue; // editor hints and comments
      const suggestion = closestKey(key, shape.keys);
      problems.push({
        severity: 'warning',
        code: 'UNKNOWN_KEY',
        file,
        path: formatJsonPath([...path, key]),
        message: `unknown key "${key}" is ignored${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        hint: suggestion ? `rename "${key}" to "${suggestion}"` : `remove "${key}"${reference ? ` or check ${reference}` : ''}; known keys here: ${shape.keys.join(', ')}`,
      });
    }
    return problems;
  }
  if (shape.kind === 'array' && Array.isArray(value)) {
    return value.flatMap((item, index) => walk(shape.element, item, file, [...path, index], reference));
  }
  if (shape.kind === 'union' && shape.objects.length && isPlainObject(value)) {
    // Several object branches (a prompt side is {path} or {content}): follow the one sharing most keys.
    let best = shape.objects[0]!;
    let bestScore = -1;
    for (const branch of shape.objects) {
      const score = branch.keys.filter((k) => k in value).length;
      if (score > bestScore) [best, bestScore] = [branch, score];
    }
    return walk(best.schema, value, file, path, reference);
  }
  return [];
}
