import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../../src/core/mcp/config/mcpConfigLoader.js';

const load = (text: string) => parseMcpConfig(text, '/home/me/.chatos/chatos/mcp.yaml', {});

describe("mcp.yaml's builtins: block", () => {
  it('reads the switches; absent, every built-in tool is off', () => {
    const on = load('version: 1\nbuiltins:\n  time: { enabled: true }\n  fetch: { enabled: true, allowPrivateAddresses: true }\n');
    expect(on.kind === 'loaded' && on.builtins).toEqual({ time: { enabled: true }, fetch: { enabled: true, allowPrivateAddresses: true } });
    const absent = load('version: 1\nservers: {}\n');
    expect(absent.kind === 'loaded' && absent.builtins).toEqual({});
  });

  it('rejects only itself when wrong, naming the field and the fix; the servers still load', () => {
    const bad = load(
      'version: 1\nservers:\n  mine: { command: node }\nbuiltins:\n  time: { enabled: "yes" }\n  weather: { enabled: true }\n  calculator: { enabled: true, allowPrivateAddresses: true }\n',
    );
    expect(bad.kind).toBe('loaded');
    if (bad.kind !== 'loaded') return;
    expect(bad.builtins).toEqual({});
    expect(bad.servers.has('mine')).toBe(true);
    const problems = bad.problems.filter((p) => p.code === 'MCP_BUILTINS_INVALID');
    expect(problems.map((p) => p.path)).toEqual(expect.arrayContaining(['builtins.time.enabled']));
    expect(problems.length).toBeGreaterThanOrEqual(3);
    expect(problems.every((p) => p.severity === 'error' && p.hint.includes('builtins: { time: { enabled: true }'))).toBe(true);
  });
});
