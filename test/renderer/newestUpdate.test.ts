import { describe, expect, it } from 'vitest';
import { NewestUpdate } from '../../renderer/src/components/mcpApps/newestUpdate.js';

/** A view's context updates on their way to the core (docs/rules/mcp-apps.md#what-the-view-may-ask). */

/** A send whose calls the test answers one by one. */
function heldSend() {
  const calls: { value: number; answer(error?: Error): void }[] = [];
  const waiters: (() => void)[] = [];
  const send = (value: number) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ value, answer: (error) => (error ? reject(error) : resolve()) });
      waiters.splice(0).forEach((w) => w());
    });
  const nthCall = async (n: number) => {
    while (calls.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return calls[n - 1]!;
  };
  return { calls, send, nthCall };
}

describe('NewestUpdate', () => {
  it('a burst of a thousand updates costs one call, with the newest; one call at a time, each request answered', async () => {
    const { calls, send, nthCall } = heldSend();
    const updates = new NewestUpdate(send);
    const first = Array.from({ length: 1000 }, (_, i) => updates.push(i));
    const call1 = await nthCall(1);
    expect(call1.value).toBe(999);
    // More while the call is on the way: they wait for it, and go as one call with their newest.
    const second = Array.from({ length: 1000 }, (_, i) => updates.push(1000 + i));
    call1.answer();
    await Promise.all(first);
    const call2 = await nthCall(2);
    expect(call2.value).toBe(1999);
    call2.answer(new Error('refused'));
    expect(await Promise.allSettled(second)).toEqual(second.map(() => ({ status: 'rejected', reason: new Error('refused') })));
    expect(calls).toHaveLength(2);
  });

  it('flush sends what waits at once (a message goes after the context set before it); close refuses the rest', async () => {
    const { calls, send, nthCall } = heldSend();
    const updates = new NewestUpdate(send);
    const a = updates.push(1);
    (await nthCall(1)).answer();
    await a;
    // Within the interval: this one would wait for it; flush does not.
    const b = updates.push(2);
    const flushed = updates.flush();
    const call2 = await nthCall(2);
    expect(call2.value).toBe(2);
    call2.answer();
    await Promise.all([b, flushed]);
    const c = updates.push(3);
    updates.close();
    await expect(c).rejects.toThrow('the view was closed');
    await expect(updates.push(4)).rejects.toThrow('the view was closed');
    expect(calls).toHaveLength(2);
  });
});
