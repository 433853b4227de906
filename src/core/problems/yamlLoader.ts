import * as jsYaml from 'js-yaml';

/**
 * The one way YAML from outside is read (mcp.yaml, a plugin's `ai.config`,
 * expose defaults, provider defaults, agent files): js-yaml, with what its
 * aliases would expand to bounded before anyone walks the result.
 *
 * js-yaml reads an alias as a reference to the anchored node, so reading is
 * linear in the text; the cost comes later, in whatever walks the value as
 * a tree (a schema check, `args.join`, JSON). Ten lines of anchors, each
 * list repeating the one above nine times, make 9^10 leaves: walking them
 * blocks the process for seconds and ends in "Invalid string length". So
 * the expanded size is counted on the shared graph itself (each node once,
 * memoised), and a text whose aliases add more than ALIAS_EXPANSION_LIMIT
 * (nodes and characters), nest deeper than MAX_EXPANDED_DEPTH levels, or
 * refer to a node that holds them (a cycle) is refused at the alias that
 * passes the bound, before the value is returned.
 *
 * A dependency-cruiser rule keeps js-yaml imported here only.
 */

/** What aliases may add to a document: far more than any config repeats (an anchor reused for a few servers' env). */
export const ALIAS_EXPANSION_LIMIT = 1_000_000;

/** js-yaml's own bound on written nesting (its `maxDepth` default), kept once aliases are filled in. */
export const MAX_EXPANDED_DEPTH = 100;

export type YamlBoundCode = 'YAML_ALIAS_EXPANSION' | 'YAML_ALIAS_TOO_DEEP' | 'YAML_ALIAS_CYCLE';

/** A text refused for what its aliases expand to; `line` (1-based) is the alias that passes the bound. */
export class YamlBoundError extends Error {
  constructor(
    readonly code: YamlBoundCode,
    message: string,
    readonly hint: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** An alias as the parser met it: what it refers to, the line it is on, and how many nodes enclose it. */
interface AliasUse {
  target: unknown;
  line: number;
  depth: number;
}

interface Size {
  /** Nodes plus the characters of strings and keys, as a walk of the value as a tree would meet them; Infinity on a cycle. */
  cost: number;
  /** Levels below and including this node; Infinity on a cycle. */
  height: number;
}

const LEAF: Size = { cost: 1, height: 1 };

/** Sizes of a value's nodes as trees, each shared node measured once; iterative, so no chain of aliases can exhaust the stack. */
class TreeMeter {
  private readonly sizes = new Map<object, Size>();

  measure(value: unknown): Size {
    if (typeof value === 'string') return { cost: 1 + value.length, height: 1 };
    if (!isWalked(value)) return LEAF;
    const done = this.sizes.get(value);
    if (done) return done;
    const open = new Set<object>();
    const stack: { node: object; children: unknown[]; next: number; cost: number; height: number }[] = [];
    const enter = (node: object) => {
      open.add(node);
      stack.push({ node, children: childrenOf(node), next: 0, cost: 1 + keyCost(node), height: 1 });
    };
    enter(value);
    while (stack.length) {
      const frame = stack[stack.length - 1]!;
      if (frame.next < frame.children.length) {
        const child = frame.children[frame.next++];
        let size: Size | undefined;
        if (typeof child === 'string') size = { cost: 1 + child.length, height: 1 };
        else if (!isWalked(child)) size = LEAF;
        else if (open.has(child)) size = { cost: Infinity, height: Infinity };
        else size = this.sizes.get(child);
        if (!size) {
          enter(child as object);
          continue;
        }
        frame.cost += size.cost;
        frame.height = Math.max(frame.height, size.height + 1);
        continue;
      }
      stack.pop();
      open.delete(frame.node);
      const size = { cost: frame.cost, height: frame.height };
      this.sizes.set(frame.node, size);
      const parent = stack[stack.length - 1];
      if (parent) {
        parent.cost += size.cost;
        parent.height = Math.max(parent.height, size.height + 1);
      }
    }
    return this.sizes.get(value)!;
  }
}

/** Lists and plain maps are walked; a date or binary value from a tag is one leaf. */
function isWalked(value: unknown): value is object {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function childrenOf(node: object): unknown[] {
  return Array.isArray(node) ? node : Object.values(node);
}

function keyCost(node: object): number {
  if (Array.isArray(node)) return 0;
  let cost = 0;
  for (const key of Object.keys(node)) cost += key.length;
  return cost;
}

/**
 * Parses one YAML document as js-yaml does, refusing what its aliases
 * would expand to past the bounds (a YamlBoundError); js-yaml's own
 * syntax errors are thrown as they are (a YAMLException, with its mark).
 */
export function loadYaml(text: string, file?: string): unknown {
  const uses: AliasUse[] = [];
  const openLines: number[] = [];
  const value = jsYaml.load(text, {
    ...(file ? { filename: file } : {}),
    listener(event, state) {
      if (event === 'open') {
        openLines.push(state.line);
        return;
      }
      const line = openLines.pop() ?? state.line;
      // An alias node has no kind of its own: its result is the node it refers to (an empty node's is null).
      if (!state.kind && state.result !== null && state.result !== undefined) uses.push({ target: state.result, line: line + 1, depth: openLines.length });
    },
  });
  if (uses.length) checkAliases(uses, text.length);
  return value;
}

function checkAliases(uses: readonly AliasUse[], textLength: number): void {
  const meter = new TreeMeter();
  let added = 0;
  for (const use of uses) {
    const size = meter.measure(use.target);
    if (size.cost === Infinity) {
      throw new YamlBoundError(
        'YAML_ALIAS_CYCLE',
        `the alias at line ${use.line} refers to a node that holds it: filled in, it never ends`,
        'write the value out instead of an alias inside the node it names',
        use.line,
      );
    }
    if (use.depth + size.height > MAX_EXPANDED_DEPTH) {
      throw new YamlBoundError(
        'YAML_ALIAS_TOO_DEEP',
        `the alias at line ${use.line} nests the document deeper than ${MAX_EXPANDED_DEPTH} levels once aliases are filled in`,
        'write the values out, or use aliases that do not repeat other aliases',
        use.line,
      );
    }
    added += size.cost;
    if (added > ALIAS_EXPANSION_LIMIT) {
      throw new YamlBoundError(
        'YAML_ALIAS_EXPANSION',
        `its aliases repeat too much: by the alias at line ${use.line} they add over ${ALIAS_EXPANSION_LIMIT.toLocaleString('en')} values and characters to a text of ${textLength.toLocaleString('en')} characters (aliases that repeat aliases multiply)`,
        'write the values out, or use aliases that do not repeat other aliases; no config of servers needs this many',
        use.line,
      );
    }
  }
}
