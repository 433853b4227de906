import { describe, expect, it } from 'vitest';
import { withUrlsShortened } from '../../../src/core/chat/toolCalls.js';

describe("a failed call's text, as the model reads it", () => {
  it('cuts every url to its origin, so a key in the path or query never reaches the model; the rest of the message stays', () => {
    const message =
      'server "chatos::hosted" at https://mcp.example.com/s/sk-live-4f9a/mcp?api_key=SECRET9 did not connect over streamable HTTP: ECONNREFUSED; check http://127.0.0.1:8931/mcp. Or (https://x.example/a?b=c)';
    const shown = withUrlsShortened(message);
    expect(shown).toBe('server "chatos::hosted" at https://mcp.example.com/… did not connect over streamable HTTP: ECONNREFUSED; check http://127.0.0.1:8931/…. Or (https://x.example/…)');
    expect(shown).not.toMatch(/sk-live|SECRET9/);
    expect(withUrlsShortened('server "chatos::memory" crashed (exit code 1): boom')).toBe('server "chatos::memory" crashed (exit code 1): boom');
    // A hostile server's stderr: a url ending in a long run of dots, then a letter, is read in one pass.
    const dots = `http://a.example/${'.'.repeat(200_000)}x and ${'.'.repeat(3)}`;
    expect(withUrlsShortened(dots)).toBe(`http://a.example/… and ...`);
  });
});
