import { describe, expect, it } from 'vitest';
import { newestReads } from '../../../plugins/canvas/app/client.mjs';

/**
 * The Canvas page re-reads an instance from several places at once (a live
 * refresh, the submit's own re-read). A read begun before the agent's patch
 * and answered after the read that showed it must not paint the older
 * revision back: nothing would kick again to repair it (the side panel once
 * kept the form without the agent's step).
 */
describe('newestReads', () => {
  it('drops an answer that arrives after the answer of a read begun later', () => {
    const reads = newestReads();
    const before = reads.begin(); // the submit's re-read, slow
    const after = reads.begin(); // the live refresh after the agent's patch
    expect(reads.isNewest(after)).toBe(true);
    expect(reads.isNewest(before)).toBe(false);
  });

  it('uses answers that arrive in the order their reads began, and a read again after that', () => {
    const reads = newestReads();
    const first = reads.begin();
    const second = reads.begin();
    expect(reads.isNewest(first)).toBe(true);
    expect(reads.isNewest(second)).toBe(true);
    expect(reads.isNewest(reads.begin())).toBe(true);
  });
});
