import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { projectTools } from '../../../../src/core/chat/providers/projectTools.js';
import type { ToolSpec } from '../../../../src/core/chat/providers/modelRequest.js';
import { API_KINDS } from '../../../../src/shared/models.js';

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};

const toolArb = fc.record({
  name: fc.stringMatching(/^[a-zA-Z0-9_-]{1,64}$/),
  description: fc.string(),
  inputSchema: fc.dictionary(fc.string(), fc.jsonValue()),
});

describe('projectTools (docs/rules/chat.md#tools-sent-to-a-model: pass-through today)', () => {
  it('passes every tool through unchanged, in order, with no problems, for every API kind', () => {
    fc.assert(
      fc.property(fc.constantFrom(...API_KINDS), fc.array(toolArb, { maxLength: 20 }), (apiKind, tools) => {
        const before = structuredClone(tools);
        const projected = projectTools(apiKind, deepFreeze(tools) as ToolSpec[]);
        expect(projected.tools).toEqual(before);
        expect(projected.problems).toEqual([]);
        // Pure: the input is left as it was, and a second run gives the same answer.
        expect(tools).toEqual(before);
        expect(projectTools(apiKind, tools as ToolSpec[])).toEqual(projected);
      }),
    );
  });

  it("returns its own array (a caller may add to it without touching the agent's tools)", () => {
    const tools: ToolSpec[] = [{ name: 'a', description: '', inputSchema: { type: 'object' } }];
    const projected = projectTools('anthropic', tools);
    expect(projected.tools).not.toBe(tools);
    projected.tools.push({ name: 'b', description: '', inputSchema: {} });
    expect(tools).toHaveLength(1);
  });
});
