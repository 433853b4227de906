import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../../src/core/mcp/frozen.js';
import { caller, startTestHost } from '../../helpers/gatewayHost.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

/** The gateway's memos key on the identity of definitions and tool lists: what the runtime publishes cannot be changed in place. */
describe('published definitions and tool lists are frozen', () => {
  it('deepFreeze freezes everything reachable', () => {
    const value = deepFreeze({ a: [{ b: 1 }], c: { d: 'x' } });
    expect(Object.isFrozen(value.a[0])).toBe(true);
    expect(() => {
      (value.c as { d: string }).d = 'y';
    }).toThrow(TypeError);
  });

  it("the runtime's definitions and a server's listed tools throw when mutated", async () => {
    const { host } = await startTestHost();
    await host.tools.list(caller());
    const definition = host.mcp.definitions()[0]!;
    expect(() => {
      (definition as { disabled: boolean }).disabled = true;
    }).toThrow(TypeError);
    expect(() => (definition.disabledTools as string[]).push('x')).toThrow(TypeError);
    const tools = internalsOf(host).mcp.runtime.cachedTools(definition.id)!;
    expect(tools.length).toBeGreaterThan(0);
    expect(() => (tools as unknown[]).pop()).toThrow(TypeError);
    expect(() => {
      (tools[0] as { description?: string }).description = 'changed';
    }).toThrow(TypeError);
  });
});
