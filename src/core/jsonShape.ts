/**
 * What is wrong with the shape of data from outside before it is written out
 * as JSON (JSON.stringify recurses once per level, so a deep value overflows
 * the stack; shared objects are written once per path, so 63 levels of
 * `{a: o, b: o}` are 2^63 values once written): undefined when it is within
 * `maxDepth` levels and `maxValues` values (objects, arrays and leaves,
 * counted as JSON would write them). Walked without recursion, in at most
 * `maxValues` steps.
 */
export function jsonShapeProblem(value: unknown, limits: { maxDepth: number; maxValues: number }): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let values = 0;
  while (stack.length) {
    const { value: node, depth } = stack.pop()!;
    if (++values > limits.maxValues) return `holds more than ${limits.maxValues} values`;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= limits.maxDepth) return `nests deeper than ${limits.maxDepth} levels`;
    for (const child of Object.values(node)) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}

/** The shape a tool result's structured content may have to be written out (for the model, or kept for its view). */
export const STRUCTURED_CONTENT_SHAPE = { maxDepth: 64, maxValues: 100_000 } as const;
