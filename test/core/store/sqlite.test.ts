import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../../src/core/store/sqlite.js';

describe('loadSqlJs', () => {
  it('initialises the wasm once per process and hands every caller the same module', async () => {
    const first = loadSqlJs();
    expect(loadSqlJs()).toBe(first);
    const [a, b] = await Promise.all([first, loadSqlJs()]);
    expect(a).toBe(b);
    expect(typeof a.Database).toBe('function');
  });
});
