import type { ServerDefinition } from '../../src/shared/mcp.js';

/** An mcp.yaml stdio server definition named `name` (id `chatos::<name>`), with `over` applied: for tests of naming, the catalog and permissions. */
export function testServerDefinition(name: string, over: Partial<ServerDefinition> = {}): ServerDefinition {
  return {
    id: `chatos::${name}`,
    name,
    providerAppId: 'chatos',
    origin: 'mcp.yaml',
    category: 'external',
    transport: { kind: 'stdio', command: 'node', args: [], env: {} },
    trulyStateless: false,
    tools: { whitelist: [], blacklist: [] },
    transform: [],
    allowMain: true,
    allowSub: true,
    timeoutMs: 60_000,
    permissions: [],
    disabledTools: [],
    disabled: false,
    meta: {},
    ...over,
  };
}
