/**
 * A JSON Schema checker that interprets the schema instead of compiling it.
 *
 * Why not ajv: ajv compiles every schema into a function with `new Function`,
 * and both faces serve the renderer with `script-src 'self'` (no
 * 'unsafe-eval'), so ajv cannot run there. Tool argument schemas use a small,
 * stable part of JSON Schema; this covers it (draft-07 and 2020-12 spellings):
 * type, enum, const, properties, required, additionalProperties,
 * patternProperties, propertyNames, min/maxProperties, dependentRequired,
 * items (schema or tuple), prefixItems, min/maxItems, uniqueItems, contains,
 * min/maxLength, pattern, minimum, maximum, exclusiveMinimum/Maximum (number
 * and draft-4 boolean forms), multipleOf, allOf, anyOf, oneOf, not,
 * if/then/else and local `$ref`s. Other keywords (`format`, remote refs) are
 * not checked here; the tool's server validates its arguments anyway.
 */

export type PathSegment = string | number;

export interface SchemaIssue {
  /** Where in the value, e.g. `['items', 0, 'name']`. */
  path: PathSegment[];
  keyword: string;
  params: Record<string, string | number>;
}

type SchemaObject = Record<string, unknown>;

/** `$ref` chains deeper than this are taken as a cycle and not followed further. */
const MAX_DEPTH = 64;

const isObject = (v: unknown): v is SchemaObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

/** Structural equality, key order ignored (enum, const, uniqueItems). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

function regex(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined; // an invalid pattern in a tool's schema is the server's to report
    }
  }
}

/** Resolves `#`, `#/definitions/x`, `#/$defs/x`… inside `root`; anything else is not followed. */
export function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
  }
  return node;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function checkJsonSchema(schema: unknown, value: unknown, root: unknown = schema): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  walk(schema, value, [], 0, issues);
  return issues;

  function passes(sub: unknown, v: unknown, path: PathSegment[], depth: number): boolean {
    const found: SchemaIssue[] = [];
    walk(sub, v, path, depth, found);
    return found.length === 0;
  }

  function walk(s: unknown, v: unknown, path: PathSegment[], depth: number, out: SchemaIssue[]): void {
    const add = (keyword: string, params: SchemaIssue['params'] = {}, at: PathSegment[] = path): void => {
      out.push({ path: at, keyword, params });
    };
    if (s === false) return add('false');
    if (!isObject(s) || depth > MAX_DEPTH) return;

    if (typeof s.$ref === 'string') walk(resolveRef(root, s.$ref), v, path, depth + 1, out);

    const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type.filter((t): t is string => typeof t === 'string') : [];
    if (types.length > 0 && !types.some((t) => hasType(v, t))) {
      add('type', { type: types.join(',') });
      return; // the other keywords would only repeat that the type is wrong
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => canonical(e) === canonical(v))) add('enum');
    if ('const' in s && canonical(s.const) !== canonical(v)) add('const');

    if (Array.isArray(s.allOf)) s.allOf.forEach((sub) => walk(sub, v, path, depth + 1, out));
    if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => passes(sub, v, path, depth + 1))) add('anyOf');
    if (Array.isArray(s.oneOf)) {
      const matching = s.oneOf.filter((sub) => passes(sub, v, path, depth + 1)).length;
      if (matching !== 1) add('oneOf', { passing: matching });
    }
    if ('not' in s && passes(s.not, v, path, depth + 1)) add('not');
    if ('if' in s) {
      const branch = passes(s.if, v, path, depth + 1) ? s.then : s.else;
      if (branch !== undefined) walk(branch, v, path, depth + 1, out);
    }

    if (typeof v === 'string') checkString(s, v, add);
    if (typeof v === 'number') checkNumber(s, v, add);
    if (Array.isArray(v)) checkArray(s, v, path, depth, out, add);
    if (isObject(v)) checkObject(s, v, path, depth, out, add);
  }

  function checkString(s: SchemaObject, v: string, add: (k: string, p?: SchemaIssue['params']) => void) {
    const length = [...v].length; // code points, as JSON Schema counts
    const min = num(s.minLength);
    const max = num(s.maxLength);
    if (min !== undefined && length < min) add('minLength', { limit: min });
    if (max !== undefined && length > max) add('maxLength', { limit: max });
    if (typeof s.pattern === 'string' && regex(s.pattern)?.test(v) === false) add('pattern', { pattern: s.pattern });
  }

  function checkNumber(s: SchemaObject, v: number, add: (k: string, p?: SchemaIssue['params']) => void) {
    const minimum = num(s.minimum);
    const maximum = num(s.maximum);
    // Draft 4 spelled exclusive bounds as booleans next to minimum/maximum.
    const exMin = s.exclusiveMinimum === true ? minimum : num(s.exclusiveMinimum);
    const exMax = s.exclusiveMaximum === true ? maximum : num(s.exclusiveMaximum);
    if (minimum !== undefined && s.exclusiveMinimum !== true && v < minimum) add('minimum', { limit: minimum });
    if (maximum !== undefined && s.exclusiveMaximum !== true && v > maximum) add('maximum', { limit: maximum });
    if (exMin !== undefined && v <= exMin) add('exclusiveMinimum', { limit: exMin });
    if (exMax !== undefined && v >= exMax) add('exclusiveMaximum', { limit: exMax });
    const step = num(s.multipleOf);
    if (step !== undefined && step > 0) {
      const ratio = v / step;
      if (Math.abs(ratio - Math.round(ratio)) > 1e-9) add('multipleOf', { limit: step });
    }
  }

  function checkArray(s: SchemaObject, v: unknown[], path: PathSegment[], depth: number, out: SchemaIssue[], add: (k: string, p?: SchemaIssue['params']) => void) {
    const min = num(s.minItems);
    const max = num(s.maxItems);
    if (min !== undefined && v.length < min) add('minItems', { limit: min });
    if (max !== undefined && v.length > max) add('maxItems', { limit: max });
    if (s.uniqueItems === true && new Set(v.map(canonical)).size !== v.length) add('uniqueItems');
    // Tuples: 2020-12 `prefixItems` + `items`, draft-07 `items: [...]` + `additionalItems`.
    const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
    const rest = tuple ? (Array.isArray(s.items) ? s.additionalItems : s.items) : s.items;
    v.forEach((item, i) => {
      const sub = tuple && i < tuple.length ? tuple[i] : rest;
      if (sub !== undefined) walk(sub, item, [...path, i], depth + 1, out);
    });
    if ('contains' in s && !v.some((item, i) => passes(s.contains, item, [...path, i], depth + 1))) add('contains');
  }

  function checkObject(s: SchemaObject, v: SchemaObject, path: PathSegment[], depth: number, out: SchemaIssue[], add: (k: string, p?: SchemaIssue['params'], at?: PathSegment[]) => void) {
    const properties = isObject(s.properties) ? s.properties : {};
    const patterns = isObject(s.patternProperties) ? Object.entries(s.patternProperties).map(([p, sub]) => [regex(p), sub] as const) : [];
    const keys = Object.keys(v);
    if (Array.isArray(s.required)) for (const name of s.required) if (typeof name === 'string' && !Object.hasOwn(v, name)) add('required', { property: name }, [...path, name]);
    if (isObject(s.dependentRequired))
      for (const [key, needs] of Object.entries(s.dependentRequired))
        if (Object.hasOwn(v, key) && Array.isArray(needs)) for (const name of needs) if (typeof name === 'string' && !Object.hasOwn(v, name)) add('required', { property: name }, [...path, name]);
    const min = num(s.minProperties);
    const max = num(s.maxProperties);
    if (min !== undefined && keys.length < min) add('minProperties', { limit: min });
    if (max !== undefined && keys.length > max) add('maxProperties', { limit: max });
    for (const key of keys) {
      const at = [...path, key];
      if ('propertyNames' in s && !passes(s.propertyNames, key, at, depth + 1)) add('propertyNames', { property: key }, at);
      let known = false;
      if (Object.hasOwn(properties, key)) {
        known = true;
        walk(properties[key], v[key], at, depth + 1, out);
      }
      for (const [re, sub] of patterns) {
        if (re?.test(key)) {
          known = true;
          walk(sub, v[key], at, depth + 1, out);
        }
      }
      if (!known && 'additionalProperties' in s) {
        if (s.additionalProperties === false) add('additionalProperties', { property: key }, at);
        else walk(s.additionalProperties, v[key], at, depth + 1, out);
      }
    }
  }
}
