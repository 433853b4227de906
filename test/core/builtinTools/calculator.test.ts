import { describe, expect, it } from 'vitest';
import { calculate, CalculatorError } from '../../../src/core/builtinTools/calculator.js';

async function refusal(expression: string): Promise<CalculatorError> {
  try {
    await calculate(expression);
  } catch (error) {
    if (error instanceof CalculatorError) return error;
    throw error;
  }
  throw new Error(`"${expression.slice(0, 40)}" was evaluated`);
}

describe('the built-in calculator', () => {
  it('is exact in decimal', async () => {
    expect(await calculate('0.1 + 0.2')).toBe('0.3');
    expect(await calculate('1.1 * 1.1')).toBe('1.21');
    expect(await calculate('0.3 - 0.1')).toBe('0.2');
    expect(await calculate('2^64')).toBe('18446744073709551616');
    expect(await calculate('1/3')).toBe('0.33333333333333333333333333333333');
  });

  it('converts units', async () => {
    expect(await calculate('5 cm to inch')).toBe('1.968503937007874015748031496063 inch');
    expect(await calculate('100 degF to degC')).toBe('37.777777777777777777777777777778 degC');
    expect(await calculate('60 km/h to m/s')).toBe('16.666666666666666666666666666667 m / s');
    expect(await calculate('1 GB to MB')).toBe('1000 MB');
    expect((await refusal('1 kg + 2 m')).message).toMatch(/Units do not match/);
  });

  it('refuses an expression nested 10,000 deep with a clear error, not a stack overflow', async () => {
    const deep = await refusal(`${'('.repeat(10_000)}1${')'.repeat(10_000)}`);
    expect(deep.code).toBe('EXPRESSION_TOO_DEEP');
    expect(deep.message).toMatch(/nested too deeply/);
    // Operators in a row nest too, with no bracket to count: the parser's own depth is caught.
    expect((await refusal(`${'-'.repeat(3000)}1`)).code).toBe('EXPRESSION_TOO_DEEP');
  });

  it('refuses what would widen the language: definitions, import, createUnit, evaluate, scope, matrices', async () => {
    expect((await refusal('f(x) = x^2')).message).toMatch(/does not define variables or functions/);
    expect((await refusal('a = 1')).code).toBe('EXPRESSION_REFUSED');
    for (const call of ['import({ x: 1 })', 'createUnit("foo")', 'evaluate("1 + 1")', 'parse("1")', 'compile("1")', 'simplify("x")', 'derivative("x^2", "x")', 'unit("5 cm")', 'factorial(5)'])
      expect((await refusal(call)).message, call).toMatch(/is not available in the calculator/);
    expect((await refusal('5!')).message).toMatch(/factorial/);
    expect((await refusal('x + 1')).message).toMatch(/"x" is neither a unit nor a constant/);
    expect((await refusal('[1, 2][1]')).code).toBe('EXPRESSION_REFUSED');
    expect((await refusal('{a: 1}.a')).code).toBe('EXPRESSION_REFUSED');
    expect((await refusal('1; 2')).message).toMatch(/more than one expression/);
    expect((await refusal('')).code).toBe('EXPRESSION_EMPTY');
    expect((await refusal('1 +')).code).toBe('EXPRESSION_INVALID');
    // A refused call leaves the instance as it was: the next one still works.
    expect(await calculate('sqrt(16) + cos(pi)')).toBe('3');
  });
});
