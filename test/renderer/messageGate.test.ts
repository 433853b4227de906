import { describe, expect, it } from 'vitest';
import { MessageGate } from '../../renderer/src/components/mcpApps/messageGate.js';

/** What a view may ask of the host, throttled in the page (docs/rules/mcp-apps.md#what-the-view-may-ask). */

const SLOW_DOWN = 'too many requests from this view: slow down';

/** A gate on a clock the test moves. */
function gateAt(start = 10_000) {
  let now = start;
  const gate = new MessageGate(() => now);
  return { gate, advance: (ms: number) => (now += ms) };
}

describe('MessageGate', () => {
  it('takes 4 at once; the fifth is refused until one of them is answered', () => {
    const { gate } = gateAt();
    expect([1, 2, 3, 4].map((id) => gate.admit(id))).toEqual([undefined, undefined, undefined, undefined]);
    expect(gate.admit(5)).toBe(SLOW_DOWN);
    gate.answered(2);
    expect(gate.admit(5)).toBeUndefined();
    expect(gate.admit(6)).toBe(SLOW_DOWN);
  });

  it('takes 20 a second, answered or not; the 21st waits until the first of them is a second old', () => {
    const { gate, advance } = gateAt();
    for (let id = 1; id <= 20; id++) {
      expect(gate.admit(id)).toBeUndefined();
      gate.answered(id);
      advance(10);
    }
    // 200 ms after the first: the window still holds twenty.
    expect(gate.admit(21)).toBe(SLOW_DOWN);
    advance(799);
    expect(gate.admit(21)).toBe(SLOW_DOWN);
    advance(1);
    expect(gate.admit(21)).toBeUndefined();
  });

  it('a flood of ten thousand in one instant: 4 taken, every other one refused at once', () => {
    const { gate } = gateAt();
    const refusals = Array.from({ length: 10_000 }, (_, i) => gate.admit(i));
    expect(refusals.filter((r) => r === undefined)).toHaveLength(4);
    expect(refusals.filter((r) => r === SLOW_DOWN)).toHaveLength(9_996);
  });

  it('an id still being answered is not taken again; 1 and "1" are two ids', () => {
    const { gate } = gateAt();
    expect(gate.admit(1)).toBeUndefined();
    expect(gate.admit(1)).toBe('a request with this id is still being answered');
    expect(gate.admit('1')).toBeUndefined();
    gate.answered(1);
    expect(gate.admit(1)).toBeUndefined();
  });

  it('an update not counted against the limits still may not reuse an unanswered id, and frees no other', () => {
    const { gate } = gateAt();
    expect([1, 2, 3, 4].map((id) => gate.admit(id))).toEqual([undefined, undefined, undefined, undefined]);
    // Not counted: taken while 4 are unanswered.
    expect(gate.admit('update-1', false)).toBeUndefined();
    // Its answer frees only its own id: the four still count.
    gate.answered('update-1');
    expect(gate.admit(5)).toBe(SLOW_DOWN);
    // Sent with the id of a request still being answered, it is refused, so its answer cannot free that request's place.
    expect(gate.admit(2, false)).toBe('a request with this id is still being answered');
  });

  it('runs at most 4 handlers at once, counted until each ends, whatever frees their ids', async () => {
    const { gate } = gateAt();
    const ends: (() => void)[] = [];
    const runs = [1, 2, 3, 4].map((id) => {
      gate.admit(id);
      return gate.run(() => new Promise<string>((resolve) => ends.push(() => resolve(`done ${id}`))));
    });
    // The view cancels all four: their ids are free, and the wire takes four more...
    for (const id of [1, 2, 3, 4]) gate.answered(id);
    expect([5, 6, 7, 8].map((id) => gate.admit(id))).toEqual([undefined, undefined, undefined, undefined]);
    // ...but their work is refused while the first four still run.
    await expect(gate.run(async () => 'fifth')).rejects.toThrow(SLOW_DOWN);
    ends[0]!();
    expect(await runs[0]).toBe('done 1');
    expect(await gate.run(async () => 'fifth')).toBe('fifth');
    for (const end of ends.slice(1)) end();
    await Promise.all(runs);
  });

  it('a closed gate refuses everything', async () => {
    const { gate, advance } = gateAt();
    gate.close();
    expect(gate.admit(1)).toBe('the view was closed');
    advance(60_000);
    expect(gate.admit(2)).toBe('the view was closed');
    await expect(gate.run(async () => 'late')).rejects.toThrow('the view was closed');
  });
});
