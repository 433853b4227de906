import { describe, expect, it } from 'vitest';
import { CallAbort } from '../../../../src/core/mcp/connection/callAbort.js';

/** What the SDK and the task polling rely on, as an AbortSignal behaves (real requests: timeouts.test.ts). */
describe('CallAbort: a request signal as AbortSignal behaves', () => {
  it('runs each listener once at the abort, keeps the first reason, and throws it from throwIfAborted', () => {
    const abort = new CallAbort();
    const heard: string[] = [];
    abort.signal.addEventListener('abort', () => heard.push(`one: ${String(abort.signal.reason)}`));
    abort.signal.addEventListener('abort', () => heard.push('two'));
    expect(() => abort.signal.throwIfAborted()).not.toThrow();
    expect(abort.signal.aborted).toBe(false);

    abort.abort('timeout');
    abort.abort('later');
    expect(heard).toEqual(['one: timeout', 'two']);
    expect(abort.signal.aborted).toBe(true);
    expect(() => abort.signal.throwIfAborted()).toThrow('timeout');
  });

  it('gives an AbortError without a reason, as AbortController does', () => {
    const abort = new CallAbort();
    abort.abort();
    const real = new AbortController();
    real.abort();
    expect((abort.signal.reason as DOMException).name).toBe((real.signal.reason as DOMException).name);
  });

  it('forgets a removed listener, and one added after the abort never runs', () => {
    const abort = new CallAbort();
    let runs = 0;
    const listener = () => runs++;
    abort.signal.addEventListener('abort', listener);
    abort.signal.removeEventListener('abort', listener);
    abort.abort('stop');
    abort.signal.addEventListener('abort', listener);
    expect(runs).toBe(0);
  });

  it('still runs the other listeners when one throws, and reports the error', async () => {
    const abort = new CallAbort();
    const reported = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
    let second = false;
    abort.signal.addEventListener('abort', () => {
      throw new Error('listener failed');
    });
    abort.signal.addEventListener('abort', () => (second = true));
    abort.abort('stop');
    expect(second).toBe(true);
    expect(((await reported) as Error).message).toBe('listener failed');
  });
});
