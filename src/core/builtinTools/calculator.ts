import type { MathNode } from 'mathjs';

/**
 * The built-in calculator's arithmetic (docs/using/mcp-servers.md#built-in-tools).
 *
 * mathjs, not a parser of our own over decimal.js: its parser, its units
 * (length, mass, time, temperature, data, …) and its BigNumber type (which
 * is decimal.js) are well kept and tested; what it must not do is run what a
 * model writes as code. So the expression is parsed once and its tree walked
 * before anything is evaluated: only numbers, operators, parentheses, known
 * constants, unit names and an allowlist of pure functions pass. No
 * assignment (`a = 1`, `f(x) = …`), no block, no object or property access,
 * no scope (the evaluation gets an empty one, so there is no scope chain to
 * reach), and the functions that would widen the language (`import`,
 * `createUnit`, `evaluate`, `parse`, `compile`, `simplify`, `derivative`, …)
 * are replaced in the instance by ones that throw, in case a future mathjs
 * reaches them some other way.
 *
 * Numbers are BigNumbers with 64 significant digits: 0.1 + 0.2 is 0.3.
 *
 * The engine is shared by every call, and decimal.js keeps its settings on
 * the constructor: a function that raises the precision for its own work
 * (cos of 10^100000 asks for 100,071 digits) and then throws leaves it
 * raised, and every later call would compute at it. So each evaluation puts
 * the settings back when it ends, however it ends. What is slow even at 64
 * digits (sinh of 10^6) is stopped by the deadline of the thread the host
 * runs this in (calculatorThread.ts).
 */

export const MAX_EXPRESSION_CHARS = 4096;
/** Brackets nested deeper than this are refused before parsing: the parser recurses per level. */
export const MAX_NESTING = 64;
const SHOWN_DIGITS = 32;

export type CalculatorErrorCode =
  | 'EXPRESSION_EMPTY'
  | 'EXPRESSION_TOO_LONG'
  | 'EXPRESSION_TOO_DEEP'
  | 'EXPRESSION_INVALID'
  | 'EXPRESSION_REFUSED'
  /** It ran past the calculator's deadline and was stopped (calculatorThread.ts). */
  | 'CALCULATION_TOO_SLOW'
  /** The calculator's thread could not start or ended (out of memory). */
  | 'CALCULATOR_FAILED';

export class CalculatorError extends Error {
  constructor(
    readonly code: CalculatorErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Pure functions a calculator needs; each is cheap whatever its arguments (no factorial: 1e9! would loop a billion times). */
const FUNCTIONS = new Set([
  'abs',
  'sqrt',
  'cbrt',
  'nthRoot',
  'exp',
  'log',
  'log10',
  'log2',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
  'sinh',
  'cosh',
  'tanh',
  'round',
  'floor',
  'ceil',
  'fix',
  'mod',
  'gcd',
  'lcm',
  'pow',
  'min',
  'max',
  'hypot',
  'sign',
]);
const CONSTANTS = new Set(['pi', 'e', 'tau', 'phi', 'Infinity']);
const REFUSED_OPERATORS = new Set(['factorial']);

/** What replaces the language-widening functions in the instance. */
const DISABLED = ['import', 'createUnit', 'evaluate', 'parse', 'compile', 'simplify', 'simplifyCore', 'derivative', 'resolve', 'rationalize', 'reviver', 'replacer'];

interface MathEngine {
  parse(expression: string): MathNode;
  format(value: unknown, options: { precision: number; lowerExp: number; upperExp: number }): string;
  isUnitName(name: string): boolean;
  /** Puts the decimal settings (precision, rounding, exponent range) back as the engine was made. */
  reset(): void;
}

/** decimal.js's settings, all kept on its constructor (`Decimal.set` takes them back). */
const DECIMAL_SETTINGS = ['precision', 'rounding', 'toExpNeg', 'toExpPos', 'minE', 'maxE', 'modulo', 'crypto'] as const;
type DecimalConstructor = Record<(typeof DECIMAL_SETTINGS)[number], unknown> & { set(settings: object): unknown };

let engine: Promise<MathEngine> | undefined;

/** mathjs is large: loaded on the first calculation, not with the host. */
function loadEngine(): Promise<MathEngine> {
  engine ??= import('mathjs').then(({ create, all }) => {
    const math = create(all!, { number: 'BigNumber', precision: 64 });
    const parse = math.parse.bind(math);
    const format = math.format.bind(math);
    const Unit = math.Unit;
    const Decimal = (math as unknown as { BigNumber: DecimalConstructor }).BigNumber;
    const made = Object.fromEntries(DECIMAL_SETTINGS.map((name) => [name, Decimal[name]]));
    const refuse = (name: string) => () => {
      throw new CalculatorError('EXPRESSION_REFUSED', `${name} is not available in the calculator`);
    };
    math.import(Object.fromEntries(DISABLED.map((name) => [name, refuse(name)])), { override: true });
    return {
      parse: (expression) => parse(expression),
      format: (value, options) => format(value, options),
      isUnitName: (name) => Unit.isValuelessUnit(name),
      reset: () => void Decimal.set(made),
    };
  });
  return engine;
}

/** The deepest bracket nesting of `expression`, counted without recursion. */
function nestingOf(expression: string): number {
  let depth = 0;
  let deepest = 0;
  for (const char of expression) {
    if (char === '(' || char === '[' || char === '{') deepest = Math.max(deepest, ++depth);
    else if (char === ')' || char === ']' || char === '}') depth--;
  }
  return deepest;
}

const isStackOverflow = (error: unknown) => error instanceof RangeError && /call stack/i.test(error.message);
const tooDeep = () => new CalculatorError('EXPRESSION_TOO_DEEP', `the expression is nested too deeply (at most ${MAX_NESTING} levels of brackets or operators in a row); split it into steps`);

/** Throws on the first part of the tree that is not plain arithmetic; iterative, so a deep tree cannot overflow the stack here. */
function checkTree(root: MathNode, isUnitName: (name: string) => boolean): void {
  const pending: MathNode[] = [root];
  while (pending.length) {
    const node = pending.pop()! as MathNode & Record<string, unknown>;
    switch (node.type) {
      case 'ConstantNode':
        break;
      case 'ParenthesisNode':
        pending.push(node.content as MathNode);
        break;
      case 'OperatorNode':
        if (REFUSED_OPERATORS.has(node.fn as string)) throw new CalculatorError('EXPRESSION_REFUSED', `the operator "${node.op as string}" (${node.fn as string}) is not available in the calculator`);
        pending.push(...(node.args as MathNode[]));
        break;
      case 'ConditionalNode':
        pending.push(node.condition as MathNode, node.trueExpr as MathNode, node.falseExpr as MathNode);
        break;
      case 'SymbolNode': {
        const name = node.name as string;
        if (!CONSTANTS.has(name) && !isUnitName(name))
          throw new CalculatorError('EXPRESSION_INVALID', `"${name}" is neither a unit nor a constant the calculator knows (constants: ${[...CONSTANTS].join(', ')})`);
        break;
      }
      case 'FunctionNode': {
        const fn = node.fn as MathNode & { name?: string };
        const name = fn.type === 'SymbolNode' ? fn.name! : undefined;
        if (name === undefined || !FUNCTIONS.has(name)) {
          throw new CalculatorError('EXPRESSION_REFUSED', `the function ${name ?? '(computed)'} is not available in the calculator; it offers ${[...FUNCTIONS].join(', ')}`);
        }
        pending.push(...(node.args as MathNode[]));
        break;
      }
      case 'AssignmentNode':
      case 'FunctionAssignmentNode':
        throw new CalculatorError('EXPRESSION_REFUSED', 'the calculator evaluates one expression: it does not define variables or functions');
      default:
        throw new CalculatorError('EXPRESSION_REFUSED', `${describeNode(node.type)} is not available in the calculator: write numbers, units, operators and functions`);
    }
  }
}

function describeNode(type: string): string {
  switch (type) {
    case 'BlockNode':
      return 'more than one expression (";" or a new line)';
    case 'AccessorNode':
    case 'IndexNode':
      return 'property or index access';
    case 'ObjectNode':
      return 'an object';
    case 'ArrayNode':
    case 'RangeNode':
      return 'a matrix or range';
    default:
      return `a ${type}`;
  }
}

/**
 * Evaluates one arithmetic expression, with units (`5 cm to inch`,
 * `100 degF to degC`, `3 km / 20 min to km/h`); the result as text, at
 * most 32 significant digits. Bad input throws a CalculatorError that says
 * what was wrong.
 */
export async function calculate(expression: string): Promise<string> {
  const text = expression.trim();
  if (text === '') throw new CalculatorError('EXPRESSION_EMPTY', 'the expression is empty; write e.g. "0.1 + 0.2" or "5 cm to inch"');
  // Depth first: a deeply nested expression is refused for what it is, however long.
  if (nestingOf(text) > MAX_NESTING) throw tooDeep();
  if (text.length > MAX_EXPRESSION_CHARS) throw new CalculatorError('EXPRESSION_TOO_LONG', `the expression is ${text.length} characters long; at most ${MAX_EXPRESSION_CHARS}`);
  const math = await loadEngine();
  let tree: MathNode;
  try {
    tree = math.parse(text);
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeep();
    throw new CalculatorError('EXPRESSION_INVALID', `the expression does not parse: ${(error as Error).message}`);
  }
  checkTree(tree, math.isUnitName);
  try {
    return math.format(tree.compile().evaluate({}), { precision: SHOWN_DIGITS, lowerExp: -12, upperExp: SHOWN_DIGITS + 1 });
  } catch (error) {
    if (error instanceof CalculatorError) throw error;
    if (isStackOverflow(error)) throw tooDeep();
    throw new CalculatorError('EXPRESSION_INVALID', `the expression cannot be evaluated: ${(error as Error).message}`);
  } finally {
    // A function that raised the precision and threw left it raised: the next call must not inherit it.
    math.reset();
  }
}
