import { Worker } from 'node:worker_threads';
import { builtModulePath } from '../appPaths.js';
import type { Scheduler } from '../ports.js';
import { CalculatorError } from './calculator.js';
import type { CalculatorReply } from './calculatorWorker.js';

/**
 * Runs the built-in calculator on its own worker thread, one expression at
 * a time, each with a deadline (docs/using/mcp-servers.md#built-in-tools).
 *
 * Why a thread: the calculator runs in the host's process, and some
 * arithmetic takes minutes even within the calculator's bounds (decimal.js
 * computes sinh(10^6) at 64 digits by a series that grows with its
 * argument), which on the host's thread would stop the window and
 * `chatos serve` from answering anything. A thread can be ended; a loop on
 * the host's own thread cannot. What it costs, measured on a 2-core
 * machine: the first calculation about 0.1 s more (starting the thread,
 * beside loading mathjs as before), each further one under 1 ms more (the messages between threads), and no
 * more memory (mathjs's ~135 MB now live in the thread).
 *
 * The thread starts on the first calculation and is kept; one that ran
 * past the deadline is ended and the next calculation starts a new one.
 * Its heap is bounded too, so an expression that fills memory ends the
 * thread (CALCULATOR_FAILED), not the host.
 */

/** A calculation takes milliseconds; past this it is stopped. */
export const CALCULATION_DEADLINE_MS = 5_000;
/** mathjs loaded takes some 40 MB of heap; the rest is room for the numbers. */
const THREAD_HEAP_MB = 256;

const workerPath = () => builtModulePath(new URL('./calculatorWorker.js', import.meta.url), 'core', 'builtinTools', 'calculatorWorker.js');

/** What ended a calculation other than its answer. */
type Settled = CalculatorReply | { kind: 'late' } | { kind: 'ended'; reason: string };

interface Thread {
  worker: Worker;
  /** Settles once mathjs is loaded in it; rejects when it could not start. */
  ready: Promise<void>;
  /** The calculation waiting for its answer, if any. */
  waiting?: (settled: Settled) => void;
}

export class CalculatorThread {
  private thread: Thread | undefined;
  /** Calculations run one after another: each one's deadline counts its own time only. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: { scheduler: Scheduler; deadlineMs?: number }) {}

  /** The answer as calculate() gives it; a CalculatorError for a refusal, a calculation past the deadline, or a thread that failed. */
  calculate(expression: string): Promise<string> {
    const mine = this.turn.then(() => this.evaluate(expression));
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  /** Ends the thread (the host stops); a later calculation would start another. */
  dispose(): void {
    if (this.thread) this.end(this.thread, 'the calculator stopped');
  }

  private async evaluate(expression: string): Promise<string> {
    const thread = this.start();
    // While a calculation is under way the thread keeps the process alive (a CLI waiting for its answer); idle, it does not.
    thread.worker.ref();
    try {
      await thread.ready;
      const deadlineMs = this.deps.deadlineMs ?? CALCULATION_DEADLINE_MS;
      let timer: unknown;
      const settled = await new Promise<Settled>((resolve) => {
        thread.waiting = resolve;
        timer = this.deps.scheduler.setTimeout(() => resolve({ kind: 'late' }), deadlineMs);
        thread.worker.postMessage(expression);
      });
      this.deps.scheduler.clearTimeout(timer);
      thread.waiting = undefined;
      switch (settled.kind) {
        case 'answer':
          return settled.text;
        case 'refused':
          throw new CalculatorError(settled.code, settled.message);
        case 'late':
          this.end(thread, 'past its deadline');
          throw new CalculatorError(
            'CALCULATION_TOO_SLOW',
            `the calculation took longer than ${deadlineMs / 1000} s and was stopped; a calculator answer takes milliseconds, so split it or use smaller numbers`,
          );
        default:
          throw failed(settled.kind === 'ended' ? settled.reason : 'it answered out of turn');
      }
    } finally {
      if (this.thread === thread) thread.worker.unref();
    }
  }

  private start(): Thread {
    if (this.thread) return this.thread;
    const worker = new Worker(workerPath(), { resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    worker.unref();
    let ready!: () => void;
    let notStarted!: (error: Error) => void;
    const thread: Thread = { worker, ready: new Promise<void>((resolve, reject) => ((ready = resolve), (notStarted = reject))) };
    worker.on('message', (reply: CalculatorReply) => {
      if (reply.kind === 'ready') ready();
      else thread.waiting?.(reply);
    });
    // After 'error' (a throw, out of memory) comes 'exit': the first says why.
    worker.on('error', (error) => this.lost(thread, error.message, notStarted));
    worker.on('exit', (code) => this.lost(thread, `its thread ended (exit code ${code})`, notStarted));
    this.thread = thread;
    return thread;
  }

  /** The thread is gone: a later calculation starts a new one; the one waiting is told why. */
  private lost(thread: Thread, reason: string, notStarted: (error: Error) => void): void {
    if (this.thread === thread) this.thread = undefined;
    notStarted(failed(reason));
    thread.waiting?.({ kind: 'ended', reason });
    thread.waiting = undefined;
  }

  private end(thread: Thread, reason: string): void {
    if (this.thread === thread) this.thread = undefined;
    thread.waiting?.({ kind: 'ended', reason });
    thread.waiting = undefined;
    void thread.worker.terminate();
  }
}

const failed = (reason: string) => new CalculatorError('CALCULATOR_FAILED', `the calculator could not answer: ${reason}`);
