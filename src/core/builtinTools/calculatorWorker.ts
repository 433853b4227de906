import { parentPort } from 'node:worker_threads';
import { calculate, CalculatorError, type CalculatorErrorCode } from './calculator.js';

/**
 * The built-in calculator's own thread (calculatorThread.ts starts it by
 * path): the host's thread hands it one expression at a time and gets back
 * the answer or the refusal. Here a calculation that never ends blocks only
 * this thread, which the host ends at its deadline.
 */

/** What this thread says: ready once mathjs is loaded (loading it is no calculation's time), then one reply per expression. */
export type CalculatorReply = { kind: 'ready' } | { kind: 'answer'; text: string } | { kind: 'refused'; code: CalculatorErrorCode; message: string };

const port = parentPort!;
const say = (reply: CalculatorReply) => port.postMessage(reply);

// The first calculation loads the engine; its answer is not wanted.
await calculate('0');
say({ kind: 'ready' });

port.on('message', (expression: unknown) => {
  calculate(String(expression)).then(
    (text) => say({ kind: 'answer', text }),
    (error: unknown) =>
      say(error instanceof CalculatorError ? { kind: 'refused', code: error.code, message: error.message } : { kind: 'refused', code: 'CALCULATOR_FAILED', message: (error as Error).message }),
  );
});
